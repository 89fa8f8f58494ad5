/**
 * The OAuth connector URL end to end, the way connectors use it: the MCP SDK Client with an
 * OAuthClientProvider connects to /mcp/oauth holding no token, gets HTTP 401, and from there
 * discovers, registers, sends the person to the consent page (driven in headless Chromium),
 * exchanges the code with PKCE, calls tools with workspace_id and refreshes with rotation.
 * Fixture: workspace "North" (admin key) with one note; workspace "South" connected with a
 * read:meta key (no profit); workspace "West" never connected. A small HTTP server plays the
 * client's redirect target and records the code.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { revokeApiKey } from '../../src/store/app/api-keys.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { consentInBrowser, startCallback, TestOAuthProvider } from './oauth-sdk-client.ts';
import { toolOk } from './rpc.ts';

let t: TestApp;
let base: string;
let browser: Browser;
let callback: Awaited<ReturnType<typeof startCallback>>;
let callbackUrl: string;
let codes: URL[];
let north: TestWorkspace;
let south: TestWorkspace;
let west: TestWorkspace;
let southKey: Record<string, string>;
let connector: URL;
let provider: TestOAuthProvider;

/** What the whole tools/list result of a connection may weigh: the contract's 50 KiB, as for an API key (docs/mcp.md, "Size of the tool list"). */
const OAUTH_LIST_BUDGET_BYTES = 51_200;

const consent = (url: URL, rows: { key: string; secret: string }[]) => consentInBrowser(browser, url, callbackUrl, rows);

before(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  connector = new URL(`${base}/mcp/oauth`);
  callback = await startCallback();
  callbackUrl = callback.url;
  codes = callback.received;
  provider = new TestOAuthProvider(callbackUrl);
  browser = await launchChromium();
  north = await createTestWorkspace(t.stores, 'North');
  south = await createTestWorkspace(t.stores, 'South');
  west = await createTestWorkspace(t.stores, 'West');
  southKey = await south.keyHeaders(['read:meta']);
  await toolOk(t.app, north.headers, 'notes.save-note', { title: 'North note', content: '' });
});
after(async () => {
  await browser?.close();
  await callback?.close();
  await t.close();
});

describe('discovery and registration', () => {
  test('serves protected-resource metadata for each tool-endpoint URL and the authorization-server metadata', async () => {
    const connectorPrm = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp/oauth`)).json();
    assert.deepEqual(connectorPrm, { resource: `${base}/mcp/oauth`, authorization_servers: [`${base}/`], resource_name: 'Storelens analytics' });
    const prm = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    assert.deepEqual(prm, { resource: `${base}/mcp`, authorization_servers: [`${base}/`], resource_name: 'Storelens analytics' });
    const as = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    assert.equal(as.issuer, `${base}/`);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    assert.equal(as.registration_endpoint, `${base}/register`);
  });

  test('/mcp/oauth answers initialize without a token with 401 and the resource metadata URL', async () => {
    const r = await fetch(connector, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}',
    });
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('www-authenticate'), `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp/oauth"`);
    assert.deepEqual(await r.json(), { message: 'Missing OAuth access token: this URL is for OAuth connections (API keys connect to /mcp)' });
  });

  test('/mcp keeps answering missing credentials with HTTP 200 and -32001, pointing at its own metadata', async () => {
    const r = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    assert.equal(r.status, 200);
    assert.equal((await r.json()).error.code, -32001);
    assert.equal(r.headers.get('www-authenticate'), `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
  });

  test('the SDK client starts OAuth on its own: discovery from the 401, registration, PKCE', async () => {
    const client = new Client({ name: 'connector-test', version: '1.0.0' });
    await assert.rejects(client.connect(new StreamableHTTPClientTransport(connector, { authProvider: provider })), UnauthorizedError);
    assert.ok(provider.info?.client_id);
    const url = provider.authorizationUrl!;
    assert.equal(url.origin + url.pathname, `${base}/authorize`);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(url.searchParams.get('resource'), `${base}/mcp/oauth`);
    assert.equal(url.searchParams.get('redirect_uri'), callbackUrl);
  });
});

describe('consent page', () => {
  test('shows the origin the access goes to', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(provider.authorizationUrl!.href);
      assert.equal(await page.locator('#redirect-origin').innerText(), new URL(callbackUrl).origin);
    } finally {
      await page.close();
    }
  });

  test('shows an error for a wrong secret and does not redirect', async () => {
    const result = await consent(provider.authorizationUrl!, [{ key: north.headers['x-api-key']!, secret: 'slsec_wrong' }]);
    assert.deepEqual(result, { status: 'stayed', error: 'Workspace 1: Invalid client secret' });
    assert.equal(codes.length, 0);
  });

  test('connects two workspaces and redirects with a code and the state', async () => {
    const result = await consent(provider.authorizationUrl!, [
      { key: north.headers['x-api-key']!, secret: north.headers['client-secret']! },
      { key: southKey['x-api-key']!, secret: southKey['client-secret']! },
    ]);
    assert.deepEqual(result, { status: 'redirected', error: '' });
    assert.equal(codes.length, 1);
    assert.equal(codes[0]!.searchParams.get('state'), 'state-123');
    assert.match(codes[0]!.searchParams.get('code')!, /^slc_/);
  });

  test('refuses a consent post for a redirect_uri the client did not register', async () => {
    const form = new URLSearchParams({
      client_id: provider.info!.client_id, redirect_uri: 'https://evil.example/cb', code_challenge: 'x',
      workspace_key: north.headers['x-api-key']!, workspace_secret: north.headers['client-secret']!,
    });
    const r = await fetch(`${base}/oauth/consent`, { method: 'POST', body: form, redirect: 'manual' });
    assert.equal(r.status, 400);
    assert.equal(await r.text(), 'Unknown client or redirect_uri: start the connection again from your app.');
  });
});

describe('tokens', () => {
  test('a wrong code_verifier is refused', async () => {
    const r = await fetch(`${base}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code', code: codes[0]!.searchParams.get('code')!, code_verifier: 'x'.repeat(43),
        client_id: provider.info!.client_id, client_secret: (provider.info as { client_secret?: string }).client_secret ?? '',
        redirect_uri: callbackUrl,
      }),
    });
    assert.equal(r.status, 400);
    assert.deepEqual(await r.json(), { error: 'invalid_grant', error_description: 'code_verifier does not match the challenge' });
  });

  test('a wrong client secret is refused', async () => {
    const r = await fetch(`${base}/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', code_verifier: 'y', client_id: provider.info!.client_id, client_secret: 'nope' }),
    });
    assert.equal(r.status, 401);
    assert.deepEqual(await r.json(), { error: 'invalid_client', error_description: 'Invalid client_secret' });
  });

  test('the SDK exchanges the code (a code presented twice: oauth-grants.test.ts)', async () => {
    const code = codes[0]!.searchParams.get('code')!;
    await new StreamableHTTPClientTransport(connector, { authProvider: provider }).finishAuth(code);
    assert.match(provider.saved!.access_token, /^sla_/);
    assert.equal(provider.saved!.token_type, 'Bearer');
  });
});

describe('a multi-workspace connection', () => {
  let client: Client;

  before(async () => {
    client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(connector, { authProvider: provider }));
  });
  after(() => client.close());

  test('tools/list adds workspaces_list and makes workspace_id required everywhere', async () => {
    const { tools } = await client.listTools();
    assert.equal(tools[0]!.name, 'workspaces_list');
    assert.equal(tools.length, TOOLS.length + 1);
    assert.match(tools[0]!.description!, /pass an id as workspace_id to every other tool/);
    for (const tool of tools.slice(1)) {
      assert.ok((tool.inputSchema.required ?? []).includes('workspace_id'), tool.name);
      // Described once, in workspaces_list and the instructions: each schema only names it.
      assert.deepEqual((tool.inputSchema.properties as Record<string, unknown>).workspace_id, { type: 'string' });
    }
  });

  test('the MCP Apps are listed and read through the connector URL as through /mcp (test/mcp/apps.test.ts)', async () => {
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), ['ui://storelens/report', 'ui://storelens/attribution', 'ui://storelens/explain', 'ui://storelens/books', 'ui://storelens/customers']);
    const { contents } = await client.readResource({ uri: 'ui://storelens/report' });
    assert.equal(contents[0]!.mimeType, 'text/html;profile=mcp-app');
    assert.match('text' in contents[0]! ? contents[0].text : '', /^<!doctype html>/);
  });

  test(`the tools/list result stays under ${OAUTH_LIST_BUDGET_BYTES} bytes with workspace_id on every tool`, async () => {
    const r = await fetch(connector, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${provider.saved!.access_token}` },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    const { result } = await r.json();
    assert.equal(result.tools.length, TOOLS.length + 1);
    // The server serialises with JSON.stringify, so this is the result's size on the wire.
    const bytes = Buffer.byteLength(JSON.stringify(result));
    assert.ok(bytes < OAUTH_LIST_BUDGET_BYTES, `${bytes} bytes`);
  });

  test('workspaces_list returns the connected workspaces', async () => {
    const result = await client.callTool({ name: 'workspaces_list', arguments: {} });
    assert.deepEqual(result.structuredContent, { workspaces: [{ id: String(north.id), name: 'North' }, { id: String(south.id), name: 'South' }] });
  });

  test('each call acts on the named workspace with that workspace\'s permission snapshot', async () => {
    const notes = await client.callTool({ name: 'notes.get-notes', arguments: { workspace_id: String(north.id) } });
    assert.deepEqual((notes.structuredContent as any).notes.map((n: any) => n.title), ['North note']);
    const southNotes = await client.callTool({ name: 'notes.get-notes', arguments: { workspace_id: String(south.id) } });
    assert.deepEqual(southNotes.structuredContent, { notes: [] });
    const northProfit = await client.callTool({ name: 'analytics.profit-summary', arguments: { workspace_id: String(north.id) } });
    assert.equal(northProfit.isError, false);
    const southProfit = await client.callTool({ name: 'analytics.profit-summary', arguments: { workspace_id: String(south.id) } });
    assert.deepEqual(southProfit.structuredContent, { error: { code: 'permission_denied', message: 'You do not have access to profit metrics' } });
  });

  test('a workspace outside the connection is permission_denied; a missing workspace_id is -32602', async () => {
    const other = await client.callTool({ name: 'notes.get-notes', arguments: { workspace_id: String(west.id) } });
    assert.deepEqual(other.structuredContent, { error: { code: 'permission_denied', message: `Workspace ${west.id} is not part of this connection` } });
    await assert.rejects(client.callTool({ name: 'notes.get-notes', arguments: {} }), (error: Error & { code?: number }) => {
      assert.equal(error.code, -32602);
      return true;
    });
  });

  test('writes through the connection are audited under the OAuth client', async () => {
    await client.callTool({ name: 'notes.save-note', arguments: { workspace_id: String(north.id), title: 'Via OAuth', content: '' } });
    const { entries } = await toolOk(t.app, north.headers, 'audit-log.get-log', {});
    assert.equal(entries[0].actor, `oauth:${provider.info!.client_id}`);
    assert.equal(entries[0].action, 'notes.save-note');
    assert.ok(entries.some((e: any) => e.action === 'oauth.connect'));
  });

  test('an access token that stops working is refreshed by the SDK, and the refresh token rotates', async () => {
    const old = provider.saved!;
    const clientSecret = (provider.info as { client_secret?: string }).client_secret ?? '';
    const revoked = await fetch(`${base}/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token: old.access_token, client_id: provider.info!.client_id, client_secret: clientSecret }),
    });
    assert.equal(revoked.status, 200);
    // The next call gets 401; the SDK refreshes with the refresh token and repeats the call.
    const notes = await client.callTool({ name: 'notes.get-notes', arguments: { workspace_id: String(north.id) } });
    assert.equal(notes.isError, false);
    assert.notEqual(provider.saved!.access_token, old.access_token);
    assert.notEqual(provider.saved!.refresh_token, old.refresh_token);
  });

  test('revoking the key that connected a workspace closes that workspace only', async () => {
    await revokeApiKey(t.stores.db, southKey['x-api-key']!);
    const south_ = await client.callTool({ name: 'notes.get-notes', arguments: { workspace_id: String(south.id) } });
    assert.equal((south_.structuredContent as any).error.code, 'permission_denied');
    const north_ = await client.callTool({ name: 'notes.get-notes', arguments: { workspace_id: String(north.id) } });
    assert.equal(north_.isError, false);
  });

  test('a revoked access token gets 401 invalid_token on /mcp/oauth', async () => {
    const token = provider.saved!.access_token;
    const revoked = await fetch(`${base}/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token, client_id: provider.info!.client_id, client_secret: (provider.info as { client_secret?: string }).client_secret ?? '' }),
    });
    assert.equal(revoked.status, 200);
    const r = await fetch(connector, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('www-authenticate'), `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp/oauth", error="invalid_token"`);
    assert.deepEqual(await r.json(), { message: 'Invalid or expired access token' });
  });
});
