/**
 * The data version (store/app/data-versions.ts) goes up after each change to what a workspace's
 * reports read, through the surfaces that make the change: a collector flush, an import, the demo,
 * a settings change. Only the workspaces whose rows were stored move. Raises from several processes
 * sharing one PostgreSQL database are never lost.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestWorkspace, createThrowawayPostgres, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { bumpDataVersions, readDataVersion } from '../../src/store/app/data-versions.ts';
import { openAppDb, migrateAppDb } from '../../src/store/app-db.ts';
import { createWorkspace } from '../../src/store/app/workspaces.ts';
import { cli } from '../dashboard/helpers.ts';
import { eventually } from '../collect/helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let other: TestWorkspace;

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores, 'Shop');
  other = await createTestWorkspace(t.stores, 'Other');
});

after(() => t.close());

const version = (workspaceId: number) => readDataVersion(t.stores.db, workspaceId);

describe('data version', () => {
  test('starts at 0 and rises by one per settings change, for that workspace only', async () => {
    assert.deepEqual([await version(shop.id), await version(other.id)], [0, 0]);
    const outcome = await cli(t, ['settings', 'set', '--workspace', String(shop.id), 'attribution_window=28']);
    assert.ok('result' in outcome, JSON.stringify(outcome));
    assert.deepEqual([await version(shop.id), await version(other.id)], [1, 0]);
  });

  test('rises after a collector flush stored the rows of the workspace', async () => {
    const before = await version(other.id);
    const response = await t.app.inject({
      method: 'POST',
      url: '/collect',
      payload: JSON.stringify({
        pixel_id: other.pixelId, visitor_id: '71', session_id: '81', entry_url: 'https://shop.example/?gclid=x',
        items: [{ type: 'event', name: 'pageview', url: 'https://shop.example/', ts: Date.now() - 1000 }],
      }),
      headers: { 'content-type': 'text/plain', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0.0.0' },
    });
    assert.deepEqual([response.statusCode, response.json()], [202, { accepted: 1 }]);
    assert.equal(await eventually(() => version(other.id), (v) => v > before), before + 1);
  });

  test('rises after an import, also one that rejected rows', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dv-')), 'expenses.ndjson');
    fs.writeFileSync(file, '{"dt":"2026-03-02","name":"rent","amount":5000}\n{"dt":"nope"}\n');
    const before = await version(shop.id);
    const outcome = await cli(t, ['import', '--workspace', String(shop.id), '--kind', 'expenses', '--file', file]);
    assert.ok('result' in outcome, JSON.stringify(outcome));
    assert.equal(await version(shop.id), before + 1);
  });

  test('rises after the demo fills a workspace', async () => {
    const demo = await createTestWorkspace(t.stores, 'Demo');
    const outcome = await cli(t, ['demo', '--workspace', String(demo.id), '--days', '1']);
    assert.ok('result' in outcome, JSON.stringify(outcome));
    assert.equal(await version(demo.id), 1);
  });
});

describe('data version on PostgreSQL shared by several processes', () => {
  test('concurrent raises from two connection pools are all counted', async () => {
    const pg = await createThrowawayPostgres('storelens_dv');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dv-pg-'));
    const [a, b] = [await openAppDb({ databaseUrl: pg.url, dataDir }), await openAppDb({ databaseUrl: pg.url, dataDir })];
    try {
      await migrateAppDb(a);
      const workspace = await createWorkspace(a, { name: 'Shared', currency: 'USD', timezone: 'UTC' });
      const raise = (db: typeof a) => Array.from({ length: 25 }, () => bumpDataVersions(db, [workspace.id]));
      await Promise.all([...raise(a), ...raise(b)]);
      assert.deepEqual([await readDataVersion(a, workspace.id), await readDataVersion(b, workspace.id)], [50, 50]);
    } finally {
      await a.destroy();
      await b.destroy();
      await pg.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
