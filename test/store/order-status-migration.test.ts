/**
 * Analytics migration 12 on a store that already holds orders: the `cancelled` flag becomes the
 * order's `status` (`cancelled` or `sale`), every part rewritten before the old column goes, so
 * stored orders keep their meaning; new columns start empty.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { migrateAnalytics } from '../../src/store/analytics-schema.ts';
import { migrateAnalyticsBefore, openTestClickhouse } from '../helper.ts';
import type { Clickhouse } from '../../src/store/clickhouse.ts';

let store: Awaited<ReturnType<typeof openTestClickhouse>>;
let ch: Clickhouse;

before(async () => {
  store = await openTestClickhouse();
  ch = store.ch;
  await migrateAnalyticsBefore(ch, 12);
  const order = (id: string, cancelled: number, version: number) =>
    JSON.stringify({ store_id: 1, transaction_id: id, dt: '2026-05-04 10:00:00', currency: 'USD', gross_revenue: 1000, cancelled, version });
  // Two inserts: two parts, each rewritten by the migration.
  await ch.insertNdjson('orders', [order('1', 0, 1), order('2', 1, 1)].join('\n'));
  await ch.insertNdjson('orders', [order('3', 1, 1), order('2', 0, 2)].join('\n'));
});

after(() => store.close());

test('stored orders keep their meaning: cancelled ones are `cancelled`, the others sales, in every version', async () => {
  await migrateAnalytics(ch);
  const rows = await ch.query('test-migrated-orders', `
    SELECT transaction_id, status, sale, platform_status, coupon_code, city, country_code, line_items
    FROM orders FINAL WHERE store_id = 1 ORDER BY transaction_id`);
  const empty = { platform_status: '', coupon_code: '', city: '', country_code: '', line_items: [] };
  assert.deepEqual(rows, [
    { transaction_id: '1', status: 'sale', sale: 1, ...empty },
    // Cancelled, then live again in a newer version.
    { transaction_id: '2', status: 'sale', sale: 1, ...empty },
    { transaction_id: '3', status: 'cancelled', sale: 0, ...empty },
  ]);
  const parts = await ch.query('test-order-parts', `SELECT transaction_id, status FROM orders WHERE store_id = 1 ORDER BY transaction_id, version`);
  assert.deepEqual(parts, [
    { transaction_id: '1', status: 'sale' }, { transaction_id: '2', status: 'cancelled' }, { transaction_id: '2', status: 'sale' }, { transaction_id: '3', status: 'cancelled' },
  ]);
  const columns = await ch.query<{ name: string }>('test-order-columns', "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'orders' AND name = 'cancelled'");
  assert.deepEqual(columns, []);
});
