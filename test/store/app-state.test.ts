/**
 * The app-state repositories behave the same on both dialects: SQLite (a temp file) and
 * PostgreSQL (a throwaway database created on TEST_DATABASE_URL's server, default
 * postgres://postgres@127.0.0.1:5432/test, and dropped afterwards). Fixture per dialect: two
 * workspaces "North" (EUR, Europe/Berlin) and "South", keys with a few scopes, audit entries,
 * two OAuth tokens and a code written before migration 0011.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createThrowawayPostgres } from '../helper.ts';
import { Migrator, type Kysely } from 'kysely';
import { migrateAppDb, openAppDb, type AppDatabase } from '../../src/store/app-db.ts';
import { appMigrations } from '../../src/store/migrations/app/index.ts';
import { createWorkspace, findWorkspace, findWorkspaceByPixelId, getSettings, listWorkspaces, updateSettings } from '../../src/store/app/workspaces.ts';
import { createApiKey, findActiveKey, revokeApiKey, verifyCredentials } from '../../src/store/app/api-keys.ts';
import { listAudit, recordAudit } from '../../src/store/app/audit-log.ts';
import { DEFAULT_SETTINGS } from '../../src/store/app/settings.ts';

interface Dialect {
  name: string;
  open(): Promise<AppDatabase>;
  cleanup(): Promise<void>;
}

const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-app-state-'));
let postgres: Awaited<ReturnType<typeof createThrowawayPostgres>> | undefined;

const DIALECTS: Dialect[] = [
  {
    name: 'SQLite',
    open: () => openAppDb({ databaseUrl: null, dataDir: sqliteDir }),
    cleanup: async () => fs.rmSync(sqliteDir, { recursive: true, force: true }),
  },
  {
    name: 'PostgreSQL',
    async open() {
      postgres = await createThrowawayPostgres('app_state');
      return openAppDb({ databaseUrl: postgres.url, dataDir: sqliteDir });
    },
    cleanup: async () => postgres?.drop(),
  },
];

for (const dialect of DIALECTS) {
  describe(`app state on ${dialect.name}`, () => {
    let db: AppDatabase;

    before(async () => {
      db = await dialect.open();
      await migrateAppDb(db);
    });

    after(async () => {
      await db?.destroy();
      await dialect.cleanup();
    });

    test('migrations run to the latest version and running them again changes nothing', async () => {
      await migrateAppDb(db);
      assert.deepEqual(await listWorkspaces(db), []);
    });

    test('workspaces get increasing numeric ids, a unique pixel id and default settings', async () => {
      const north = await createWorkspace(db, { name: 'North', currency: 'EUR', timezone: 'Europe/Berlin' });
      const south = await createWorkspace(db, { name: 'South', currency: 'USD', timezone: 'UTC' });
      assert.deepEqual([north.id, south.id], [1, 2]);
      assert.equal(typeof north.id, 'number');
      assert.notEqual(north.pixelId, south.pixelId);
      assert.deepEqual(await findWorkspace(db, 1), north);
      assert.deepEqual(await findWorkspaceByPixelId(db, south.pixelId), south);
      assert.equal(await findWorkspace(db, 99), undefined);
      assert.deepEqual((await listWorkspaces(db)).map((w) => w.name), ['North', 'South']);
      assert.deepEqual(await getSettings(db, 1), { ...DEFAULT_SETTINGS, currency: 'EUR', timezone: 'Europe/Berlin' });
    });

    test('settings updates merge, keep their types, and reject invalid values as a whole', async () => {
      const next = await updateSettings(db, 1, { refund_netting: true, attribution_window: 28, ignore_sources: ['email'] });
      assert.deepEqual(next, { ...DEFAULT_SETTINGS, currency: 'EUR', timezone: 'Europe/Berlin', refund_netting: true, attribution_window: 28, ignore_sources: ['email'] });
      await assert.rejects(updateSettings(db, 1, { attribution_window: 5, include_unattributed: true }));
      assert.deepEqual(await getSettings(db, 1), next);
      await updateSettings(db, 1, { currency: 'GBP' });
      assert.equal((await findWorkspace(db, 1))!.currency, 'GBP');
    });

    test('keys verify with their secret only, carry numeric ids and scopes, and stop working once revoked', async () => {
      const key = await createApiKey(db, 1, ['read:meta', 'read:profit']);
      const other = await createApiKey(db, 2, ['admin:admin']);
      const found = await findActiveKey(db, key.api_key);
      assert.deepEqual({ ...found, secretHash: typeof found?.secretHash }, { id: found!.id, workspaceId: 1, scopes: ['read:meta', 'read:profit'], secretHash: 'string' });
      assert.equal(typeof found!.id, 'number');
      assert.equal((await verifyCredentials(db, key.api_key, key.client_secret)).ok, true);
      assert.deepEqual(await verifyCredentials(db, key.api_key, other.client_secret), { ok: false, reason: 'wrong_secret' });
      assert.deepEqual(await verifyCredentials(db, 'sl_unknown', key.client_secret), { ok: false, reason: 'unknown_key' });
      assert.equal(await revokeApiKey(db, key.api_key), true);
      assert.equal(await revokeApiKey(db, key.api_key), false);
      assert.deepEqual(await verifyCredentials(db, key.api_key, key.client_secret), { ok: false, reason: 'unknown_key' });
      assert.equal((await verifyCredentials(db, other.api_key, other.client_secret)).ok, true);
    });

    test('the audit log lists a workspace\'s entries newest first, paged, with details as objects', async () => {
      for (const target of ['a', 'b', 'c']) {
        await recordAudit(db, { workspaceId: 1, actor: 'key:1', action: 'notes.save-note', target, details: { title: target, n: 1 } });
      }
      await recordAudit(db, { workspaceId: 2, actor: 'cli', action: 'settings.set', target: 'settings' });
      const page = await listAudit(db, 1, { limit: 2, offset: 0 });
      assert.deepEqual(page.map((e) => [e.workspace_id, e.target, e.details]), [
        [1, 'c', { title: 'c', n: 1 }],
        [1, 'b', { title: 'b', n: 1 }],
      ]);
      assert.ok(page.every((e) => typeof e.id === 'number' && /^\d{4}-\d{2}-\d{2}T/.test(e.created_at)));
      assert.deepEqual((await listAudit(db, 1, { limit: 2, offset: 2 })).map((e) => e.target), ['a']);
      assert.deepEqual((await listAudit(db, 2, { limit: 10, offset: 0 })).map((e) => [e.actor, e.details]), [['cli', {}]]);
    });

    test('OAuth codes and tokens from before grants existed become a grant each, so revoking one grant ends no other', async () => {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => appMigrations }, allowUnorderedMigrations: true });
      assert.equal((await migrator.migrateTo('0010_oauth_token_resource')).error, undefined);
      const old = { client_id: 'c', grants: '[]', expires_at: '2999-01-01T00:00:00.000Z', created_at: '2026-01-01T00:00:00.000Z', revoked_at: null };
      const untyped = db as unknown as Kysely<any>;
      await untyped.insertInto('oauth_tokens').values([{ ...old, token_hash: 'h1', kind: 'access' }, { ...old, token_hash: 'h2', kind: 'refresh' }]).execute();
      await untyped.insertInto('oauth_codes').values({ code_hash: 'c1', client_id: 'c', redirect_uri: 'x', code_challenge: 'x', resource: '', grants: '[]', expires_at: old.expires_at, used_at: null }).execute();
      await migrateAppDb(db);
      const tokens = await db.selectFrom('oauth_tokens').select(['token_hash', 'grant_id']).orderBy('token_hash').execute();
      assert.deepEqual(tokens, [{ token_hash: 'h1', grant_id: 'h1' }, { token_hash: 'h2', grant_id: 'h2' }]);
      assert.deepEqual(await db.selectFrom('oauth_codes').select(['code_hash', 'grant_id']).execute(), [{ code_hash: 'c1', grant_id: 'c1' }]);
    });

    test('list rows copied from the ads before scopes were recorded take their ad platforms as their scope; other objects none', async () => {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => appMigrations }, allowUnorderedMigrations: true });
      assert.equal((await migrator.migrateTo('0020_data_versions')).error, undefined);
      const row = (kind: string, data: object) => ({ workspace_id: 1, kind, parent_id: 1, unique_key: null, data: JSON.stringify(data), created_at: 'x', updated_at: 'x' });
      await (db as unknown as Kysely<any>).insertInto('tool_objects').values([
        row('list_item', { values: { creative: 'Ad g1' }, linked: { asset_id: 'g1' }, _channels: ['google'] }),
        row('list_item', { values: { idea: 'typed' } }),
        row('asset_label', { asset_id: 'm1', labels: ['hook'], _channels: ['meta'] }),
      ]).execute();
      await migrateAppDb(db);
      const rows = await db.selectFrom('tool_objects').select(['kind', 'data', 'read_scope']).where('created_at', '=', 'x').orderBy('id').execute();
      assert.deepEqual(rows.map((r) => [r.kind, JSON.parse(r.data), r.read_scope && JSON.parse(r.read_scope)]), [
        ['list_item', { values: { creative: 'Ad g1' }, linked: { asset_id: 'g1' } }, { channels: ['google'], profit: false }],
        ['list_item', { values: { idea: 'typed' } }, null],
        ['asset_label', { asset_id: 'm1', labels: ['hook'], _channels: ['meta'] }, null],
      ]);
    });
  });
}
