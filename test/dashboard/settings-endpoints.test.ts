/**
 * The owner endpoints of the settings view over HTTP. Fixture: workspace "shop" (owner ada) with a
 * Shopify shop connected through `integration set`; workspace "other" (owner oz) with a key of
 * its own.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { cli, createUser, signIn, type Signed } from './helpers.ts';
import { DEFAULT_SETTINGS } from '../../src/store/app/settings.ts';
import { ATTRIBUTION_MODELS } from '../../src/kit/vocabulary.ts';

let t: TestApp;
let shop: TestWorkspace;
let other: TestWorkspace;
let ada: Signed;
let oz: Signed;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  other = await createTestWorkspace(t.stores, 'Other');
  await createUser(t, 'ada@example.com', shop.id);
  await createUser(t, 'oz@example.com', other.id);
  const connected = await cli(t, ['integration', 'set', '--workspace', String(shop.id), '--platform', 'shopify', '--shop', 'ada-shop.myshopify.com', '--secret', 'shpss_top_secret_value']);
  assert.ok('result' in connected, JSON.stringify(connected));
  ada = await signIn(t, 'ada@example.com');
  oz = await signIn(t, 'oz@example.com');
});
after(() => t.close());

test('settings: a change is validated as a whole, stored, and the report applies it', async () => {
  const bad: [unknown, string][] = [
    [{ attribution_window: 5 }, 'attribution_window: attribution_window must be one of 1, 7, 28, 90, 180, 365'],
    [{ attribution_model: 'best' }, `attribution_model: Invalid option: expected one of ${ATTRIBUTION_MODELS.map((m) => `"${m}"`).join('|')}`],
    [{ no_such_setting: true }, `Unknown setting: no_such_setting. Known settings: ${Object.keys(DEFAULT_SETTINGS).join(', ')}`],
    [{ payment_fee_percent: 101 }, 'payment_fee_percent: Too big: expected number to be <=100'],
    [[], 'Settings must be an object of setting names and values'],
  ];
  for (const [body, message] of bad) {
    assert.deepEqual(await ada.send('PUT', `/dashboard/api/settings?workspace=${shop.id}`, body), { status: 400, body: { message } }, JSON.stringify(body));
  }
  const saved = await ada.send('PUT', `/dashboard/api/settings?workspace=${shop.id}`, { attribution_model: 'linear', ignore_sources: ['email'] });
  assert.equal(saved.status, 200);
  assert.deepEqual([saved.body.settings.attribution_model, saved.body.settings.ignore_sources], ['linear', ['email']]);
  const report = await ada.get(`/dashboard/api/report?workspace=${shop.id}`);
  assert.deepEqual([report.body.settings_applied.attribution_model, report.body.settings_applied.ignore_sources], ['linear', ['email']]);
});

test('time zone: an owner sets it by its IANA name; a name that is no zone is refused and nothing is stored', async () => {
  const refused = await ada.send('PUT', `/dashboard/api/settings?workspace=${shop.id}`, { timezone: 'Mars/Base', attribution_model: 'linear' });
  assert.deepEqual(refused, { status: 400, body: { message: 'timezone: Invalid timezone: Mars/Base. Use an IANA time zone name such as Europe/Berlin' } });
  const unchanged = await ada.get(`/dashboard/api/settings?workspace=${shop.id}`);
  assert.equal(unchanged.body.settings.timezone, 'UTC');
  const saved = await ada.send('PUT', `/dashboard/api/settings?workspace=${shop.id}`, { timezone: 'america/new_york' });
  assert.equal(saved.body.settings.timezone, 'America/New_York');
  const me = await ada.get('/dashboard/api/me');
  assert.equal(me.body.workspaces.find((w: { id: number }) => w.id === shop.id).timezone, 'America/New_York');
  const overview = await ada.get(`/dashboard/api/overview?workspace=${shop.id}`);
  assert.equal(overview.body.settings_applied.timezone, 'America/New_York');
  assert.equal((await oz.send('PUT', `/dashboard/api/settings?workspace=${shop.id}`, { timezone: 'Europe/Berlin' })).status, 403);
  await ada.send('PUT', `/dashboard/api/settings?workspace=${shop.id}`, { timezone: 'UTC' });
});

test('keys: created with scopes (the secret answered once), listed by prefix only, revoked only within the workspace', async () => {
  const created = await ada.send('POST', `/dashboard/api/keys?workspace=${shop.id}`, { scopes: ['read:meta', 'read:meta', 'read:profit'] });
  assert.equal(created.status, 201);
  assert.deepEqual(created.body.scopes, ['read:meta', 'read:profit']);
  const headers = { 'x-api-key': created.body.api_key, 'client-secret': created.body.client_secret };
  assert.equal((await t.app.inject({ method: 'GET', url: '/v3/report?source=meta', headers })).statusCode, 200);

  const listed = await ada.get(`/dashboard/api/keys?workspace=${shop.id}`);
  assert.ok(!JSON.stringify(listed.body).includes(created.body.client_secret), 'the secret is never listed');
  assert.ok(!JSON.stringify(listed.body).includes(created.body.api_key), 'nor the whole key');
  const mine = listed.body.keys.find((k: { key_prefix: string }) => created.body.api_key.startsWith(k.key_prefix));
  assert.deepEqual([mine.scopes, mine.revoked_at], [['read:meta', 'read:profit'], null]);

  for (const [body, message] of [[{ scopes: [] }, 'scopes: choose at least one scope'], [{ scopes: ['write:everything'] }, 'Invalid scopes: write:everything'], [{}, 'scopes: Invalid input: expected array, received undefined']] as const) {
    assert.deepEqual(await ada.send('POST', `/dashboard/api/keys?workspace=${shop.id}`, body), { status: 400, body: { message } });
  }

  const othersKey = (await oz.get(`/dashboard/api/keys?workspace=${other.id}`)).body.keys[0];
  assert.deepEqual(await ada.send('DELETE', `/dashboard/api/keys/${othersKey.id}?workspace=${shop.id}`), { status: 404, body: { message: 'No active key with this id in this workspace' } });
  assert.equal((await t.app.inject({ method: 'GET', url: '/v3/report', headers: other.headers })).statusCode, 200, "the other workspace's key still works");
  assert.deepEqual(await ada.send('DELETE', `/dashboard/api/keys/abc?workspace=${shop.id}`), { status: 400, body: { message: 'Key id must be numeric' } });

  assert.deepEqual(await ada.send('DELETE', `/dashboard/api/keys/${mine.id}?workspace=${shop.id}`), { status: 200, body: { revoked: true } });
  const refused = await t.app.inject({ method: 'GET', url: '/v3/report?source=meta', headers });
  assert.deepEqual([refused.statusCode, refused.json()], [401, { message: 'Invalid API key' }]);
  assert.equal((await ada.send('DELETE', `/dashboard/api/keys/${mine.id}?workspace=${shop.id}`)).status, 404, 'revoking twice');
});

test('install: the pixel snippet, the last event, the webhook URLs and the connected shop, never its secret', async () => {
  const install = await ada.get(`/dashboard/api/install?workspace=${shop.id}`);
  assert.equal(install.status, 200);
  assert.match(install.body.snippet, new RegExp(`data-pixel-id="${shop.pixelId}"`));
  assert.equal(install.body.last_event_at, null);
  assert.deepEqual(install.body.shops.map((s: { platform: string; shop: string; webhook_url: string }) => [s.platform, s.shop, s.webhook_url.replace(/^https?:\/\/[^/]+/, '')]), [['shopify', 'ada-shop.myshopify.com', '/webhooks/shopify']]);
  assert.deepEqual(install.body.ad_accounts, []);
  assert.ok(!JSON.stringify(install.body).includes('shpss_top_secret_value'));
  assert.deepEqual((await oz.get(`/dashboard/api/install?workspace=${other.id}`)).body.shops, [], "another workspace's shops are not listed");
});

test('storefront: origins and quotas are checked, then stored for the try-on API', async () => {
  const good = { origins: ['https://ada.example', 'https://ada.example/'], consent_version: 'v2', marketing_version: 'v1', session_attempts: 5, daily_attempts: 100 };
  for (const [body, message] of [
    [{ ...good, origins: ['javascript:alert(1)'] }, 'origins.0: must be an origin like https://shop.example'],
    [{ ...good, origins: ['https://ada.example:99999'] }, 'origins.0: must be an origin like https://shop.example'],
    [{ ...good, session_attempts: 0 }, 'session_attempts: Too small: expected number to be >=1'],
    [{ ...good, extra: 1 }, 'body: Unrecognized key: "extra"'],
  ] as const) {
    assert.deepEqual(await ada.send('PUT', `/dashboard/api/storefront?workspace=${shop.id}`, body), { status: 400, body: { message } });
  }
  assert.equal((await ada.get(`/dashboard/api/storefront?workspace=${shop.id}`)).body.configured, false);
  const saved = await ada.send('PUT', `/dashboard/api/storefront?workspace=${shop.id}`, good);
  assert.deepEqual(saved, { status: 200, body: { configured: true, origins: ['https://ada.example'], consent_version: 'v2', marketing_version: 'v1', session_attempts: 5, daily_attempts: 100 } });
  const members = await ada.get(`/dashboard/api/members?workspace=${shop.id}`);
  assert.deepEqual(members.body.members.map((m: { email: string; role: string }) => [m.email, m.role]), [['ada@example.com', 'owner']]);
});
