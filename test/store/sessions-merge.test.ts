/**
 * Analytics migration 0011: the engine merges the parts of `sessions` and `visitor_customers` that
 * are older than FORCE_MERGE_AGE_SECONDS, so FINAL reads merged partitions instead of folding every
 * collector flush at query time (docs/performance.md). The sessions read through the API stay the
 * same before and after the merge.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FORCE_MERGE_AGE_SECONDS } from '../../src/store/migrations/analytics/0011_merge_sessions.ts';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';

let t: TestApp;
let shop: TestWorkspace;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
});

after(() => t.close());

const activeParts = async (table: string) =>
  Number((await t.stores.ch.query<{ n: number }>('test', `SELECT count() AS n FROM system.parts
    WHERE database = currentDatabase() AND table = {table:String} AND active`, { table }))[0]!.n);

const sessions = async () =>
  (await injectGet(t, '/v3/sessions?start_date=2026-05-01&end_date=2026-05-31', shop.headers)).body.data.map(
    (s: Record<string, string>) => [s.session_id, s.events, s.add_to_carts, s.adv_campaign_id, s.session_entry_page, s.session_exit_page],
  );

test('sessions and buyer links carry the force-merge age', async () => {
  for (const table of ['sessions', 'visitor_customers']) {
    const [row] = await t.stores.ch.query<{ engine_full: string }>('test',
      'SELECT engine_full FROM system.tables WHERE database = currentDatabase() AND name = {table:String}', { table });
    assert.match(row!.engine_full, new RegExp(`min_age_to_force_merge_seconds = ${FORCE_MERGE_AGE_SECONDS}\\b`));
  }
});

test('the engine folds flushes of one session into one part once they are old enough; reads stay the same', async () => {
  const ev = (dt: string, name: string, extra: object = {}) => ({ store_id: shop.id, session_id: 801, visitor_id: 8, dt, name, pathname: '/', ...extra });
  // Three collector flushes, each holding one event of the same session.
  await insertRows(t.stores, 'events', [ev('2026-05-04 10:00:00', 'pageview', { adv_source: 'google', adv_campaign_id: 'g-1', pathname: '/in' })]);
  await insertRows(t.stores, 'events', [ev('2026-05-04 10:02:00', 'add_to_cart', { pathname: '/p/1', customer_id: 'c-8' })]);
  await insertRows(t.stores, 'events', [ev('2026-05-04 10:05:00', 'add_to_cart', { pathname: '/cart', customer_id: 'c-8' })]);
  assert.equal(await activeParts('sessions'), 3);
  const before = await sessions();
  assert.deepEqual(before, [['801', '3', '2', 'g-1', '/in', '/cart']]);

  // The age is minutes in production; a second here, so the test need not wait that long.
  await t.stores.ch.exec('ALTER TABLE sessions MODIFY SETTING min_age_to_force_merge_seconds = 1');
  for (let i = 0; i < 600 && (await activeParts('sessions')) > 1; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(await activeParts('sessions'), 1);
  assert.deepEqual(await sessions(), before);
});
