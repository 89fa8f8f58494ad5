/**
 * Client ID Metadata Documents at the authorization server: an https `client_id` is fetched under
 * the outbound-call rules and checked, and every way a client's site can be wrong or hostile ends
 * in the documented OAuth error, never a 500; `iss` in every authorization response (RFC 9207).
 * Fixture: one workspace with an admin key; the client's site is an https server on loopback
 * (test/support/document-host.ts) reached as `localhost`, the one host this app may fetch from a
 * private address; the same server reached as 127.0.0.1 counts as private. Requests go to a
 * listening server (the SDK's handlers are Express). The SDK client and the browser:
 * oauth-client-document-browser.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { startDocumentHost, type DocumentHost } from '../support/document-host.ts';
import { cacheSeconds, MAX_CACHE_SECONDS, MIN_CACHE_SECONDS } from '../../src/mcp/oauth/client-documents.ts';
import { loadConfig } from '../../src/config.ts';
import { oauthByHand } from './oauth-by-hand.ts';

let t: TestApp;
let ws: TestWorkspace;
let base: string;
let issuer: string;
let site: DocumentHost;
let hand: ReturnType<typeof oauthByHand>;
const CALLBACK = 'http://127.0.0.1:9/callback';
const TIMEOUT_MS = 2000;
const verifier = crypto.randomBytes(32).toString('base64url');
const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');

before(async () => {
  t = await startTestApp({ oauthClientDocuments: { timeoutMs: TIMEOUT_MS, privateHosts: ['localhost'] } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  issuer = `${base}/`;
  hand = oauthByHand(base);
  ws = await createTestWorkspace(t.stores);
  site = await startDocumentHost();
});
after(async () => {
  await site.close();
  await t.close();
});

/** A document at `pathname` of the client's site that is right unless `changes` say otherwise. */
function publish(pathname: string, changes: Record<string, unknown> = {}, headers: Record<string, string> = {}): string {
  const clientId = `${site.origin}${pathname}`;
  site.json(pathname, { client_id: clientId, client_name: 'Document client', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', ...changes }, headers);
  return clientId;
}

const authorize = (clientId: string, params: Record<string, string> = {}) =>
  fetch(`${base}/authorize?${new URLSearchParams({
    client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 'st-1', ...params,
  })}`, { redirect: 'manual' });

/** The answer to an authorization request that must be refused before any redirect. */
async function refusal(clientId: string, params: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const r = await authorize(clientId, params);
  return { status: r.status, body: await r.json() };
}

const invalidClient = (description: string) => ({ status: 400, body: { error: 'invalid_client', error_description: description } });

describe('settings and metadata', () => {
  test('the fetch\'s time limit and private hosts come from the environment: 5 s and none by default', () => {
    assert.deepEqual(loadConfig({}).oauthClientDocuments, { timeoutMs: 5000, privateHosts: [] });
    const set = loadConfig({ STORELENS_OAUTH_CLIENT_TIMEOUT_MS: '800', STORELENS_OAUTH_CLIENT_PRIVATE_HOSTS: ' Registry.Internal , localhost,' });
    assert.deepEqual(set.oauthClientDocuments, { timeoutMs: 800, privateHosts: ['registry.internal', 'localhost'] });
    assert.throws(() => loadConfig({ STORELENS_OAUTH_CLIENT_TIMEOUT_MS: 'soon' }), /STORELENS_OAUTH_CLIENT_TIMEOUT_MS must be a non-negative integer/);
  });


  test('the authorization server says it takes metadata documents and returns iss', async () => {
    const metadata = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    assert.equal(metadata.issuer, issuer);
    assert.equal(metadata.client_id_metadata_document_supported, true);
    assert.equal(metadata.authorization_response_iss_parameter_supported, true);
  });
});

describe('a good document', () => {
  test('shows the consent page with the document\'s name and the host of its URL', async () => {
    const clientId = publish('/good/client.json');
    const r = await authorize(clientId);
    assert.equal(r.status, 200);
    const html = await r.text();
    assert.match(html, /<strong id="client-name">Document client<\/strong>/);
    assert.ok(html.includes(`<strong id="client-host">localhost:${site.port}</strong>`));
    assert.ok(html.includes(`name="client_id" value="${clientId}"`));
  });

  test('a whole connection by hand: consent, code with iss, token for the URL client_id, tools on /mcp/oauth', async () => {
    const clientId = publish('/flow/client.json', {}, { 'cache-control': 'max-age=3600' });
    assert.equal((await authorize(clientId)).status, 200);
    const consent = await hand.form('/oauth/consent', {
      client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge, state: 'st-1', resource: `${base}/mcp/oauth`,
      workspace_key: ws.headers['x-api-key']!, workspace_secret: ws.headers['client-secret']!,
    });
    assert.equal(consent.status, 302);
    const redirect = new URL(consent.headers.get('location')!);
    assert.equal(redirect.origin + redirect.pathname, CALLBACK);
    assert.equal(redirect.searchParams.get('iss'), issuer);
    assert.equal(redirect.searchParams.get('state'), 'st-1');
    const token = await hand.form('/token', {
      grant_type: 'authorization_code', code: redirect.searchParams.get('code')!, code_verifier: verifier, client_id: clientId, redirect_uri: CALLBACK,
    });
    assert.equal(token.status, 200);
    const { access_token: accessToken, refresh_token: refreshToken } = await token.json();
    const list = await fetch(`${base}/mcp/oauth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    assert.equal((await list.json()).result.tools[0].name, 'workspaces_list');
    const refreshed = await hand.form('/token', { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
    assert.equal(refreshed.status, 200);
    // Authorize, consent, code exchange and refresh: one fetch, kept for the document's max-age.
    assert.equal(site.fetches('/flow/client.json'), 1);
  });

  test('a document is kept at least 5 minutes, even when it says max-age=0 or no-store', async () => {
    const clientId = publish('/short/client.json', {}, { 'cache-control': 'no-store' });
    assert.equal((await authorize(clientId)).status, 200);
    assert.equal((await authorize(clientId)).status, 200);
    assert.equal(site.fetches('/short/client.json'), 1);
  });

  test('how long a document is kept: its max-age, between 5 minutes and a day', () => {
    assert.equal(MIN_CACHE_SECONDS, 300);
    assert.equal(MAX_CACHE_SECONDS, 86_400);
    assert.equal(cacheSeconds(undefined), 300);
    assert.equal(cacheSeconds('max-age=60'), 300);
    assert.equal(cacheSeconds('public, max-age=3600'), 3600);
    assert.equal(cacheSeconds('Max-Age="7200"'), 7200);
    assert.equal(cacheSeconds('max-age=31536000, immutable'), 86_400);
    assert.equal(cacheSeconds('max-age=3600, no-cache'), 300);
    assert.equal(cacheSeconds('no-store'), 300);
    assert.equal(cacheSeconds('max-age=soon'), 300);
  });

  test('a failed fetch is not kept: the next request fetches again', async () => {
    const pathname = '/flaky/client.json';
    const clientId = `${site.origin}${pathname}`;
    site.route(pathname, (_req, res) => res.writeHead(503).end());
    assert.deepEqual(await refusal(clientId), invalidClient('The client\'s metadata document answered HTTP 503; it must answer 200'));
    publish(pathname);
    assert.equal((await authorize(clientId)).status, 200);
    assert.equal(site.fetches(pathname), 2);
  });
});

describe('iss in authorization responses (RFC 9207)', () => {
  test('an error redirect from /authorize carries iss and the state, for a document client and a registered one', async () => {
    const documentClient = publish('/errors/client.json');
    const registered = (await (await hand.register([CALLBACK])).json()).client_id as string;
    for (const clientId of [documentClient, registered]) {
      const r = await authorize(clientId, { code_challenge_method: 'plain' });
      assert.equal(r.status, 302, clientId);
      const target = new URL(r.headers.get('location')!);
      assert.equal(target.origin + target.pathname, CALLBACK);
      assert.equal(target.searchParams.get('error'), 'invalid_request');
      assert.equal(target.searchParams.get('iss'), issuer);
      assert.equal(target.searchParams.get('state'), 'st-1');
    }
  });

  test('the code redirect of a registered client carries iss too', async () => {
    const clientId = (await (await hand.register([CALLBACK])).json()).client_id as string;
    const consent = await hand.form('/oauth/consent', {
      client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge, workspace_key: ws.headers['x-api-key']!, workspace_secret: ws.headers['client-secret']!,
    });
    assert.equal(new URL(consent.headers.get('location')!).searchParams.get('iss'), issuer);
  });
});

describe('hostile or broken client_id URLs and documents', () => {
  test('a client_id that is http, has no path, a fragment or a user, or is not in its normal form is refused unfetched', async () => {
    assert.deepEqual(await refusal(`http://localhost:${site.port}/plain/client.json`), invalidClient('client_id must use https'));
    assert.deepEqual(await refusal(`${site.origin}/`), invalidClient('client_id must have a path naming its metadata document'));
    assert.deepEqual(await refusal(`${site.origin}/a#b`), invalidClient('client_id must not have a fragment'));
    assert.deepEqual(await refusal(`https://user:pw@localhost:${site.port}/a`), invalidClient('client_id must not contain a user name or password'));
    assert.deepEqual(await refusal(`${site.origin}/x/../client.json`), invalidClient(`client_id must be written in its normal form (${site.origin}/client.json)`));
    assert.deepEqual(await refusal(`https://LOCALHOST:${site.port}/a`), invalidClient(`client_id must be written in its normal form (${site.origin}/a)`));
    assert.equal(site.fetches('/client.json') + site.fetches('/a') + site.fetches('/plain/client.json'), 0);
  });

  test('a private or loopback address is refused: by IP, and by a name that resolves to one', async () => {
    publish('/private/client.json');
    assert.deepEqual(
      await refusal(`https://127.0.0.1:${site.port}/private/client.json`),
      invalidClient('The client\'s metadata document could not be fetched: 127.0.0.1 is not a public address'),
    );
    assert.equal(site.fetches('/private/client.json'), 0);
    // A site of its own: a connection to `site` made by an earlier test may still be open for reuse.
    const other = await startDocumentHost();
    const allowed = t.config.oauthClientDocuments;
    t.config.oauthClientDocuments = { ...allowed, privateHosts: [] };
    try {
      other.json('/private/client.json', { client_id: `${other.origin}/private/client.json`, redirect_uris: [CALLBACK] });
      assert.deepEqual(
        await refusal(`${other.origin}/private/client.json`),
        invalidClient('The client\'s metadata document could not be fetched: localhost resolves to an address that is not public'),
      );
      assert.equal(other.fetches('/private/client.json'), 0);
    } finally {
      t.config.oauthClientDocuments = allowed;
      await other.close();
    }
  });

  test('a redirect is not followed', async () => {
    publish('/moved/client.json');
    site.route('/redirect/client.json', (_req, res) => res.writeHead(302, { location: `${site.origin}/moved/client.json` }).end());
    assert.deepEqual(
      await refusal(`${site.origin}/redirect/client.json`),
      invalidClient('The client\'s metadata document answered HTTP 302 (redirects are not followed); it must answer 200'),
    );
    assert.equal(site.fetches('/moved/client.json'), 0);
  });

  test('a site that dribbles its answer is cut off at the deadline over the whole call', async () => {
    site.route('/slow/client.json', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"client_id":');
      const drip = setInterval(() => res.write(' '), 100);
      req.socket.on('close', () => clearInterval(drip));
    });
    assert.deepEqual(
      await refusal(`${site.origin}/slow/client.json`),
      invalidClient(`The client's metadata document could not be fetched: no complete answer within ${TIMEOUT_MS} ms`),
    );
  });

  test('a document over 5 KB is refused, whether its length is declared or not', async () => {
    const large = JSON.stringify({ client_id: `${site.origin}/large/client.json`, redirect_uris: [CALLBACK], client_name: 'x'.repeat(6000) });
    site.route('/large/client.json', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(large));
    site.route('/chunked/client.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 12; i++) res.write(' '.repeat(1000));
      res.end(large);
    });
    const tooLarge = invalidClient('The client\'s metadata document could not be fetched: the answer is larger than 5120 bytes');
    assert.deepEqual(await refusal(`${site.origin}/large/client.json`), tooLarge);
    assert.deepEqual(await refusal(`${site.origin}/chunked/client.json`), tooLarge);
  });

  test('an answer that is not JSON, or not an object, is refused', async () => {
    site.route('/html/client.json', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Welcome'));
    site.json('/array/client.json', [1, 2]);
    assert.deepEqual(await refusal(`${site.origin}/html/client.json`), invalidClient('The client\'s metadata document is not JSON'));
    assert.deepEqual(await refusal(`${site.origin}/array/client.json`), invalidClient('The client\'s metadata document is not a JSON object'));
  });

  test('a document for another client_id is refused', async () => {
    const clientId = publish('/other/client.json', { client_id: 'https://claude.ai/oauth/client.json' });
    assert.deepEqual(await refusal(clientId), invalidClient('The client\'s metadata document has a client_id other than the URL it was fetched from'));
  });

  test('a document without redirect_uris, or with one of no app, is refused', async () => {
    const none = publish('/no-redirects/client.json', { redirect_uris: undefined });
    const { status, body } = await refusal(none);
    assert.equal(status, 400);
    assert.match((body as { error_description: string }).error_description, /^The client's metadata document is invalid: redirect_uris: /);
    const file = publish('/file-redirect/client.json', { redirect_uris: ['file:///etc/passwd'] });
    assert.deepEqual(
      await refusal(file),
      invalidClient('The client\'s metadata document is invalid: redirect_uri file:///etc/passwd must use https, http on a loopback address, or the app\'s own scheme such as com.example.app:/callback'),
    );
  });

  test('a redirect_uri the document does not list is refused before any redirect', async () => {
    const clientId = publish('/listed/client.json');
    assert.deepEqual(await refusal(clientId, { redirect_uri: 'https://evil.example/callback' }), {
      status: 400,
      body: { error: 'invalid_request', error_description: 'Unregistered redirect_uri' },
    });
    const consent = await hand.form('/oauth/consent', {
      client_id: clientId, redirect_uri: 'https://evil.example/callback', code_challenge: challenge,
      workspace_key: ws.headers['x-api-key']!, workspace_secret: ws.headers['client-secret']!,
    });
    assert.equal(consent.status, 400);
    assert.equal(await consent.text(), 'Unknown client or redirect_uri: start the connection again from your app.');
  });

  test('a shared-secret method or a client_secret in the document is refused', async () => {
    const post = publish('/secret-post/client.json', { token_endpoint_auth_method: 'client_secret_post' });
    assert.deepEqual(
      await refusal(post),
      invalidClient('The client\'s metadata document has token_endpoint_auth_method client_secret_post: only none is accepted (a metadata document establishes no shared secret, and private_key_jwt is not supported)'),
    );
    const secret = publish('/secret/client.json', { client_secret: 'shh' });
    assert.deepEqual(await refusal(secret), invalidClient('The client\'s metadata document must not contain client_secret: a metadata document establishes no shared secret'));
  });

  test('the token endpoint refuses a client_id URL whose document cannot be had, with invalid_client', async () => {
    const r = await hand.form('/token', { grant_type: 'authorization_code', code: 'slc_x', code_verifier: verifier, client_id: `https://127.0.0.1:${site.port}/gone.json` });
    assert.equal(r.status, 400);
    assert.deepEqual(await r.json(), { error: 'invalid_client', error_description: 'The client\'s metadata document could not be fetched: 127.0.0.1 is not a public address' });
  });
});
