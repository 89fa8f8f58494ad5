/**
 * The CORS answers of every surface, whole: which origins may read an answer, which methods and
 * request headers a preflight allows and for how long, and which surfaces send no CORS header at
 * all. Fixture: workspace "Shop" with a try-on storefront at https://shop.example.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { upsertStorefront } from '../../src/store/app/tryon-storefronts.ts';

const SHOP = 'https://shop.example';
const FOREIGN = 'https://evil.example';
/** An origin the tool endpoint allows: loopback (docs/mcp.md, "Origin"). */
const LOCAL_APP = 'http://localhost:5173';

let t: TestApp;
let ws: TestWorkspace;

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Shop');
  await upsertStorefront(t.stores.db, ws.id, { origins: [SHOP], consentVersion: 'c1', marketingVersion: 'm1' });
});

after(() => t.close());

/** The response's CORS headers (and Vary), nothing else. */
function cors(response: LightMyRequestResponse): Record<string, string> {
  return Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name]) => name.startsWith('access-control-') || name === 'vary')
      .map(([name, value]) => [name, String(value)]),
  );
}

const preflight = (url: string, origin: string | undefined, method = 'POST', requestHeaders?: string) =>
  t.app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      ...(origin ? { origin } : {}),
      'access-control-request-method': method,
      ...(requestHeaders ? { 'access-control-request-headers': requestHeaders } : {}),
    },
  });

describe('collector and pixel: any origin', () => {
  test('GET /pixel.js is readable from any page', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/pixel.js', headers: { origin: SHOP } });
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(cors(answer), { 'access-control-allow-origin': '*' });
  });

  test('the preflight of POST /collect allows POST with a JSON body for a day', async () => {
    const answer = await preflight('/collect', SHOP, 'POST', 'content-type');
    assert.equal(answer.statusCode, 204);
    assert.deepEqual(cors(answer), {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': '86400',
    });
  });

  test('every answer of POST /collect is readable, refusals included', async () => {
    const answer = await t.app.inject({ method: 'POST', url: '/collect', headers: { origin: FOREIGN, 'content-type': 'text/plain' }, payload: 'not json' });
    assert.equal(answer.statusCode, 400);
    assert.deepEqual(answer.json(), { message: 'Invalid JSON' });
    assert.deepEqual(cors(answer), { 'access-control-allow-origin': '*' });
  });

  test('POST /collect/form from any page, preflight for a day', async () => {
    const answer = await preflight('/collect/form', SHOP, 'POST', 'content-type');
    assert.equal(answer.statusCode, 204);
    assert.deepEqual(cors(answer), {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': '86400',
    });
    const refused = await t.app.inject({ method: 'POST', url: '/collect/form', headers: { origin: FOREIGN, 'content-type': 'text/plain' }, payload: '{}' });
    assert.deepEqual([refused.statusCode, refused.json(), cors(refused)], [400, { message: 'pixel_id: is required' }, { 'access-control-allow-origin': '*' }]);
  });

  test('the survey endpoints: GET and POST /collect/survey from any page, preflight for a day', async () => {
    const answer = await preflight('/collect/survey', SHOP, 'POST', 'content-type');
    assert.equal(answer.statusCode, 204);
    assert.deepEqual(cors(answer), {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': '86400',
    });
    const live = await t.app.inject({ method: 'GET', url: `/collect/survey?pixel_id=${ws.pixelId}`, headers: { origin: SHOP } });
    assert.deepEqual([live.statusCode, cors(live)], [204, { 'access-control-allow-origin': '*' }]);
    const refused = await t.app.inject({ method: 'POST', url: '/collect/survey', headers: { origin: FOREIGN, 'content-type': 'text/plain' }, payload: '{}' });
    assert.deepEqual([refused.statusCode, refused.json(), cors(refused)], [400, { message: 'pixel_id: is required' }, { 'access-control-allow-origin': '*' }]);
  });
});

describe('public documents: any origin', () => {
  test('GET /openapi.json', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { origin: FOREIGN } });
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(cors(answer), { 'access-control-allow-origin': '*' });
  });

  test('the OAuth discovery documents and their preflight, which allows GET', async () => {
    for (const url of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp/oauth']) {
      const answer = await t.app.inject({ method: 'GET', url, headers: { origin: FOREIGN } });
      assert.equal(answer.statusCode, 200, url);
      assert.deepEqual(cors(answer), { 'access-control-allow-origin': '*' }, url);
      const asked = await preflight(url, FOREIGN, 'GET');
      assert.equal(asked.statusCode, 204, url);
      // No request header beyond the CORS-safelisted ones: an empty list.
      assert.deepEqual(cors(asked), { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET', 'access-control-allow-headers': '' }, url);
    }
  });
});

describe('OAuth endpoints of the MCP SDK: their own CORS', () => {
  test('the token, registration and revocation endpoints answer a preflight from any origin', async () => {
    for (const url of ['/token', '/register', '/revoke']) {
      const answer = await preflight(url, FOREIGN, 'POST', 'content-type');
      assert.equal(answer.statusCode, 204, url);
      assert.equal(answer.headers['access-control-allow-origin'], '*', url);
    }
  });
});

describe('try-on API: only the verified storefront reads answers', () => {
  test('a preflight from any origin names the methods and headers the API takes', async () => {
    const answer = await preflight('/try-on/v1/jobs', FOREIGN, 'POST', 'content-type,x-try-on-session');
    assert.equal(answer.statusCode, 204);
    assert.deepEqual(cors(answer), {
      'access-control-allow-origin': FOREIGN,
      vary: 'Origin',
      'access-control-allow-methods': 'GET, POST, PUT, DELETE',
      'access-control-allow-headers': 'content-type, x-try-on-session, x-storage-checksum-sha256, if-none-match',
      'access-control-max-age': '600',
    });
  });

  test('a preflight without an Origin allows nothing (the answer varies by Origin)', async () => {
    const answer = await preflight('/try-on/v1/jobs', undefined);
    assert.equal(answer.statusCode, 204);
    assert.deepEqual(cors(answer), { vary: 'Origin' });
  });

  test('an answer to the verified storefront is readable by it; a refusal of another origin is not', async () => {
    const verified = await t.app.inject({ method: 'GET', url: `/try-on/v1/jobs/1?workspace_id=${ws.id}`, headers: { origin: SHOP } });
    assert.equal(verified.statusCode, 401);
    assert.deepEqual(cors(verified), { 'access-control-allow-origin': SHOP, vary: 'Origin' });
    const foreign = await t.app.inject({ method: 'GET', url: `/try-on/v1/jobs/1?workspace_id=${ws.id}`, headers: { origin: FOREIGN } });
    assert.equal(foreign.statusCode, 403);
    assert.deepEqual(foreign.json(), { error: { code: 'origin_not_allowed', message: 'This origin is not a verified storefront of the workspace' } });
    assert.deepEqual(cors(foreign), {});
  });
});

describe('tool endpoint: its own origin rule', () => {
  test('an allowed origin gets a preflight for POST with the headers MCP clients send', async () => {
    for (const url of ['/mcp', '/mcp/oauth']) {
      const answer = await preflight(url, LOCAL_APP, 'POST', 'authorization, content-type');
      assert.equal(answer.statusCode, 204, url);
      assert.deepEqual(cors(answer), {
        'access-control-allow-origin': LOCAL_APP,
        vary: 'Origin',
        'access-control-expose-headers': 'www-authenticate, retry-after, ratelimit, ratelimit-policy',
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'authorization, content-type, accept, mcp-protocol-version, mcp-method, mcp-name, x-api-key, client-secret',
        'access-control-max-age': '600',
      }, url);
    }
  });

  test('an answer to an allowed origin is readable with its discovery and rate-limit headers', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { origin: LOCAL_APP, 'content-type': 'application/json' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(answer.json(), { jsonrpc: '2.0', id: 1, result: {} });
    assert.deepEqual(cors(answer), {
      'access-control-allow-origin': LOCAL_APP,
      vary: 'Origin',
      'access-control-expose-headers': 'www-authenticate, retry-after, ratelimit, ratelimit-policy',
    });
  });

  test('a foreign origin is refused with 403 before any JSON-RPC work, preflight or not', async () => {
    for (const answer of [
      await preflight('/mcp', FOREIGN),
      await t.app.inject({ method: 'POST', url: '/mcp', headers: { origin: FOREIGN, 'content-type': 'application/json' }, payload: 'not json' }),
    ]) {
      assert.equal(answer.statusCode, 403);
      assert.deepEqual(answer.json(), { message: 'Origin not allowed' });
      assert.equal(answer.headers['access-control-allow-origin'], undefined);
    }
  });
});

describe('surfaces a browser on another site may not read', () => {
  test('the data API, the dashboard and the admin route send no CORS header', async () => {
    const report = await t.app.inject({ method: 'GET', url: '/v3/report', headers: { origin: SHOP } });
    assert.equal(report.statusCode, 400);
    assert.deepEqual(cors(report), {});
    const reportPreflight = await preflight('/v3/report', SHOP, 'GET');
    assert.equal(reportPreflight.statusCode, 405);
    assert.deepEqual(cors(reportPreflight), {});
    const me = await t.app.inject({ method: 'GET', url: '/dashboard/api/me', headers: { origin: SHOP } });
    assert.equal(me.statusCode, 401);
    assert.deepEqual(cors(me), {});
    const unknown = await preflight('/dashboard/api/me', SHOP, 'GET');
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(unknown.json(), { message: 'Not found' });
    assert.deepEqual(cors(unknown), {});
  });
});
