/**
 * The consent form's workspace check called directly, for the refusals the browser tests of
 * oauth.test.ts do not reach. Fixture: workspaces "North" and "South", each with an admin key;
 * North has a second key with read:organic only.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { grantWorkspaces } from '../../src/mcp/oauth/consent.ts';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';

let t: TestApp;
let north: TestWorkspace;
let south: TestWorkspace;
let northOrganic: Record<string, string>;

before(async () => {
  t = await startTestApp();
  north = await createTestWorkspace(t.stores, 'North');
  south = await createTestWorkspace(t.stores, 'South');
  northOrganic = await north.keyHeaders(['read:organic']);
});

after(() => t.close());

const keyOf = (headers: Record<string, string>) => headers['x-api-key']!;
const secretOf = (headers: Record<string, string>) => headers['client-secret']!;

test('no workspace, or keys and secrets that do not pair up, is refused before any key is checked', async () => {
  const expected = { refusal: 'Add at least one workspace with its API key and client secret.' };
  assert.deepEqual(await grantWorkspaces(t.stores.db, [], []), expected);
  assert.deepEqual(await grantWorkspaces(t.stores.db, [keyOf(north.headers), keyOf(south.headers)], [secretOf(north.headers)]), expected);
});

test('more than 20 workspaces in one connection are refused', async () => {
  const keys = Array.from({ length: 21 }, () => keyOf(north.headers));
  const secrets = Array.from({ length: 21 }, () => secretOf(north.headers));
  assert.deepEqual(await grantWorkspaces(t.stores.db, keys, secrets), { refusal: 'At most 20 workspaces per connection.' });
  assert.ok('grants' in (await grantWorkspaces(t.stores.db, keys.slice(1), secrets.slice(1))));
});

test('the refusal names the row whose secret is wrong', async () => {
  const refused = await grantWorkspaces(t.stores.db, [keyOf(north.headers), keyOf(south.headers)], [secretOf(north.headers), 'slsec_wrong']);
  assert.deepEqual(refused, { refusal: 'Workspace 2: Invalid client secret' });
});

test('a workspace named twice is granted once, with the key of its last row', async () => {
  const granted = await grantWorkspaces(
    t.stores.db,
    [keyOf(north.headers), keyOf(south.headers), keyOf(northOrganic)],
    [secretOf(north.headers), secretOf(south.headers), secretOf(northOrganic)],
  );
  assert.ok('grants' in granted);
  assert.deepEqual(
    granted.grants.map((grant) => [grant.workspace_name, grant.scopes]),
    [['North', ['read:organic']], ['South', ['admin:admin']]],
  );
});
