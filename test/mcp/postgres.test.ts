/**
 * The tool endpoint's app state on PostgreSQL: a throwaway database on the local server
 * (postgres://postgres@127.0.0.1:5432, created and dropped here), analytics on chDB as usual.
 * Workspace "Shop" with an admin key; the stored-object tools and the OAuth store run on the
 * PostgreSQL dialect.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, createThrowawayPostgres, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { consumeCode, findToken, issueTokens, revokeToken, saveClient, saveCode } from '../../src/mcp/oauth/store.ts';
import { toolOk } from './rpc.ts';

let t: TestApp;
let shop: TestWorkspace;
let postgres: Awaited<ReturnType<typeof createThrowawayPostgres>>;

before(async () => {
  postgres = await createThrowawayPostgres('mcp');
  t = await startTestApp({ databaseUrl: postgres.url });
  shop = await createTestWorkspace(t.stores, 'Shop');
});
after(async () => {
  await t?.close();
  await postgres?.drop();
});

test('on PostgreSQL: stored objects, field-scoped updates, unique keys and the audit log', async () => {
  const ok = (name: string, args: unknown = {}) => toolOk(t.app, shop.headers, name, args);
  const { note } = await ok('notes.save-note', { title: 'PG', content: 'a' });
  assert.equal((await ok('notes.update', { id: note.id, content: 'b' })).note.content, 'b');
  assert.deepEqual((await ok('topics.add', { keywords: ['wool', 'Wool', 'silk'] })).topics.map((x: any) => x.keyword), ['wool', 'silk']);
  assert.deepEqual((await ok('topics.add', { keywords: ['WOOL'] })).skipped, ['WOOL']);
  const codes = new Set<string>();
  for (let i = 0; i < 5; i++) codes.add((await ok('creators.create', { name: `C${i}` })).creator.tracking_code);
  assert.equal(codes.size, 5);
  const { list } = await ok('lists.create', { name: 'L', kind: 'list' });
  await ok('lists.add-column', { list_id: list.id, name: 'x' });
  await ok('lists.add-items', { list_id: list.id, items: [{ values: { x: 1 } }, { values: { x: 2 } }] });
  assert.equal((await ok('lists.get-lists', { list_id: list.id })).total_items, 2);
  const { entries } = await ok('audit-log.get-log', { limit: 100 });
  assert.equal(entries.length, 1 + 1 + 2 + 5 + 1 + 1 + 2);
});

test('on PostgreSQL: OAuth codes work once, tokens are found by hash and revoked', async () => {
  const db = t.stores.db;
  await saveClient(db, { client_id: 'c1', client_id_issued_at: 1, redirect_uris: ['http://127.0.0.1/cb'], client_secret: 's' });
  const grants = [{ workspace_id: shop.id, workspace_name: 'Shop', key_id: 1, scopes: ['admin:admin'] }];
  const code = await saveCode(db, { clientId: 'c1', redirectUri: 'http://127.0.0.1/cb', codeChallenge: 'ch', resource: '', grants });
  assert.deepEqual((await consumeCode(db, code))?.grants, grants);
  assert.equal(await consumeCode(db, code), undefined);
  const tokens = await issueTokens(db, { clientId: 'c1', grants, resource: 'http://127.0.0.1/mcp/oauth' });
  assert.deepEqual(await findToken(db, 'access', tokens.access_token), { clientId: 'c1', grants, resource: 'http://127.0.0.1/mcp/oauth' });
  assert.equal(await findToken(db, 'refresh', tokens.access_token), undefined);
  await revokeToken(db, tokens.access_token);
  assert.equal(await findToken(db, 'access', tokens.access_token), undefined);
});

test('on PostgreSQL: a new code prunes codes and tokens expired for more than a day', async () => {
  const db = t.stores.db;
  const old = { expires_at: '2026-01-01T00:00:00.000Z', grants: '[]', client_id: 'c1' };
  await db.insertInto('oauth_codes').values({ ...old, code_hash: 'old', redirect_uri: 'x', code_challenge: 'x', resource: '', used_at: null }).execute();
  await db.insertInto('oauth_tokens').values({ ...old, token_hash: 'old', kind: 'access', revoked_at: null, created_at: old.expires_at }).execute();
  await saveCode(db, { clientId: 'c1', redirectUri: 'http://127.0.0.1/cb', codeChallenge: 'ch', resource: '', grants: [] });
  assert.equal((await db.selectFrom('oauth_codes').select('id').where('code_hash', '=', 'old').execute()).length, 0);
  assert.equal((await db.selectFrom('oauth_tokens').select('id').where('token_hash', '=', 'old').execute()).length, 0);
  assert.ok((await db.selectFrom('oauth_codes').select('id').execute()).length >= 1);
});
