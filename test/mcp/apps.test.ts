/**
 * The MCP Apps over JSON-RPC (docs/mcp.md, "Charts inside the assistant"): the capability in
 * initialize, resources/list and resources/read, and the tools' `_meta.ui.resourceUri` links.
 * Rendering in a browser: apps-browser.test.ts. Fixture: one workspace with an admin key and a
 * read:meta key; no analytics rows (the documents hold no data).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { postMcp } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores);
});
after(() => t.close());

const MIME = 'text/html;profile=mcp-app';
const rpc = async (method: string, params: object, headers: Record<string, string> = ws.headers, url = '/mcp') => {
  const response = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: { jsonrpc: '2.0', id: 1, method, params } });
  return response.json();
};
const read = (uri: unknown, headers?: Record<string, string>, url?: string) => rpc('resources/read', { uri }, headers, url);

describe('resources', () => {
  test('initialize declares resources and the MCP Apps extension with its mime type', async () => {
    const r = await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    assert.deepEqual(r.body.result.capabilities.resources, { listChanged: false });
    assert.deepEqual(r.body.result.capabilities.extensions, { 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } });
  });

  test('resources/list names each app with its ui:// URI and mime type, on one page', async () => {
    assert.deepEqual((await rpc('resources/list', {})).result, {
      resources: [
        {
          uri: 'ui://storelens/report',
          name: 'report',
          title: 'Report',
          description: 'analytics.query as the dashboard shows it: totals (with their change), a chart of periods, the rows as a table',
          mimeType: MIME,
        },
        { uri: 'ui://storelens/attribution', name: 'attribution', title: 'Attribution models', description: 'attribution.get-data as the dashboard table of the models side by side', mimeType: MIME },
        {
          uri: 'ui://storelens/explain',
          name: 'explain',
          title: 'Why an order was credited',
          description: "attribution.explain as the order's touchpoints and the dashboard's why panel: each model's shares, the removal effects",
          mimeType: MIME,
        },
        {
          uri: 'ui://storelens/books',
          name: 'books',
          title: 'Storelens vs shop',
          description: "reconciliation.get-data as a chart of the shop's and the report's revenue per day and the table of every difference",
          mimeType: MIME,
        },
        {
          uri: 'ui://storelens/customers',
          name: 'customers',
          title: 'Customers and lifetime value',
          description: "customers.get-ltv as the dashboard's cohort table, a heat map of repeat rate and LTV per row",
          mimeType: MIME,
        },
      ],
    });
    assert.deepEqual((await rpc('resources/templates/list', {})).result, { resourceTemplates: [] });
    assert.deepEqual((await rpc('resources/list', { cursor: 'x' })).error, { code: -32602, message: 'Invalid cursor: every resource is on the first page' });
  });

  test('resources/read answers one self-contained HTML document: inline script and style, nothing to fetch', async () => {
    const { result } = await read('ui://storelens/report');
    assert.equal(result.contents.length, 1);
    const [content] = result.contents;
    assert.deepEqual({ ...content, text: undefined }, { uri: 'ui://storelens/report', mimeType: MIME, text: undefined, _meta: { ui: { prefersBorder: false } } });
    const html: string = content.text;
    assert.match(html, /^<!doctype html><html lang="en"><head>.*<\/head><body data-app="report"><main id="app"><\/main><script>.*<\/script><\/body><\/html>$/s);
    assert.equal(html.match(/<script/g)!.length, 1);
    assert.equal(html.match(/<style/g)!.length, 1);
    assert.doesNotMatch(html, /<script[^>]*\bsrc=|<link\b|<img\b|@import|url\((?!data:)/, 'no URL of a script, stylesheet, image or font');
    assert.doesNotMatch(html, /\bfetch\(|XMLHttpRequest|WebSocket/, 'no request of its own: the data come from the host');
  });

  test('every caller reads the same documents: they hold no data, and a key without any data scope reads them', async () => {
    const metaOnly = await ws.keyHeaders(['read:meta']);
    for (const uri of ['ui://storelens/report', 'ui://storelens/attribution', 'ui://storelens/explain', 'ui://storelens/books', 'ui://storelens/customers']) {
      assert.deepEqual(await read(uri, metaOnly), await read(uri));
    }
  });

  test('an unknown URI or a missing one is -32602, as MCP has resource-not-found answered', async () => {
    assert.deepEqual((await read('ui://storelens/nope')).error, { code: -32602, message: 'Resource not found: ui://storelens/nope' });
    assert.deepEqual((await read(`ui://${'x'.repeat(300)}`)).error, { code: -32602, message: `Resource not found: ui://${'x'.repeat(195)}...` });
    assert.deepEqual((await read(undefined)).error, { code: -32602, message: 'Invalid params: uri must be a string' });
  });

  test('listing and reading need the credentials tools/list needs', async () => {
    assert.equal((await rpc('resources/list', {}, {})).error.code, -32001);
    assert.equal((await read('ui://storelens/report', {})).error.code, -32001);
    const oauth = await t.app.inject({ method: 'POST', url: '/mcp/oauth', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'resources/list' } });
    assert.equal(oauth.statusCode, 401);
  });

  test('a connection narrowed with ?tools= sees the apps of its tools only', async () => {
    assert.deepEqual((await rpc('resources/list', {}, ws.headers, '/mcp?tools=attribution')).result.resources.map((r: any) => r.uri), ['ui://storelens/attribution', 'ui://storelens/explain']);
    assert.deepEqual((await rpc('resources/list', {}, ws.headers, '/mcp?tools=notes')).result, { resources: [] });
    assert.deepEqual((await read('ui://storelens/report', ws.headers, '/mcp?tools=notes')).error, { code: -32602, message: 'Resource not found: ui://storelens/report' });
  });
});

describe('tools/list links the apps', () => {
  test('analytics.query, attribution.get-data, attribution.explain, reconciliation.get-data and customers.get-ltv name their app in _meta.ui.resourceUri; no other tool carries _meta', async () => {
    const { tools } = (await rpc('tools/list', {})).result;
    const linked = tools.filter((tool: any) => tool._meta).map((tool: any) => [tool.name, tool._meta]);
    assert.deepEqual(linked, [
      ['analytics.query', { ui: { resourceUri: 'ui://storelens/report' } }],
      ['attribution.get-data', { ui: { resourceUri: 'ui://storelens/attribution' } }],
      ['attribution.explain', { ui: { resourceUri: 'ui://storelens/explain' } }],
      ['reconciliation.get-data', { ui: { resourceUri: 'ui://storelens/books' } }],
      ['customers.get-ltv', { ui: { resourceUri: 'ui://storelens/customers' } }],
    ]);
    const listed = (await rpc('resources/list', {})).result.resources.map((r: any) => r.uri);
    assert.deepEqual(linked.map(([, meta]: any) => meta.ui.resourceUri), listed);
  });

  test('a linked tool still answers with the JSON as text beside structuredContent, for hosts without the extension', async () => {
    const { result } = await rpc('tools/call', { name: 'attribution.get-data', arguments: { models: ['linear'] } });
    assert.equal(result.isError, false);
    assert.deepEqual(result.content, [{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
    assert.deepEqual(result.structuredContent.attribution.models, ['linear']);
  });
});
