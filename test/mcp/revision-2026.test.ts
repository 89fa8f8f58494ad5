/**
 * MCP 2026-07-28 on both tool URLs (docs/mcp.md, "Protocol revisions"): the official v2 SDK client
 * (@modelcontextprotocol/client, pinned to 2026-07-28) lists and calls tools and reads an app
 * without initialize, with an API key on /mcp and an OAuth token on /mcp/oauth; requests written
 * by hand from the revision check the result shapes (against the v2 core schemas), the header and
 * envelope refusals with their HTTP 400, the methods the revision removed, and that a 2025
 * request on the same URL is answered as before.
 * Fixture: one workspace with an admin key, connected once through OAuth; no analytics rows.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DiscoverResultSchema, ListToolsResultSchema, ReadResourceResultSchema } from '@modelcontextprotocol/core';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { oauthByHand } from './oauth-by-hand.ts';

const VERSION = '2026-07-28';
const CALLBACK = 'http://127.0.0.1:9/callback';

let t: TestApp;
let ws: TestWorkspace;
let base: string;
let oauthToken: string;

before(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  ws = await createTestWorkspace(t.stores);
  oauthToken = (await oauthByHand(base).connect(CALLBACK, `${base}/mcp/oauth`, ws.headers)).access_token;
});
after(() => t.close());

const envelope = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'by-hand', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});

/** The headers a 2026-07-28 client sends with a request: the version, the method and, where the method names something, that name. */
function standardHeaders(method: string, params: Record<string, unknown>): Record<string, string> {
  const name = method === 'tools/call' ? params.name : method === 'resources/read' ? params.uri : undefined;
  return { 'mcp-protocol-version': VERSION, 'mcp-method': method, ...(typeof name === 'string' ? { 'mcp-name': name } : {}) };
}

/** One request written by hand; `headers` replace or (with undefined) drop the standard ones. */
async function send(path: string, method: string, params: Record<string, unknown>, credentials: Record<string, string>, headers: Record<string, string | undefined> = {}) {
  const all = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...credentials, ...standardHeaders(method, params), ...headers };
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type') ?? '', text, body: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined };
}

const modern = (method: string, params: Record<string, unknown> = {}, headers: Record<string, string | undefined> = {}) =>
  send('/mcp', method, { ...params, _meta: envelope() }, ws.headers, headers);

describe('the v2 SDK client pinned to 2026-07-28', () => {
  const urls = () => [
    { path: '/mcp', headers: ws.headers },
    { path: '/mcp/oauth', headers: { authorization: `Bearer ${oauthToken}` } },
  ];

  test('lists and calls tools and reads an app without initialize, on /mcp with a key and on /mcp/oauth with a token', async () => {
    for (const { path, headers } of urls()) {
      const client = new Client({ name: 'v2-client', version: '1.0.0' }, { versionNegotiation: { mode: { pin: VERSION } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${path}`), { requestInit: { headers } }));
      try {
        assert.equal(client.getProtocolEra(), 'modern', path);
        assert.equal(client.getNegotiatedProtocolVersion(), VERSION, path);
        assert.equal(client.getServerVersion()?.name, 'storelens', path);
        const oauth = path === '/mcp/oauth';
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((tool) => tool.name), [...(oauth ? ['workspaces_list'] : []), ...TOOLS.map((tool) => tool.name)], path);
        const workspace = oauth ? { workspace_id: String(ws.id) } : {};
        const saved = await client.callTool({ name: 'notes.save-note', arguments: { title: `Over ${path}`, content: 'stateless', ...workspace } });
        assert.equal(saved.isError, false, path);
        assert.equal((saved.structuredContent as { note: { title: string } }).note.title, `Over ${path}`);
        const { resources } = await client.listResources();
        assert.ok(resources.some((resource) => resource.uri === 'ui://storelens/report'), path);
        const { contents } = await client.readResource({ uri: 'ui://storelens/report' });
        assert.equal(contents[0]!.mimeType, 'text/html;profile=mcp-app', path);
        assert.match('text' in contents[0]! ? contents[0].text : '', /^<!doctype html>/, path);
      } finally {
        await client.close();
      }
    }
    const notes = await send('/mcp', 'tools/call', { name: 'notes.get-notes', arguments: {}, _meta: envelope() }, ws.headers);
    assert.deepEqual(notes.body.result.structuredContent.notes.map((note: { title: string }) => note.title).sort(), ['Over /mcp', 'Over /mcp/oauth']);
  });
});

describe('2026-07-28 results, written by hand', () => {
  test('server/discover needs no credentials and names the revision, the capabilities, the instructions, the cache hints and the server', async () => {
    const r = await send('/mcp', 'server/discover', { _meta: envelope() }, {});
    assert.equal(r.status, 200);
    const result = r.body.result;
    assert.ok(DiscoverResultSchema.safeParse(result).success, JSON.stringify(result));
    assert.equal(result.resultType, 'complete');
    assert.deepEqual(result.supportedVersions, [VERSION]);
    assert.deepEqual(Object.keys(result.capabilities).sort(), ['extensions', 'resources', 'tools']);
    assert.deepEqual(result.capabilities.extensions, { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
    assert.match(result.instructions, /^Storelens marketing analytics/);
    assert.equal(result.cacheScope, 'public');
    assert.ok(Number.isInteger(result.ttlMs) && result.ttlMs > 0);
    assert.deepEqual(result._meta, { 'io.modelcontextprotocol/serverInfo': { name: 'storelens', title: 'Storelens analytics', version: '0.1.0' } });
  });

  test('tools/list carries resultType and cache hints private to the caller; resources/list and read are public', async () => {
    const tools = (await modern('tools/list')).body.result;
    assert.ok(ListToolsResultSchema.safeParse(tools).success);
    assert.deepEqual([tools.resultType, tools.cacheScope, typeof tools.ttlMs], ['complete', 'private', 'number']);
    assert.deepEqual(tools.tools.map((tool: { name: string }) => tool.name), TOOLS.map((tool) => tool.name));
    assert.deepEqual(tools.tools.find((tool: { name: string }) => tool.name === 'analytics.query')._meta, { ui: { resourceUri: 'ui://storelens/report' } });
    const list = (await modern('resources/list')).body.result;
    assert.deepEqual([list.resultType, list.cacheScope, list.ttlMs], ['complete', 'public', tools.ttlMs]);
    const read = (await modern('resources/read', { uri: 'ui://storelens/books' })).body.result;
    assert.ok(ReadResourceResultSchema.safeParse(read).success);
    assert.deepEqual([read.resultType, read.cacheScope, read.contents[0].uri], ['complete', 'public', 'ui://storelens/books']);
  });

  test('tools/call carries resultType and the server, and no cache hints', async () => {
    const r = await modern('tools/call', { name: 'notes.get-notes', arguments: {} });
    assert.equal(r.status, 200);
    assert.equal(r.body.result.resultType, 'complete');
    assert.equal('ttlMs' in r.body.result, false);
    assert.equal(r.body.result._meta['io.modelcontextprotocol/serverInfo'].name, 'storelens');
    const refused = await modern('tools/call', { name: 'notes.save-note', arguments: {} });
    assert.deepEqual([refused.status, refused.body.error.code], [200, -32602]);
  });

  test('an Mcp-Name that is not ASCII travels base64 encoded', async () => {
    const encoded = `=?base64?${Buffer.from('notes.get-notes').toString('base64')}?=`;
    const r = await modern('tools/call', { name: 'notes.get-notes', arguments: {} }, { 'mcp-name': encoded });
    assert.equal(r.body.result.resultType, 'complete');
  });

  test('on /mcp/oauth a 2026-07-28 request without a token gets the 401 that starts OAuth; with one, the connection\'s tools', async () => {
    const r = await send('/mcp/oauth', 'server/discover', { _meta: envelope() }, {});
    assert.equal(r.status, 401);
    const token = { authorization: `Bearer ${oauthToken}` };
    const list = (await send('/mcp/oauth', 'tools/list', { _meta: envelope() }, token)).body.result;
    assert.deepEqual([list.resultType, list.cacheScope, list.tools[0].name], ['complete', 'private', 'workspaces_list']);
    const call = await send('/mcp/oauth', 'tools/call', { name: 'workspaces_list', arguments: {}, _meta: envelope() }, token);
    assert.deepEqual([call.body.result.resultType, call.body.result.structuredContent], ['complete', { workspaces: [{ id: String(ws.id), name: 'Test shop' }] }]);
  });

  test('subscriptions/listen answers a finished event stream: the acknowledgement with no notification types, then the result', async () => {
    const r = await modern('subscriptions/listen', { notifications: { toolsListChanged: true, resourcesListChanged: true } });
    assert.equal(r.status, 200);
    assert.match(r.type, /^text\/event-stream/);
    const messages = r.text.split('\n\n').filter(Boolean).map((frame) => JSON.parse(frame.split('\n').find((line) => line.startsWith('data: '))!.slice(6)));
    assert.deepEqual(messages[0], {
      jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged',
      params: { notifications: {}, _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } },
    });
    assert.deepEqual([messages[1].id, messages[1].result.resultType, messages[1].result._meta['io.modelcontextprotocol/subscriptionId']], [7, 'complete', 7]);
    assert.equal(messages.length, 2);
    const bad = await modern('subscriptions/listen', {});
    assert.deepEqual([bad.status, bad.body.error.code], [200, -32602]);
  });
});

describe('2026-07-28 refusals', () => {
  const refusal = async (request: Promise<{ status: number; body: any }>) => {
    const r = await request;
    return { status: r.status, code: r.body.error.code, message: r.body.error.message as string, data: r.body.error.data, id: r.body.id };
  };

  test('an MCP-Protocol-Version header other than the envelope\'s is HTTP 400 with -32020', async () => {
    const r = await refusal(modern('tools/list', {}, { 'mcp-protocol-version': '2025-11-25' }));
    assert.deepEqual([r.status, r.code, r.id], [400, -32020, 7]);
    assert.equal(r.message, 'Bad Request: the request headers and body disagree: the body envelope names protocol version 2026-07-28 but the MCP-Protocol-Version header names 2025-11-25');
    assert.deepEqual(r.data.mismatch.header, '2025-11-25');
  });

  test('an Mcp-Method or Mcp-Name that disagrees with the body, or is missing, is HTTP 400 with -32020', async () => {
    const method = await refusal(modern('tools/list', {}, { 'mcp-method': 'tools/call' }));
    assert.deepEqual([method.status, method.code, method.message], [400, -32020, 'Bad Request: the request headers and body disagree: the body names method tools/list but the Mcp-Method header names tools/call']);
    const name = await refusal(modern('tools/call', { name: 'notes.get-notes', arguments: {} }, { 'mcp-name': 'notes.save-note' }));
    assert.deepEqual([name.status, name.code], [400, -32020]);
    assert.match(name.message, /params\.name="notes\.get-notes" but the Mcp-Name header names "notes\.save-note"/);
    const uri = await refusal(modern('resources/read', { uri: 'ui://storelens/report' }, { 'mcp-name': 'ui://storelens/books' }));
    assert.deepEqual([uri.status, uri.code], [400, -32020]);
    for (const dropped of ['mcp-protocol-version', 'mcp-method', 'mcp-name']) {
      const r = await refusal(modern('tools/call', { name: 'notes.get-notes', arguments: {} }, { [dropped]: undefined }));
      assert.deepEqual([r.status, r.code], [400, -32020], dropped);
      assert.match(r.message, /header is absent$/, dropped);
    }
    const broken = await refusal(modern('tools/call', { name: 'notes.get-notes', arguments: {} }, { 'mcp-name': '=?base64?***?=' }));
    assert.deepEqual([broken.status, broken.code], [400, -32020]);
    const long = await refusal(modern('tools/call', { name: 'x'.repeat(5000), arguments: {} }, { 'mcp-name': 'y'.repeat(5000) }));
    assert.equal(long.message, `Bad Request: the request headers and body disagree: the body carries params.name="${'x'.repeat(100)}..." but the Mcp-Name header names "${'y'.repeat(100)}..."`);
  });

  test('an envelope without clientCapabilities, or a 2026-07-28 header without an envelope, is HTTP 400 with -32602', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': VERSION };
    const incomplete = await refusal(send('/mcp', 'tools/list', { _meta: meta }, ws.headers));
    assert.deepEqual([incomplete.status, incomplete.code], [400, -32602]);
    assert.equal(incomplete.message, 'Invalid _meta envelope for protocol revision 2026-07-28: io.modelcontextprotocol/clientCapabilities: missing');
    const none = await refusal(send('/mcp', 'tools/list', {}, ws.headers));
    assert.deepEqual([none.status, none.code, none.data], [400, -32602, { envelope: { missing: ['_meta'] } }]);
  });

  test('a notification is accepted with 202 and no standard headers, but headers that disagree with it are HTTP 400 with -32020', async () => {
    const notify = (headers: Record<string, string>) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, _meta: envelope() } }),
      });
    assert.equal((await notify({})).status, 202);
    assert.equal((await notify({ 'mcp-protocol-version': VERSION, 'mcp-method': 'notifications/cancelled' })).status, 202);
    for (const headers of [{ 'mcp-protocol-version': '2025-06-18' }, { 'mcp-method': 'notifications/progress' }] as Record<string, string>[]) {
      const r = await notify(headers);
      const body = await r.json();
      assert.deepEqual([r.status, body.id, body.error.code], [400, null, -32020], JSON.stringify(headers));
    }
  });

  test('a batch is -32600 in both revisions: with HTTP 400 when it holds a 2026-07-28 request, with HTTP 200 when it does not', async () => {
    const batch = async (messages: unknown[]) => {
      const r = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', ...ws.headers }, body: JSON.stringify(messages) });
      return { status: r.status, body: await r.json() };
    };
    const modernBatch = await batch([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } }]);
    assert.deepEqual([modernBatch.status, modernBatch.body.error.code], [400, -32600]);
    assert.match(modernBatch.body.error.message, /batches may not contain requests for protocol revision 2026-07-28/);
    const oldBatch = await batch([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
    assert.deepEqual([oldBatch.status, oldBatch.body.error], [200, { code: -32600, message: 'Invalid request: batches are not supported' }]);
  });

  test('a revision the server does not speak is HTTP 400 with -32022 naming the ones it does', async () => {
    const r = await refusal(send('/mcp', 'tools/list', { _meta: envelope({ 'io.modelcontextprotocol/protocolVersion': '2027-01-01' }) }, ws.headers, { 'mcp-protocol-version': '2027-01-01' }));
    assert.deepEqual([r.status, r.code, r.message, r.data], [400, -32022, 'Unsupported protocol version: 2027-01-01', { supported: [VERSION], requested: '2027-01-01' }]);
  });

  test('the methods the revision removed are -32601: initialize, ping, resources/subscribe, logging/setLevel', async () => {
    for (const method of ['initialize', 'ping', 'resources/subscribe', 'logging/setLevel']) {
      const r = await refusal(modern(method, method === 'resources/subscribe' ? { uri: 'ui://storelens/report' } : {}));
      assert.deepEqual([r.status, r.code, r.message], [200, -32601, `Method not found: ${method}`], method);
    }
    const handshake = await refusal(send('/mcp', 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }, {}));
    assert.deepEqual([handshake.status, handshake.code], [400, -32020]);
  });

  test('a 2025 request on the same URL is answered as before: initialize, and results without resultType', async () => {
    const init = await send('/mcp', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }, {}, { 'mcp-protocol-version': undefined, 'mcp-method': undefined });
    assert.deepEqual([init.status, init.body.result.protocolVersion], [200, '2025-06-18']);
    const list = await send('/mcp', 'tools/list', {}, ws.headers, { 'mcp-protocol-version': '2025-11-25', 'mcp-method': undefined });
    assert.equal(list.status, 200);
    assert.deepEqual(Object.keys(list.body.result), ['tools']);
    const ping = await send('/mcp', 'ping', {}, {}, { 'mcp-protocol-version': undefined, 'mcp-method': undefined });
    assert.deepEqual(ping.body.result, {});
  });
});
