/**
 * The analytics migrations that build sessions on a store that already holds events: 0003 builds
 * the buyer links and 0004 rebuilds the sessions table (landing split in tuples) from the stored
 * events. Running 0004 again (an upgrade, or a migration cut off before it was recorded) neither
 * loses nor doubles anything.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { migrateAnalytics } from '../../src/store/analytics-schema.ts';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';

let t: TestApp;
let shop: TestWorkspace;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  const ev = (session_id: number, dt: string, name: string, extra: object = {}) => ({
    store_id: shop.id, session_id, visitor_id: 5, dt, name, pathname: '/', ...extra,
  });
  await insertRows(t.stores, 'events', [
    ev(501, '2026-05-04 10:00:00', 'pageview', { adv_source: 'google', adv_campaign_id: 'g-1', utm_source: 'google', pathname: '/in' }),
    ev(501, '2026-05-04 10:03:00', 'add_to_cart', { pathname: '/p/1' }),
  ]);
  await insertRows(t.stores, 'events', [ev(502, '2026-05-05 09:00:00', 'pageview', { customer_id: 'cust-9' })]);
});

after(() => t.close());

async function rerunSessionsMigration(): Promise<void> {
  await t.stores.ch.exec('DELETE FROM schema_migrations WHERE id = 4');
  await migrateAnalytics(t.stores.ch);
}

const sessions = async () =>
  (await injectGet(t, '/v3/sessions?start_date=2026-05-01&end_date=2026-05-31', shop.headers)).body.data.map(
    (s: Record<string, string>) => [s.session_id, s.events, s.add_to_carts, s.adv_campaign_id, s.utm_source, s.session_entry_page, s.session_exit_page],
  );

test('the sessions rebuild fills sessions from stored events, once however often it runs', async () => {
  const expected = [['501', '2', '1', 'g-1', 'google', '/in', '/p/1'], ['502', '1', '0', '', '', '/', '/']];
  assert.deepEqual(await sessions(), expected);
  await rerunSessionsMigration();
  assert.deepEqual(await sessions(), expected);
  await rerunSessionsMigration();
  assert.deepEqual(await sessions(), expected);
  const links = await t.stores.ch.query<{ customer_id: string }>(
    'test-links', 'SELECT customer_id FROM visitor_customers FINAL WHERE store_id = {s:UInt64} AND visitor_id = 5', { s: shop.id },
  );
  assert.deepEqual(links.map((l) => l.customer_id), ['cust-9']);
});

test('after a rerun, new events still reach the sessions through the view', async () => {
  await insertRows(t.stores, 'events', [
    { store_id: shop.id, session_id: 502, visitor_id: 5, dt: '2026-05-05 09:04:00', name: 'add_to_cart', pathname: '/p/2' },
  ]);
  assert.deepEqual(await sessions(), [['501', '2', '1', 'g-1', 'google', '/in', '/p/1'], ['502', '2', '1', '', '', '/', '/p/2']]);
});
