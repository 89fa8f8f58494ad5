/**
 * The edges of the two tool-endpoint URLs and of OAuth: the Origin rule, a client-chosen Host,
 * tokens used where they do not belong, and narrowing the tool set from the URL. Requests go to a
 * listening server (the SDK's OAuth handlers are Express and need a real socket); OAuth
 * connections are made by hand (register, consent form, token with PKCE; oauth-by-hand.ts), the
 * way oauth.test.ts's browser flow makes them. Redirect URIs at registration:
 * oauth-registration.test.ts.
 * Fixture: one workspace with an admin key and one note; no STORELENS_PUBLIC_URL, and
 * https://claude.ai in STORELENS_MCP_ALLOWED_ORIGINS.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { loadConfig } from '../../src/config.ts';
import { originAllowed } from '../../src/mcp/origin.ts';
import { TOOLS, TOOL_FAMILIES } from '../../src/mcp/tools/index.ts';
import { bearer, toolOk } from './rpc.ts';
import { oauthByHand } from './oauth-by-hand.ts';

let t: TestApp;
let ws: TestWorkspace;
/** The listening server's address: a loopback address, so also the public base here. */
let BASE: string;
const CALLBACK = 'http://127.0.0.1:9/callback';

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

async function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(`${BASE}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
}

/** One request with a Host header of our choosing (fetch always sends the URL's). */
function withHost(method: string, path: string, host: string, body = ''): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${BASE}${path}`, { method, headers: { host, 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** A whole OAuth connection by hand for the fixture's workspace; `resource` '' asks for none. */
const connect = (resource: string) => oauthByHand(BASE).connect(CALLBACK, resource, ws.headers);

before(async () => {
  t = await startTestApp({ mcpAllowedOrigins: ['https://claude.ai'] });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  BASE = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  ws = await createTestWorkspace(t.stores);
  await toolOk(t.app, ws.headers, 'notes.save-note', { title: 'Edge note', content: '' });
});
after(() => t.close());

describe('Origin', () => {
  test('a foreign Origin gets 403 on both URLs before any JSON-RPC work, credentials or not', async () => {
    for (const url of ['/mcp', '/mcp/oauth']) {
      const r = await post(url, LIST, { origin: 'https://evil.example', ...bearer(ws.headers) });
      assert.equal(r.status, 403, url);
      assert.deepEqual(r.body, { message: 'Origin not allowed' });
    }
    const broken = await post('/mcp', '{not json', { origin: 'https://evil.example' });
    assert.equal(broken.status, 403);
    const opaque = await post('/mcp', LIST, { origin: 'null', ...bearer(ws.headers) });
    assert.equal(opaque.status, 403);
  });

  test('loopback origins, listed origins and requests without Origin are served', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000', 'https://claude.ai', undefined]) {
      const r = await post('/mcp', LIST, { ...(origin ? { origin } : {}), ...bearer(ws.headers) });
      assert.equal(r.status, 200, String(origin));
      assert.equal(r.body.result.tools.length, TOOLS.length);
    }
  });

  test('an allowed origin gets CORS headers, for the preflight and the answer, on both URLs', async () => {
    for (const url of ['/mcp', '/mcp/oauth']) {
      const preflight = await fetch(`${BASE}${url}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://claude.ai', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      assert.equal(preflight.status, 204, url);
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://claude.ai');
      assert.equal(preflight.headers.get('access-control-allow-methods'), 'POST');
      assert.match(preflight.headers.get('access-control-allow-headers')!, /authorization, content-type/);
      const foreign = await fetch(`${BASE}${url}`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      assert.equal(foreign.status, 403);
      assert.equal(foreign.headers.get('access-control-allow-origin'), null);
    }
    const answer = await post('/mcp/oauth', LIST, { origin: 'https://claude.ai' });
    assert.equal(answer.status, 401);
    assert.equal(answer.headers.get('access-control-allow-origin'), 'https://claude.ai');
    assert.match(answer.headers.get('access-control-expose-headers')!, /www-authenticate/);
  });

  test('the public URL\'s origin is allowed, and STORELENS_MCP_ALLOWED_ORIGINS is read as origins', () => {
    const config = loadConfig({ STORELENS_PUBLIC_URL: 'https://analytics.shop.example/base', STORELENS_MCP_ALLOWED_ORIGINS: ' https://claude.ai/ , https://chatgpt.com' });
    assert.deepEqual(config.mcpAllowedOrigins, ['https://claude.ai', 'https://chatgpt.com']);
    assert.equal(originAllowed('https://analytics.shop.example', config), true);
    assert.equal(originAllowed('https://chatgpt.com', config), true);
    assert.equal(originAllowed('http://analytics.shop.example', config), false);
    assert.equal(originAllowed('https://shop.example', config), false);
    assert.throws(() => loadConfig({ STORELENS_MCP_ALLOWED_ORIGINS: 'claude.ai' }), /STORELENS_MCP_ALLOWED_ORIGINS: claude.ai is not an origin/);
  });
});

describe('a client-chosen Host without STORELENS_PUBLIC_URL', () => {
  test('never changes the OAuth addresses and never fails', async () => {
    const base = `http://localhost:${t.config.port}`;
    for (const host of ['evil.example', 'a.b.c.d.example:9999', '[fe80::1]', 'x'.repeat(300)]) {
      const as = await withHost('GET', '/.well-known/oauth-authorization-server', host);
      assert.equal(as.status, 200, host);
      assert.equal(JSON.parse(as.text).issuer, `${base}/`, host);
      const prm = await withHost('GET', '/.well-known/oauth-protected-resource/mcp/oauth', host);
      assert.equal(JSON.parse(prm.text).resource, `${base}/mcp/oauth`);
      const authorize = await withHost('GET', '/authorize?client_id=nobody&response_type=code', host);
      assert.ok(authorize.status < 500, `${host}: ${authorize.status}`);
      const mcp = await withHost('POST', '/mcp/oauth', host, JSON.stringify(LIST));
      assert.equal(mcp.status, 401);
      assert.equal(mcp.headers['www-authenticate'], `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp/oauth"`);
    }
  });

  test('a loopback Host is used as is, so local clients find the server they called', async () => {
    const as = await withHost('GET', '/.well-known/oauth-authorization-server', '127.0.0.1:4321');
    assert.equal(JSON.parse(as.text).issuer, 'http://127.0.0.1:4321/');
  });
});

describe('tokens used where they do not belong', () => {
  let connectorToken: string;
  let mcpToken: string;

  before(async () => {
    connectorToken = (await connect(`${BASE}/mcp/oauth`)).access_token;
    mcpToken = (await connect(`${BASE}/mcp`)).access_token;
  });

  test('a token issued for /mcp/oauth works there and is refused on /mcp with -32001', async () => {
    const ok = await post('/mcp/oauth', LIST, { authorization: `Bearer ${connectorToken}` });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.result.tools[0].name, 'workspaces_list');
    const r = await post('/mcp', LIST, { authorization: `Bearer ${connectorToken}` });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.error, { code: -32001, message: `This access token was issued for ${BASE}/mcp/oauth, not ${BASE}/mcp` });
  });

  test('a token issued for /mcp works there and gets 401 on /mcp/oauth', async () => {
    assert.equal((await post('/mcp', LIST, { authorization: `Bearer ${mcpToken}` })).body.result.tools[0].name, 'workspaces_list');
    const r = await post('/mcp/oauth', LIST, { authorization: `Bearer ${mcpToken}` });
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('www-authenticate'), `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp/oauth", error="invalid_token"`);
    assert.deepEqual(r.body, { message: `This access token was issued for ${BASE}/mcp, not ${BASE}/mcp/oauth` });
  });

  test('a token for another server\'s resource is refused on both URLs', async () => {
    const foreign = (await connect('https://other.example/mcp')).access_token;
    assert.equal((await post('/mcp/oauth', LIST, { authorization: `Bearer ${foreign}` })).status, 401);
    assert.equal((await post('/mcp', LIST, { authorization: `Bearer ${foreign}` })).body.error.message, `This access token was issued for https://other.example/mcp, not ${BASE}/mcp`);
  });

  test('a token issued without a resource works on both URLs', async () => {
    const token = (await connect('')).access_token;
    assert.equal((await post('/mcp/oauth', LIST, { authorization: `Bearer ${token}` })).status, 200);
    assert.ok((await post('/mcp', LIST, { authorization: `Bearer ${token}` })).body.result);
  });

  test('an expired token gets 401 on /mcp/oauth and -32001 on /mcp', async () => {
    const { access_token: token } = await connect(`${BASE}/mcp/oauth`);
    await t.stores.db.updateTable('oauth_tokens').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('kind', '=', 'access').where('expires_at', '>', '2020-01-02').execute();
    const r = await post('/mcp/oauth', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, { authorization: `Bearer ${token}` });
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, { message: 'Invalid or expired access token' });
    assert.deepEqual((await post('/mcp', LIST, { authorization: `Bearer ${token}` })).body.error, { code: -32001, message: 'Invalid or expired access token' });
    connectorToken = (await connect(`${BASE}/mcp/oauth`)).access_token;
  });

  test('an API key is refused on /mcp/oauth, also as headers', async () => {
    for (const headers of [bearer(ws.headers), ws.headers]) {
      const r = await post('/mcp/oauth', LIST, headers);
      assert.equal(r.status, 401);
    }
    assert.deepEqual((await post('/mcp/oauth', LIST, bearer(ws.headers))).body, { message: 'API keys are not accepted here: connect them to /mcp, or connect through OAuth' });
  });

  test('/mcp takes the key in the URL for clients that take nothing else; /mcp/oauth does not', async () => {
    const query = new URLSearchParams({ api_key: ws.headers['x-api-key']!, client_secret: ws.headers['client-secret']! });
    assert.equal((await post(`/mcp?${query}`, LIST)).body.result.tools.length, TOOLS.length);
    assert.deepEqual((await post(`/mcp?api_key=${ws.headers['x-api-key']}`, LIST)).body.error, { code: -32001, message: 'Missing client_secret parameter' });
    assert.equal((await post(`/mcp/oauth?${query}`, LIST)).status, 401);
  });

  test('narrowing works on the connector URL too; workspaces_list stays', async () => {
    const r = await post('/mcp/oauth?tools=notes&read_only=1', LIST, { authorization: `Bearer ${connectorToken}` });
    assert.deepEqual(r.body.result.tools.map((x: { name: string }) => x.name), ['workspaces_list', 'notes.get-notes']);
  });
});

describe('narrowing the tool set from the URL', () => {
  test('?tools= keeps the named families, in tools/list and tools/call', async () => {
    const r = await post('/mcp', LIST, bearer(ws.headers));
    const all = r.body.result.tools.map((x: { name: string }) => x.name);
    const narrowed = await post('/mcp?tools=notes,lists', LIST, bearer(ws.headers));
    assert.deepEqual(narrowed.body.result.tools.map((x: { name: string }) => x.name), all.filter((n: string) => /^(notes|lists)\./.test(n)));
    const call = await post('/mcp?tools=notes,lists', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'analytics.query', arguments: {} } }, bearer(ws.headers));
    assert.deepEqual(call.body.error, { code: -32601, message: 'Unknown tool: analytics.query' });
    const notes = await post('/mcp?tools=notes', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'notes.get-notes', arguments: {} } }, bearer(ws.headers));
    assert.equal(notes.body.result.structuredContent.notes[0].title, 'Edge note');
  });

  test('?read_only=1 leaves out every write tool', async () => {
    const r = await post('/mcp?read_only=1', LIST, bearer(ws.headers));
    assert.deepEqual(r.body.result.tools.map((x: { name: string }) => x.name), TOOLS.filter((x) => x.annotations.readOnlyHint).map((x) => x.name));
    const write = await post('/mcp?read_only=1', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'notes.save-note', arguments: { title: 'x', content: '' } } }, bearer(ws.headers));
    assert.deepEqual(write.body.error, { code: -32601, message: 'Unknown tool: notes.save-note' });
  });

  test('an unknown family or a bad read_only value is HTTP 400 before JSON-RPC', async () => {
    const r = await post('/mcp?tools=notes,bogus,x', LIST, bearer(ws.headers));
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { message: `Unknown tool family: bogus, x. Tool families: ${TOOL_FAMILIES.join(', ')}` });
    const long = await post(`/mcp?tools=${'y'.repeat(5000)},a,b,c,d,e,f`, LIST);
    assert.deepEqual(long.body, { message: `Unknown tool family: ${'y'.repeat(40)}..., a, b, c, d, .... Tool families: ${TOOL_FAMILIES.join(', ')}` });
    assert.deepEqual((await post('/mcp?tools=', LIST)).body, { message: `tools must name at least one tool family: ${TOOL_FAMILIES.join(', ')}` });
    assert.deepEqual((await post('/mcp/oauth?read_only=yes', LIST)).body, { message: 'read_only must be 1 or 0' });
  });
});
