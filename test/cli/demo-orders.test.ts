/**
 * The demo store's orders: the generator's Shopify deliveries (every state of an order as its own
 * delivery, mapped like a webhook's), and the store `seedDemo` fills through the orders import
 * writer, read back as a report reads it (the newest version of each order). 30 days of 300
 * sessions a day ending 2026-11-20 23:00 UTC, the default seed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_SEED, seedDemo } from '../../src/cli/demo/seed.ts';
import { DemoGenerator } from '../../src/cli/demo/generate.ts';
import { demoOrderRow } from '../../src/cli/demo/shopify-orders.ts';
import { PLACES, PRODUCTS, skuOf } from '../../src/cli/demo/catalog.ts';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';

let t: TestApp;
let shop: TestWorkspace;

interface OrderRow {
  transaction_id: string;
  status: string;
  platform_status: string;
  coupon_code: string;
  city: string;
  country_code: string;
  line_items: { product_id: string; variant_id: string; sku: string; title: string; quantity: number; unit_price: number }[];
}

const DAY = 86_400_000;
const NOW = new Date('2026-11-20T23:00:00Z');

let orders: OrderRow[];

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Demo');
  await seedDemo(t.stores.ch, { workspaceId: shop.id, days: 30, now: NOW, sessionsPerDay: 300 });
  orders = await t.stores.ch.query<OrderRow>('test-demo-orders', `
    SELECT transaction_id, status, platform_status, coupon_code, city, country_code, line_items
    FROM orders FINAL WHERE store_id = {store:UInt64} ORDER BY transaction_id`, { store: shop.id });
});

after(() => t.close());

const count = (predicate: (o: OrderRow) => boolean) => orders.filter(predicate).length;

test('the shop delivers some orders again when they change: cancelled, and some of those restored a day later', () => {
  const generator = new DemoGenerator(DEMO_SEED, 300);
  const first = Math.floor(NOW.getTime() / DAY) * DAY - 29 * DAY;
  const deliveries = Array.from({ length: 30 }, (_, i) => generator.day(first + i * DAY, i, 30, NOW.getTime())).flatMap((d) => d.orders);
  const states = new Map<string, { status: string; version: number }[]>();
  for (const delivery of deliveries) {
    const row = demoOrderRow(delivery, 1);
    states.set(row.transaction_id, [...(states.get(row.transaction_id) ?? []), { status: String(row.status), version: row.version }]);
  }
  const histories = [...states.values()].filter((s) => s.length > 1);
  for (const history of histories) assert.ok(history.every((s, i) => i === 0 || s.version > history[i - 1]!.version), 'each state is newer');
  const paths = histories.map((h) => h.map((s) => s.status).join(' > '));
  assert.ok(paths.includes('sale > cancelled') && paths.includes('sale > cancelled > sale'), JSON.stringify(paths));
  assert.deepEqual([...new Set(paths)].sort(), ['sale > cancelled', 'sale > cancelled > sale']);
});

test('the store holds the newest state of each order: cancelled, voided, only authorized and test orders beside the paid ones', () => {
  assert.ok(count((o) => o.status === 'cancelled' && o.platform_status === 'voided') >= 1, 'cancelled');
  assert.ok(count((o) => o.status === 'voided' && o.platform_status === 'voided') >= 1, 'voided');
  assert.ok(count((o) => o.status === 'sale' && o.platform_status === 'authorized') >= 1, 'authorized sales');
  assert.ok(count((o) => o.status === 'test') >= 1, 'test orders');
  assert.ok(count((o) => o.status === 'sale') / orders.length > 0.9, 'most orders are sales');
});

test('a share of the orders carries a coupon, every order a city of the demo places', () => {
  const share = count((o) => o.coupon_code !== '') / orders.length;
  assert.ok(share > 0.05 && share < 0.4, `coupon share ${share}`);
  const places = new Map(PLACES.flatMap(([place]) => place.cities.map((city) => [city, place.country] as const)));
  for (const o of orders) assert.equal(places.get(o.city), o.country_code, `${o.transaction_id}: ${o.city}, ${o.country_code}`);
  assert.ok(new Set(orders.map((o) => o.city)).size > 10);
});

test('every order has line items of the demo catalog, and each pixel purchase carries the lines of its order', async () => {
  const catalog = new Map(PRODUCTS.flatMap((p) => p.variants.map((v) => [v, { product_id: p.productId, variant_id: v, sku: skuOf(p, v), title: p.title, quantity: 1, unit_price: p.price }] as const)));
  for (const o of orders) {
    assert.ok(o.line_items.length >= 1, o.transaction_id);
    for (const line of o.line_items) assert.deepEqual(line, catalog.get(line.variant_id), o.transaction_id);
  }
  const purchases = await t.stores.ch.query<{ transaction_id: string; line_items: OrderRow['line_items'] }>('test-demo-purchases',
    `SELECT transaction_id, line_items FROM conversions WHERE store_id = {store:UInt64} AND name = 'purchase'`, { store: shop.id });
  assert.ok(purchases.length > 100);
  const byId = new Map(orders.map((o) => [o.transaction_id, o]));
  for (const p of purchases) assert.deepEqual(p.line_items, byId.get(p.transaction_id)!.line_items, p.transaction_id);
});
