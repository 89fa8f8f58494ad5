/**
 * The tool endpoint's app state on PostgreSQL: a throwaway database on the local server
 * (postgres://postgres@127.0.0.1:5432, created and dropped here), analytics on chDB as usual.
 * Workspace "Shop" with an admin key; the stored-object tools and the OAuth store run on the
 * PostgreSQL dialect.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, createThrowawayPostgres, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import {
  consumeCode, findCode, findRefreshToken, findToken, issueTokens, revokeGrant, revokeOneToken, saveClient, saveCode,
} from '../../src/store/app/oauth.ts';
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
  await ok('lists.add-items', { list_id: list.id, items: [{ values: { x: 'one' } }, { values: { x: 'two' } }] });
  assert.equal((await ok('lists.get-lists', { list_id: list.id })).total_items, 2);
  const { entries } = await ok('audit-log.get-log', { limit: 100 });
  assert.equal(entries.length, 1 + 1 + 2 + 5 + 1 + 1 + 2);
});

test('on PostgreSQL: OAuth codes work once, tokens are found by hash, grants are revoked whole', async () => {
  const db = t.stores.db;
  await saveClient(db, { client_id: 'c1', client_id_issued_at: 1, redirect_uris: ['http://127.0.0.1/cb'], client_secret: 's' });
  const grants = [{ workspace_id: shop.id, workspace_name: 'Shop', key_id: 1, scopes: ['admin:admin'] }];
  const code = await saveCode(db, { clientId: 'c1', redirectUri: 'http://127.0.0.1/cb', codeChallenge: 'ch', resource: '', grants });
  const consumed = await consumeCode(db, code);
  assert.deepEqual(consumed?.grants, grants);
  assert.equal(await consumeCode(db, code), undefined);
  assert.deepEqual(await findCode(db, code), { clientId: 'c1', codeChallenge: 'ch', grantId: consumed!.grantId, used: true, expired: false });
  const grant = { clientId: 'c1', grants, resource: 'http://127.0.0.1/mcp/oauth', grantId: consumed!.grantId };
  const tokens = await issueTokens(db, grant);
  const other = await issueTokens(db, { ...grant, grantId: 'another' });
  assert.deepEqual(await findToken(db, 'access', tokens.access_token), grant);
  assert.equal(await findToken(db, 'refresh', tokens.access_token), undefined);
  assert.equal(await revokeOneToken(db, tokens.access_token), true);
  assert.equal(await revokeOneToken(db, tokens.access_token), false);
  assert.equal(await findToken(db, 'access', tokens.access_token), undefined);
  await revokeGrant(db, grant.grantId);
  assert.deepEqual(await findRefreshToken(db, tokens.refresh_token), { ...grant, revoked: true });
  assert.deepEqual(await findToken(db, 'access', other.access_token), { ...grant, grantId: 'another' });
});

test('on PostgreSQL: a new code prunes codes and tokens expired for more than a day, but keeps a used code while its grant lives', async () => {
  const db = t.stores.db;
  const old = { expires_at: '2026-01-01T00:00:00.000Z', grants: '[]', client_id: 'c1' };
  const code = { ...old, redirect_uri: 'x', code_challenge: 'x', resource: '', used_at: old.expires_at };
  await db.insertInto('oauth_codes').values([{ ...code, code_hash: 'old', grant_id: 'g-old' }, { ...code, code_hash: 'living', grant_id: 'g-living' }]).execute();
  await db.insertInto('oauth_tokens').values({ ...old, token_hash: 'old', kind: 'access', revoked_at: null, created_at: old.expires_at, grant_id: 'g-old' }).execute();
  await db.insertInto('oauth_tokens').values({ ...old, expires_at: '2999-01-01T00:00:00.000Z', token_hash: 'living', kind: 'refresh', revoked_at: null, created_at: old.expires_at, grant_id: 'g-living' }).execute();
  await saveCode(db, { clientId: 'c1', redirectUri: 'http://127.0.0.1/cb', codeChallenge: 'ch', resource: '', grants: [] });
  const hashes = async (table: 'oauth_codes' | 'oauth_tokens') =>
    (await db.selectFrom(table).select(table === 'oauth_codes' ? 'code_hash as hash' : 'token_hash as hash').execute()).map((r) => r.hash);
  assert.ok(!(await hashes('oauth_codes')).includes('old'));
  assert.ok((await hashes('oauth_codes')).includes('living'));
  assert.ok(!(await hashes('oauth_tokens')).includes('old'));
  assert.ok((await hashes('oauth_tokens')).includes('living'));
});
