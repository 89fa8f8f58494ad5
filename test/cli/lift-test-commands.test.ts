/**
 * `lift-test add` and `lift-test list`: what an experiment measured for a channel, kept per
 * workspace in app state (both dialects), checked on the way in, audited, and raising the data
 * version so kept answers follow it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestWorkspace, createThrowawayPostgres, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { cli } from '../dashboard/helpers.ts';
import { readDataVersion } from '../../src/store/app/data-versions.ts';
import { openAppDb, migrateAppDb } from '../../src/store/app-db.ts';
import { createWorkspace } from '../../src/store/app/workspaces.ts';
import { addLiftTest, listLiftTests } from '../../src/store/app/lift-tests.ts';

let t: TestApp;
let shop: TestWorkspace;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
});

after(() => t.close());

const add = (...options: string[]) => cli(t, ['lift-test', 'add', '--workspace', String(shop.id), ...options]);
const TEST = ['--start', '2026-03-01', '--end', '2026-03-14'];

describe('lift-test add and list', () => {
  test('adds a test under the reporting source, lists it, audits it and raises the data version', async () => {
    const before = await readDataVersion(t.stores.db, shop.id);
    const added = await add('--source', 'facebook', ...TEST, '--incremental-share', '0.25', '--interval', '0.1,0.4');
    assert.ok('result' in added, JSON.stringify(added));
    const { lift_test } = added.result as { lift_test: Record<string, unknown> };
    assert.deepEqual({ ...lift_test, created_at: typeof lift_test.created_at }, {
      id: lift_test.id, source: 'meta', start_date: '2026-03-01', end_date: '2026-03-14', incremental_share: 0.25, interval: [0.1, 0.4], created_at: 'string',
    });
    await add('--source', 'google', ...TEST, '--incremental-share', '0');
    const listed = await cli(t, ['lift-test', 'list', '--workspace', String(shop.id)]);
    assert.ok('result' in listed);
    const tests = (listed.result as { lift_tests: Record<string, unknown>[] }).lift_tests;
    assert.deepEqual(tests.map((x) => [x.source, x.incremental_share, x.interval]), [['meta', 0.25, [0.1, 0.4]], ['google', 0, null]]);
    assert.equal(await readDataVersion(t.stores.db, shop.id), before + 2);
    const audit = await t.stores.db.selectFrom('audit_log').select(['action', 'actor']).where('workspace_id', '=', shop.id).where('action', '=', 'lift_test.add').execute();
    assert.equal(audit.length, 2);
  });

  test('refuses bad input with the reason, and stores nothing', async () => {
    const count = async () => (await listLiftTests(t.stores.db, shop.id)).length;
    const before = await count();
    const cases: [string[], string][] = [
      [['--source', 'myspace', ...TEST, '--incremental-share', '0.2'], '--source must be a tracked channel: one of meta, facebook'],
      [['--source', 'organic', ...TEST, '--incremental-share', '0.2'], '--source must be a tracked channel'],
      [['--source', 'meta', ...TEST, '--incremental-share', '1.5'], 'incremental_share must be a number from 0 to 1'],
      [['--source', 'meta', ...TEST, '--incremental-share', '1e-1'], '--incremental-share must be a number from 0 to 1'],
      [['--source', 'meta', ...TEST, '--incremental-share', '0.2', '--interval', '0.3,0.5'], 'the interval must contain incremental_share'],
      [['--source', 'meta', ...TEST, '--incremental-share', '0.2', '--interval', '0.3'], '--interval must be LO,HI'],
      [['--source', 'meta', '--start', '2026-03-14', '--end', '2026-03-01', '--incremental-share', '0.2'], 'end_date must not be before start_date'],
      [['--source', 'meta', '--start', '2026-02-30', '--end', '2026-03-01', '--incremental-share', '0.2'], 'start_date must be a calendar day YYYY-MM-DD'],
      [['--source', 'meta', ...TEST], '--incremental-share is required'],
    ];
    for (const [options, message] of cases) {
      const outcome = await add(...options);
      assert.ok('error' in outcome && outcome.error.message.startsWith(message), `${options.join(' ')}: ${JSON.stringify(outcome)}`);
    }
    const unknown = await cli(t, ['lift-test', 'list', '--workspace', '999999']);
    assert.ok('error' in unknown, JSON.stringify(unknown));
    assert.equal(await count(), before);
  });
});

describe('lift tests on PostgreSQL', () => {
  test('the migration creates the table and a test round-trips', async () => {
    const pg = await createThrowawayPostgres('storelens_lift');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lift-pg-'));
    const db = await openAppDb({ databaseUrl: pg.url, dataDir });
    try {
      await migrateAppDb(db);
      const workspace = await createWorkspace(db, { name: 'PG', currency: 'USD', timezone: 'UTC' });
      await addLiftTest(db, workspace.id, { source: 'tiktok', start_date: '2026-03-01', end_date: '2026-03-02', incremental_share: 0.125, interval: [0.1, 0.2] }, 'test');
      const [stored] = await listLiftTests(db, workspace.id);
      assert.deepEqual([stored!.source, stored!.incremental_share, stored!.interval], ['tiktok', 0.125, [0.1, 0.2]]);
    } finally {
      await db.destroy();
      await pg.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
