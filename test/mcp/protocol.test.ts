/**
 * The JSON-RPC envelope of POST /mcp: framing errors, methods, authentication and the tool list.
 * Fixture: one workspace with an admin key, a read:meta key (no profit) and a revoked key; no
 * analytics rows (these tests are about the protocol, not numbers).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { revokeApiKey } from '../../src/store/app/api-keys.ts';
import { MCP_BODY_LIMIT } from '../../src/mcp/errors.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { DESCRIBED_ONCE } from '../../src/mcp/tools/kit/tool.ts';
import { PIXEL_SOURCES, SOURCE_GROUP_NAMES } from '../../src/analytics/sources.ts';
import { METRIC_NAMES } from '../../src/analytics/metrics.ts';
import { bearer, callTool, postMcp } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;
let metaOnly: Record<string, string>;

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores);
  metaOnly = await ws.keyHeaders(['read:meta']);
});
after(() => t.close());

describe('framing', () => {
  test('answers a body that is not JSON with -32700 and HTTP 200', async () => {
    const r = await postMcp(t.app, '{"jsonrpc": "2.0", "id": 1, "method": ', ws.headers);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not valid JSON' } });
  });

  test('refuses a batch with -32600', async () => {
    const r = await postMcp(t.app, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], ws.headers);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: batches are not supported' } });
  });

  test('answers a request without method with -32600 and keeps its id', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 7 }, ws.headers);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid request: method is missing' } });
  });

  test('answers a wrong jsonrpc version and a non-object body with -32600', async () => {
    assert.equal((await postMcp(t.app, { jsonrpc: '1.0', id: 1, method: 'ping' })).body.error.code, -32600);
    assert.equal((await postMcp(t.app, '"ping"')).body.error.code, -32600);
    assert.equal((await postMcp(t.app, { jsonrpc: '2.0', id: { x: 1 }, method: 'ping' })).body.error.code, -32600);
  });

  test('refuses a body over the limit with -32600 and HTTP 200', async () => {
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(MCP_BODY_LIMIT) } });
    const r = await postMcp(t.app, huge, ws.headers);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: `Invalid request: the body exceeds ${MCP_BODY_LIMIT} bytes` },
    });
  });

  test('accepts a notification with 202 and no body', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(r.status, 202);
    assert.equal(r.text, '');
  });

  test('answers GET /mcp with 405', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/mcp', headers: { accept: 'text/event-stream' } });
    assert.equal(r.statusCode, 405);
    assert.equal(r.headers.allow, 'POST');
    assert.deepEqual(r.json(), { message: 'Method not allowed' });
  });

  test('answers an unknown method with -32601', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 'a', method: 'prompts/list' }, ws.headers);
    assert.deepEqual(r.body, { jsonrpc: '2.0', id: 'a', error: { code: -32601, message: 'Method not found: prompts/list' } });
  });
});

describe('initialize and ping', () => {
  test('initialize needs no credentials and echoes a supported protocol version', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    assert.equal(r.status, 200);
    assert.equal(r.body.result.protocolVersion, '2025-03-26');
    assert.deepEqual(r.body.result.capabilities, {
      tools: { listChanged: false },
      resources: { listChanged: false },
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
    });
    assert.equal(r.body.result.serverInfo.name, 'storelens');
  });

  test('initialize answers the newest version for an unknown one', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2099-01-01' } });
    assert.equal(r.body.result.protocolVersion, '2025-11-25');
  });

  test('ping answers an empty result', async () => {
    assert.deepEqual((await postMcp(t.app, { jsonrpc: '2.0', id: 3, method: 'ping' })).body, { jsonrpc: '2.0', id: 3, result: {} });
  });
});

describe('authentication', () => {
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

  test('tools/list without credentials is -32001', async () => {
    const r = await postMcp(t.app, list);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.error, {
      code: -32001,
      message: 'Missing credentials: send Authorization: Bearer <api_key>:<client_secret>, or the x-api-key and client-secret headers',
    });
  });

  test('a wrong key or secret is -32001 with the data-API message', async () => {
    assert.deepEqual((await postMcp(t.app, list, { authorization: 'Bearer sl_nope:slsec_nope' })).body.error, { code: -32001, message: 'Invalid API key' });
    const wrongSecret = { ...ws.headers, 'client-secret': 'slsec_wrong' };
    assert.deepEqual((await postMcp(t.app, list, wrongSecret)).body.error, { code: -32001, message: 'Invalid client secret' });
    assert.deepEqual((await postMcp(t.app, list, { 'x-api-key': ws.headers['x-api-key']! })).body.error, { code: -32001, message: 'Missing client-secret header' });
    assert.deepEqual((await postMcp(t.app, list, { authorization: 'Basic abc' })).body.error, {
      code: -32001,
      message: 'Invalid Authorization header: expected Bearer <api_key>:<client_secret>',
    });
    assert.deepEqual((await postMcp(t.app, list, { authorization: 'Bearer sla_unknown' })).body.error, { code: -32001, message: 'Invalid or expired access token' });
  });

  test('a revoked key is -32001 Invalid API key', async () => {
    const headers = await ws.keyHeaders(['read:google']);
    await revokeApiKey(t.stores.db, headers['x-api-key']!);
    assert.deepEqual((await postMcp(t.app, list, bearer(headers))).body.error, { code: -32001, message: 'Invalid API key' });
  });

  test('Bearer <key>:<secret> and the two headers both work', async () => {
    assert.ok((await postMcp(t.app, list, bearer(ws.headers))).body.result.tools.length > 0);
    assert.ok((await postMcp(t.app, list, ws.headers)).body.result.tools.length > 0);
  });
});


/** Paths of properties without a description (but those described once), and of objects that accept unknown members. */
function undescribed(schema: any, path: string, out: string[] = []): string[] {
  if (schema?.properties) {
    if (schema.additionalProperties !== false) out.push(`${path} (not strict)`);
    for (const [key, prop] of Object.entries<any>(schema.properties)) {
      if (!prop.description && !(key in DESCRIBED_ONCE)) out.push(`${path}.${key}`);
      undescribed(prop, `${path}.${key}`, out);
    }
  }
  if (schema?.items) undescribed(schema.items, `${path}[]`, out);
  for (const variant of schema?.anyOf ?? schema?.oneOf ?? []) undescribed(variant, path, out);
  return out;
}

/**
 * What the whole tools/list result of an admin key may weigh, output schemas included: the 50 KiB
 * the contract allows (docs/mcp.md, "Size of the tool list"); the OAuth connection's, with
 * workspace_id on every tool, is held to the same in oauth.test.ts.
 */
const LIST_BUDGET_BYTES = 51_200;

describe('tools/list', () => {
  test('lists every tool on one page, without nextCursor and without workspaces_list', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, ws.headers);
    const tools = r.body.result.tools as any[];
    assert.deepEqual(tools.map((x) => x.name), TOOLS.map((x) => x.name));
    assert.equal('nextCursor' in r.body.result, false);
    assert.equal(tools.some((x) => x.name === 'workspaces_list'), false);
  });

  test('every tool has a description, annotations and a strict schema whose properties are all described', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, ws.headers);
    for (const tool of r.body.result.tools) {
      assert.ok(tool.description.length > 30, tool.name);
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
      assert.equal(tool.inputSchema.properties.workspace_id, undefined, tool.name);
      assert.deepEqual(undescribed(tool.inputSchema, tool.name), [], 'every property, nested ones too, is described and every object strict');
      const isRead = /\.(get-|list_schema$|query$|profit-summary$|explain$|compare-channels$)/.test(tool.name);
      // A write leaves readOnlyHint at its default, false.
      assert.equal(tool.annotations.readOnlyHint, isRead || undefined, tool.name);
      // MCP defines destructiveHint for tools that are not read-only only.
      assert.equal(tool.annotations.destructiveHint, isRead ? undefined : false, tool.name);
    }
  });

  test('a tool that counts revenue or conversions names its basis: the report\'s credit or whole orders', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, ws.headers);
    const basis = (name: string) => /Basis: (report|orders)\.$/.exec(r.body.result.tools.find((tool: any) => tool.name === name).description)?.[1];
    const report = ['analytics.query', 'analytics.profit-summary', 'products.get-sales', 'attribution.get-data', 'correlations.get-data', 'budget.compare-channels', 'library.get-assets'];
    const orders = ['journeys.get-data', 'hourly.get-data', 'map.get-data', 'weather.get-data', 'geo-testing.get-candidates', 'ab-testing.get-results', 'offers.get-opportunities'];
    assert.deepEqual([...report, ...orders].map(basis), [...report.map(() => 'report'), ...orders.map(() => 'orders')]);
  });

  test(`the result, output schemas included, stays under ${LIST_BUDGET_BYTES} bytes`, async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, ws.headers);
    assert.equal(r.body.result.tools.length, TOOLS.length);
    assert.ok(r.body.result.tools.every((tool: any) => tool.outputSchema?.type === 'object'));
    // The server serialises with JSON.stringify, so this is the result's size on the wire.
    const bytes = Buffer.byteLength(JSON.stringify(r.body.result));
    assert.ok(bytes < LIST_BUDGET_BYTES, `${bytes} bytes`);
  });

  test('a long enum a tool repeats is listed once in its $defs: the metrics of metrics and sort_by', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, ws.headers);
    const query = r.body.result.tools.find((tool: any) => tool.name === 'analytics.query').inputSchema;
    const { metrics, sort_by } = query.properties;
    assert.deepEqual([metrics.items, sort_by], [{ $ref: '#/$defs/metrics' }, { description: sort_by.description, $ref: '#/$defs/metrics' }]);
    assert.deepEqual(query.$defs, { metrics: { enum: [...METRIC_NAMES] } });
    const withDefs = r.body.result.tools.filter((tool: any) => tool.inputSchema.$defs).map((tool: any) => tool.name);
    assert.deepEqual(withDefs, ['analytics.query']);
  });

  test('sources and groups are plain strings in tools/list, as metadata.list_schema lists them, and an unknown one is refused by name', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, ws.headers);
    const { filters } = r.body.result.tools.find((tool: any) => tool.name === 'analytics.query').inputSchema.properties;
    assert.deepEqual([filters.properties.source.items, filters.properties.ignore_sources.items], [{ type: 'string' }, { type: 'string' }]);
    const known = await callTool(t.app, ws.headers, 'analytics.query', { filters: { source: [...PIXEL_SOURCES, ...SOURCE_GROUP_NAMES] } });
    assert.equal(known.result?.isError, false);
    const unknown = await callTool(t.app, ws.headers, 'analytics.query', { filters: { source: ['paid_social', 'myspace'] } });
    assert.equal(unknown.error?.code, -32602);
    assert.equal(unknown.error?.message, 'Invalid arguments for tool analytics.query: filters.source.1: unknown source "myspace" (metadata.list_schema lists the sources and groups)');
  });

  test('covers every tool the spec names, and no delete tool', async () => {
    const names = new Set(TOOLS.map((x) => x.name));
    const spec = [
      'analytics.query', 'analytics.profit-summary', 'lists.get-lists', 'surveys.get-responses', 'journeys.get-data',
      'attribution.get-data', 'correlations.get-data', 'hourly.get-data', 'map.get-data', 'weather.get-data',
      'segments.get-segments', 'labels.get-labels', 'marketing-angles.get-angles', 'ad-fatigue.get-scores',
      'geo-testing.get-tests', 'geo-testing.get-candidates', 'ab-testing.get-tests', 'ab-testing.get-results',
      'ai-visibility.get-results', 'health-center.get-summary', 'library.get-assets', 'notes.get-notes', 'offers.get-offers',
      'offers.get-opportunities', 'loyalty.get-programs', 'loyalty.get-analytics', 'topics.get-topics', 'workflows.get-rules',
      'workflows.get-executions', 'forms.get-forms', 'creators.get-creators', 'creators.get-programs', 'audit-log.get-log',
      'dashboards.get-dashboards', 'metadata.list_schema', 'lists.create', 'lists.add-column', 'lists.add-items',
      'lists.update-items', 'lists.add-top-creatives', 'forms.add-fields', 'creators.create-program', 'creators.create',
      'surveys.create', 'marketing-angles.create', 'ai-visibility.create-prompt', 'topics.add', 'segments.create',
      'labels.label-asset', 'notes.save-note', 'offers.create', 'creators.update', 'notes.update', 'marketing-angles.update',
      'segments.update', 'offers.update', 'dashboards.create-report', 'workflows.create',
    ];
    assert.deepEqual(spec.filter((n) => !names.has(n)), []);
    assert.deepEqual([...names].filter((n) => /delete|remove/.test(n)), []);
  });

  test('refuses a cursor with -32602, since everything is on the first page', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'abc' } }, ws.headers);
    assert.deepEqual(r.body.error, { code: -32602, message: 'Invalid cursor: every tool is on the first page' });
  });
});

describe('tools/call errors', () => {
  test('an unknown tool is -32601', async () => {
    assert.deepEqual((await callTool(t.app, ws.headers, 'notes.delete', {})).error, { code: -32601, message: 'Unknown tool: notes.delete' });
  });

  test('an unknown tool close to a known one names it', async () => {
    const error = async (name: string) => (await callTool(t.app, ws.headers, name, {})).error;
    assert.deepEqual(await error('analytics_query'), { code: -32601, message: 'Unknown tool: analytics_query. Did you mean analytics.query?' });
    assert.deepEqual(await error('notes.get-note'), { code: -32601, message: 'Unknown tool: notes.get-note. Did you mean notes.get-notes?' });
    assert.deepEqual(await error('query'), { code: -32601, message: 'Unknown tool: query. Did you mean analytics.query?' });
    assert.deepEqual(await error(`x${'y'.repeat(300)}`), { code: -32601, message: `Unknown tool: x${'y'.repeat(99)}...` });
  });

  test('a missing argument reads "x is required", nested ones with their path', async () => {
    const reply = await callTool(t.app, ws.headers, 'notes.save-note', { content: 'x' });
    assert.deepEqual(reply.error, {
      code: -32602,
      message: 'Invalid arguments for tool notes.save-note: title is required',
      data: { issues: [{ path: 'title', message: 'title is required' }] },
    });
    const nested = await callTool(t.app, ws.headers, 'creators.create-program', { name: 'P', commission: { type: 'tiered', tiers: [{ rate_percent: 5 }] } });
    assert.equal(nested.error?.message, 'Invalid arguments for tool creators.create-program: commission.tiers.0.min_revenue_cents is required');
  });

  test('workspaces_list does not exist on a single-workspace connection', async () => {
    assert.equal((await callTool(t.app, ws.headers, 'workspaces_list', {})).error?.code, -32601);
  });

  test('wrong types and unknown arguments are -32602 with every reason', async () => {
    const reply = await callTool(t.app, ws.headers, 'notes.save-note', { title: 5, content: 'x', colour: 'red' });
    assert.deepEqual(reply.error, {
      code: -32602,
      message: 'Invalid arguments for tool notes.save-note: title: Invalid input: expected string, received number; (arguments): Unrecognized key: "colour"',
      data: {
        issues: [
          { path: 'title', message: 'Invalid input: expected string, received number' },
          { path: '(arguments)', message: 'Unrecognized key: "colour"' },
        ],
      },
    });
  });

  test('arguments that are not an object, or a missing name, are -32602', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'notes.get-notes', arguments: [1] } }, ws.headers);
    assert.deepEqual(r.body.error, { code: -32602, message: 'Invalid params: arguments must be an object' });
    const r2 = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }, ws.headers);
    assert.deepEqual(r2.body.error, { code: -32602, message: 'Invalid params: name must be a string' });
    const r3 = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' }, ws.headers);
    assert.deepEqual(r3.body.error, { code: -32602, message: 'Invalid params: params must be an object' });
  });

  test('a huge array is refused by the schema, not processed', async () => {
    const reply = await callTool(t.app, ws.headers, 'lists.add-items', { list_id: '1', items: Array.from({ length: 5000 }, () => ({ values: {} })) });
    assert.equal(reply.error?.code, -32602);
    assert.match(reply.error!.message, /^Invalid arguments for tool lists.add-items: items: Too big: expected array to have <=200 items/);
  });

  test('bad dates are -32602 naming the argument, the form and the value', async () => {
    const message = async (tool: string, args: Record<string, unknown>) => (await callTool(t.app, ws.headers, tool, args)).error?.message;
    assert.equal(await message('hourly.get-data', { date_from: '2026-13-01' }), 'Invalid arguments: date_from is not a calendar day (got 2026-13-01)');
    assert.equal(await message('hourly.get-data', { date_to: '1969-12-31' }), 'Invalid arguments: date_to must be in the years 1970 to 2299 (got 1969-12-31)');
    assert.equal(await message('analytics.query', { filters: { date_from: '2300-01-01' } }),
      'Invalid arguments for tool analytics.query: filters.date_from: date_from must be in the years 1970 to 2299 (got 2300-01-01)');
    assert.equal(await message('analytics.query', { filters: { date_to: '2026-02-29 10:00:00' } }),
      'Invalid arguments for tool analytics.query: filters.date_to: date_to is not a calendar day (got 2026-02-29 10:00:00)');
    assert.equal((await callTool(t.app, ws.headers, 'hourly.get-data', { date_from: '2026-05-02', date_to: '2026-05-01' })).error?.message,
      'Invalid arguments: date_from must not be after date_to');
    assert.equal(await message('hourly.get-data', { date_from: 'yesterday' }), 'Invalid arguments for tool hourly.get-data: date_from: date_from must be YYYY-MM-DD (got yesterday)');
    assert.equal(await message('analytics.query', { filters: { date_from: '01/11/2026' } }),
      'Invalid arguments for tool analytics.query: filters.date_from: date_from must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (got 01/11/2026)');
  });

  test('profit without read:profit is a permission_denied tool result', async () => {
    const reply = await callTool(t.app, bearer(metaOnly), 'analytics.profit-summary', {});
    const payload = { error: { code: 'permission_denied', message: 'You do not have access to profit metrics' } };
    assert.deepEqual(reply.result, { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload, isError: true });
    const query = await callTool(t.app, bearer(metaOnly), 'analytics.query', { metrics: ['net_profit'] });
    assert.equal(query.result?.isError, true);
    assert.equal(query.result?.structuredContent.error.code, 'permission_denied');
  });

  test('a source the key cannot see is a permission_denied tool result', async () => {
    const reply = await callTool(t.app, bearer(metaOnly), 'analytics.query', { filters: { source: ['google'] } });
    assert.deepEqual(reply.result?.structuredContent, {
      error: { code: 'permission_denied', message: 'You do not have access to the requested sources' },
    });
    assert.equal(reply.result?.isError, true);
  });

  test('results carry structuredContent and the same JSON as one text item', async () => {
    const reply = await callTool(t.app, ws.headers, 'notes.get-notes', {});
    assert.deepEqual(reply.result, { content: [{ type: 'text', text: '{"notes":[]}' }], structuredContent: { notes: [] }, isError: false });
  });
});
