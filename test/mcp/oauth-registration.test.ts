/**
 * Dynamic client registration (`POST /register`): which redirect URIs a client may register
 * (https, http on a loopback address, its own private-use scheme; OAuth 2.1, RFC 8252) and how
 * much it may store. A file of its own: the SDK allows 20 registrations per hour from one address.
 * Fixture: none beyond the app; requests go to a listening server (the SDK's handlers are Express).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../helper.ts';
import { oauthByHand } from './oauth-by-hand.ts';

let t: TestApp;
let hand: ReturnType<typeof oauthByHand>;
const register = (uri: string) => hand.register([uri]);

before(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  hand = oauthByHand(`http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`);
});
after(() => t.close());

describe('redirect URIs at registration', () => {
  test('https, loopback http and an app\'s own scheme (reverse-domain or, like Cursor\'s, one word) are accepted', async () => {
    const uris = ['https://claude.ai/api/mcp/auth_callback', 'http://localhost:6274/cb', 'http://127.0.0.1:33418/', 'http://[::1]:8000/cb', 'com.example.app:/oauth/callback', 'dev.tool.mcp://callback', 'cursor://anysphere.cursor-mcp/oauth/callback'];
    const r = await hand.register(uris);
    assert.equal(r.status, 201, await r.clone().text());
    assert.deepEqual((await r.json()).redirect_uris, uris);
  });

  test('plain http outside loopback is refused with invalid_redirect_uri', async () => {
    const r = await register('http://evil.example/callback');
    assert.equal(r.status, 400);
    assert.deepEqual(await r.json(), {
      error: 'invalid_redirect_uri',
      error_description: 'redirect_uri http://evil.example/callback must use https (plain http only on 127.0.0.1, [::1] or localhost)',
    });
  });

  test('file:, blob:, about: and other schemes of no app, and fragments, are refused', async () => {
    for (const uri of ['file:///etc/passwd', 'blob:https://claude.ai/1d4d', 'about:blank', 'ftp://files.example/cb', 'ws://127.0.0.1/cb', 'mailto:a@example.com', 'view-source:https://x.example/']) {
      const r = await register(uri);
      assert.equal(r.status, 400, uri);
      assert.deepEqual(await r.json(), {
        error: 'invalid_redirect_uri',
        error_description: `redirect_uri ${uri} must use https, http on a loopback address, or the app's own scheme such as com.example.app:/callback`,
      });
    }
    const fragment = await register('https://claude.ai/cb#x');
    assert.deepEqual(await fragment.json(), { error: 'invalid_redirect_uri', error_description: 'redirect_uri https://claude.ai/cb#x must not have a fragment' });
  });

  test('javascript:, data: and vbscript: are refused by the SDK before our rules', async () => {
    for (const uri of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)']) {
      const r = await register(uri);
      assert.equal(r.status, 400, uri);
      const body = await r.json();
      assert.equal(body.error, 'invalid_client_metadata', uri);
      assert.match(body.error_description, /URL cannot use javascript:, data:, or vbscript: scheme/);
    }
  });

  test('a registration stores at most 10 redirect URIs of 2000 characters and a name of 200', async () => {
    const cb = (i: number) => `https://claude.ai/cb/${i}`;
    const many = await hand.register(Array.from({ length: 11 }, (_, i) => cb(i)));
    assert.deepEqual(await many.json(), { error: 'invalid_redirect_uri', error_description: 'A client registers at most 10 redirect_uris' });
    const long = await register(`https://claude.ai/${'x'.repeat(2000)}`);
    assert.deepEqual(await long.json(), { error: 'invalid_redirect_uri', error_description: 'redirect_uri must be at most 2000 characters' });
    const name = await hand.register([cb(0)], { client_name: 'n'.repeat(201) });
    assert.deepEqual(await name.json(), { error: 'invalid_client_metadata', error_description: 'client_name must be at most 200 characters' });
    const largest = await hand.register(Array.from({ length: 10 }, (_, i) => cb(i)), { client_name: 'n'.repeat(200) });
    assert.equal(largest.status, 201);
  });
});
