/**
 * Every answer of the service carries a Content-Security-Policy, `nosniff`, a Referrer-Policy and
 * no framing; HTML pages widen the policy only as far as they need and never allow inline code
 * without a nonce.
 * Fixture: a fresh app listening on a free port (the OAuth pages are reached over HTTP, as the
 * MCP SDK's Express router expects) with one OAuth client ("Walk client", redirect to
 * http://127.0.0.1:9/callback) registered through /register. The walk reads the app's own route
 * table, so a page added later is checked without editing this file.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../helper.ts';
import { VIEWS } from '../../src/dashboard/views.ts';
import { routeTable } from '../support/route-table.ts';

let t: TestApp;
let base: string;
let clientId: string;
const REDIRECT = 'http://127.0.0.1:9/callback';

before(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const registered = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Walk client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }),
  });
  assert.equal(registered.status, 201);
  clientId = ((await registered.json()) as { client_id: string }).client_id;
});
after(() => t.close());

/** The headers of an inject() or fetch() answer, as one lower-case map. */
type Answer = { headers: Headers | Record<string, unknown> };
const header = (response: Answer, name: string) =>
  String((response.headers instanceof Headers ? response.headers.get(name) : response.headers[name]) ?? '');

function assertHeaders(response: Answer, what: string): string {
  const policy = header(response, 'content-security-policy');
  assert.match(policy, /(^|; )default-src '(none|self)'(;|$)/, `${what}: ${policy}`);
  assert.match(policy, /(^|; )frame-ancestors 'none'(;|$)/, `${what}: ${policy}`);
  assert.match(policy, /(^|; )base-uri 'none'(;|$)/, `${what}: ${policy}`);
  assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|\*/, `${what}: ${policy}`);
  assert.equal(header(response, 'x-content-type-options'), 'nosniff', what);
  assert.match(header(response, 'referrer-policy'), /^(no-referrer|same-origin)$/, what);
  return policy;
}

const isHtml = (response: Answer) => header(response, 'content-type').startsWith('text/html');

/** Inline `<script>` and `<style>` must carry the policy's nonce; no inline event handlers or style attributes. */
function assertInlineCodeAllowed(html: string, policy: string, what: string) {
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  for (const tag of html.match(/<(script|style)\b[^>]*>/g) ?? []) {
    if (/^<script\b[^>]*\bsrc=/.test(tag)) continue;
    assert.ok(nonce && tag.includes(`nonce="${nonce}"`), `${what}: ${tag} runs without the policy's nonce`);
  }
  assert.doesNotMatch(html, /\son[a-z]+=|\sstyle=/i, what);
}

describe('security headers', () => {
  test('every route answers with the headers, and the HTML ones are exactly the known pages', async () => {
    const all = routeTable(t.app);
    assert.ok(all.length > 20, `only ${all.length} routes found in the route table`);
    const html: string[] = [];
    for (const { method, url } of [...all, { method: 'GET', url: '/no-such-page' }]) {
      const response = await t.app.inject({ method: method as 'GET' | 'POST', url, headers: { accept: 'text/html' }, ...(method === 'POST' ? { payload: {} } : {}) });
      const policy = assertHeaders(response, `${method} ${url}`);
      if (isHtml(response)) {
        html.push(`${method} ${url}`);
        assertInlineCodeAllowed(response.body, policy, `${method} ${url}`);
      }
    }
    const dashboard = VIEWS.map(({ path }) => `GET ${path}`);
    assert.deepEqual(html.sort(), [...dashboard, 'GET /demo/storefront', 'GET /api-docs'].sort());
  });

  test('the demo storefront runs only its own files and talks only to its own origin', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/demo/storefront?api=https://evil.example&pixel=px_1' });
    assert.equal(response.statusCode, 200);
    const policy = assertHeaders(response, 'demo');
    assert.equal(
      policy,
      "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'",
    );
    assert.equal(response.body.includes('evil.example'), false);
    assert.deepEqual(response.body.match(/<script[^>]*>/g), ['<script src="/demo/storefront.js">']);
    assert.deepEqual(response.body.match(/<link[^>]*>/g), ['<link rel="stylesheet" href="/demo/storefront.css">']);
    const script = await t.app.inject({ method: 'GET', url: '/demo/storefront.js' });
    assert.equal(script.body.includes("params.get('api')"), false);
    assert.match(script.body, /var api = '\/try-on\/v1';/);
  });

  test('the OAuth consent page and its error answers carry the headers', async () => {
    const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', state: 's' });
    const consent = await fetch(`${base}/authorize?${query}`);
    const page = await consent.text();
    assert.equal(consent.status, 200);
    assert.ok(isHtml(consent));
    const policy = assertHeaders(consent, 'consent page');
    assertInlineCodeAllowed(page, policy, 'consent page');
    assert.match(page, /Walk client/);

    const post = (form: Record<string, string>) =>
      fetch(`${base}/oauth/consent`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString(), redirect: 'manual' });
    const refused = await post({ client_id: clientId, redirect_uri: REDIRECT, code_challenge: 'x'.repeat(43), state: 's' });
    assert.equal(refused.status, 400);
    assert.ok(isHtml(refused));
    assertInlineCodeAllowed(await refused.text(), assertHeaders(refused, 'consent error page'), 'consent error page');
    const unknown = await post({ client_id: 'nobody' });
    assert.equal(unknown.status, 400);
    assertHeaders(unknown, 'consent for an unknown client');

    // An invalid authorization request is redirected back with an error; Express writes that as a small HTML page.
    query.set('response_type', 'token');
    const redirected = await fetch(`${base}/authorize?${query}`, { headers: { accept: 'text/html' }, redirect: 'manual' });
    assert.equal(redirected.status, 302);
    assert.ok(isHtml(redirected));
    assertHeaders(redirected, 'authorize error redirect');
  });
});
