/**
 * What commands other than `settings set` store is bounded as well (the settings bounds:
 * test/cli/scenario.ts through the real command line, test/api/settings-bounds.test.ts over HTTP).
 * Commands run in this process as `npm run cli` runs them without a server.
 * Fixture: workspace "Shop" with an admin key.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { cli } from '../dashboard/helpers.ts';

let t: TestApp;
let shop: TestWorkspace;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
});
after(() => t.close());

const refused = (message: string) => ({ error: { message } });

test('a workspace name is 1 to 200 characters; any option is at most 2000', async () => {
  assert.deepEqual(await cli(t, ['workspace', 'create', '--name', 'n'.repeat(201)]), refused('--name must be at most 200 characters'));
  assert.deepEqual(await cli(t, ['workspace', 'create', '--name', '   ']), refused('--name is required'));
  const created = await cli(t, ['workspace', 'create', '--name', 'n'.repeat(200)]);
  assert.ok('result' in created, JSON.stringify(created));
  const ws = String(shop.id);
  assert.deepEqual(await cli(t, ['ads', 'connect', '--workspace', ws, '--platform', 'meta', '--account', 'act_1', '--access-token', 't'.repeat(2001)]),
    refused('--access-token must be at most 2000 characters'));
  assert.deepEqual(await cli(t, ['integration', 'set', '--workspace', ws, '--platform', 'shopify', '--shop', `${'s'.repeat(2001)}.myshopify.com`, '--secret', 'x']),
    refused('--shop must be at most 2000 characters'));
});

test('scopes named twice are stored once', async () => {
  const key = await cli(t, ['key', 'create', '--workspace', String(shop.id), '--scopes', 'read:meta,read:meta, read:meta']);
  assert.deepEqual('result' in key && (key.result as { scopes: string[] }).scopes, ['read:meta']);
  const user = await cli(t, ['user', 'create', '--email', 'vic@example.com', '--password', 'correct horse battery', '--workspace', String(shop.id),
    '--role', 'viewer', '--scopes', 'read:google,read:google']);
  assert.deepEqual('result' in user && (user.result as { scopes: string[] }).scopes, ['read:google']);
});
