/**
 * What the connector tests share: the MCP SDK client's OAuth storage, the client's redirect
 * target, and a person consenting in headless Chromium.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { Browser } from 'playwright-core';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * The SDK client's storage, kept in memory; the authorization URL is kept for the browser. With a
 * `clientMetadataUrl` the SDK uses that URL as its client_id where the server takes metadata
 * documents; without one it registers (a confidential client).
 */
export class TestOAuthProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;

  constructor(
    private readonly callbackUrl: string,
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl() {
    return this.callbackUrl;
  }
  get clientMetadata() {
    return {
      client_name: 'SDK test client',
      redirect_uris: [this.callbackUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.clientMetadataUrl ? 'none' : 'client_secret_post',
    };
  }
  state() {
    return 'state-123';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The client's redirect target on loopback: `/callback` records each URL it is sent to. */
export async function startCallback(): Promise<{ url: string; received: URL[]; close(): Promise<void> }> {
  const received: URL[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://127.0.0.1');
    if (url.pathname === '/callback') received.push(url);
    res.end('connected');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/callback`;
  return { url, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A person on the consent page at `url`: one row per workspace, then Connect. */
export async function consentInBrowser(
  browser: Browser,
  url: URL,
  callbackUrl: string,
  rows: { key: string; secret: string }[],
): Promise<{ status: string; error: string }> {
  const page = await browser.newPage();
  try {
    await page.goto(url.href);
    for (let i = 1; i < rows.length; i++) await page.click('#add-workspace');
    const keys = page.locator('input[name=workspace_key]');
    const secrets = page.locator('input[name=workspace_secret]');
    assert.equal(await keys.count(), rows.length);
    for (const [i, row] of rows.entries()) {
      await keys.nth(i).fill(row.key);
      await secrets.nth(i).fill(row.secret);
    }
    await Promise.all([page.waitForLoadState('load'), page.click('#connect')]);
    await page.waitForLoadState('load');
    const error = (await page.locator('.error').count()) ? await page.locator('.error').innerText() : '';
    return { status: page.url().startsWith(callbackUrl) ? 'redirected' : 'stayed', error };
  } finally {
    await page.close();
  }
}
