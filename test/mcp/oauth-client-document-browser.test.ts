/**
 * A client that identifies itself by a Client ID Metadata Document connects the way connectors
 * do: the MCP SDK client, given a `clientMetadataUrl`, reads the authorization server's metadata,
 * uses that URL as its client_id instead of registering, and sends the person to the consent
 * page, where a person in headless Chromium sees the document's name and host and approves; the
 * redirect carries the code, the state and `iss` (RFC 9207), and the client gets a token and
 * lists and calls tools. Fixture: workspace "North" (admin key); the client's site is an https
 * server on loopback (test/support/document-host.ts) reached as `localhost`, the one host this app
 * may fetch from a private address; a small HTTP server is the client's redirect target.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { launchChromium } from '../support/chromium.ts';
import { startDocumentHost, type DocumentHost } from '../support/document-host.ts';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { consentInBrowser, startCallback, TestOAuthProvider } from './oauth-sdk-client.ts';

let t: TestApp;
let base: string;
let browser: Browser;
let site: DocumentHost;
let callback: Awaited<ReturnType<typeof startCallback>>;
let north: TestWorkspace;
let provider: TestOAuthProvider;
let clientId: string;
const DOCUMENT = '/mcp/client-metadata.json';

before(async () => {
  t = await startTestApp({ oauthClientDocuments: { timeoutMs: 5000, privateHosts: ['localhost'] } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  site = await startDocumentHost();
  callback = await startCallback();
  clientId = `${site.origin}${DOCUMENT}`;
  site.json(DOCUMENT, {
    client_id: clientId,
    client_name: 'Document Assistant',
    client_uri: site.origin,
    redirect_uris: [callback.url],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }, { 'cache-control': 'max-age=3600' });
  provider = new TestOAuthProvider(callback.url, clientId);
  browser = await launchChromium();
  north = await createTestWorkspace(t.stores, 'North');
});
after(async () => {
  await browser?.close();
  await callback?.close();
  await site?.close();
  await t.close();
});

test('a person approves a metadata-document client in the browser; the client gets a token and uses the tools', async () => {
  const connector = new URL(`${base}/mcp/oauth`);
  await assert.rejects(new Client({ name: 'cimd-test', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(connector, { authProvider: provider })), UnauthorizedError);
  // The SDK used its document's URL as client_id, with no registration.
  assert.equal(provider.info?.client_id, clientId);
  const authorizationUrl = provider.authorizationUrl!;
  assert.equal(authorizationUrl.searchParams.get('client_id'), clientId);

  const page = await browser.newPage();
  try {
    await page.goto(authorizationUrl.href);
    assert.equal(await page.locator('#client-name').innerText(), 'Document Assistant');
    assert.equal(await page.locator('#client-host').innerText(), `localhost:${site.port}`);
    assert.equal(await page.locator('#redirect-origin').innerText(), new URL(callback.url).origin);
  } finally {
    await page.close();
  }
  const result = await consentInBrowser(browser, authorizationUrl, callback.url, [{ key: north.headers['x-api-key']!, secret: north.headers['client-secret']! }]);
  assert.deepEqual(result, { status: 'redirected', error: '' });

  assert.equal(callback.received.length, 1);
  const redirect = callback.received[0]!;
  const metadata = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
  assert.equal(redirect.searchParams.get('iss'), metadata.issuer);
  assert.equal(redirect.searchParams.get('state'), 'state-123');

  await new StreamableHTTPClientTransport(connector, { authProvider: provider }).finishAuth(redirect.searchParams.get('code')!);
  assert.match(provider.saved!.access_token, /^sla_/);

  const client = new Client({ name: 'cimd-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(connector, { authProvider: provider }));
  try {
    const { tools } = await client.listTools();
    assert.equal(tools[0]!.name, 'workspaces_list');
    const listed = await client.callTool({ name: 'workspaces_list', arguments: {} });
    assert.deepEqual(listed.structuredContent, { workspaces: [{ id: String(north.id), name: 'North' }] });
  } finally {
    await client.close();
  }
  // Authorize, consent and token: the document was fetched once and kept for its max-age.
  assert.equal(site.fetches(DOCUMENT), 1);
});
