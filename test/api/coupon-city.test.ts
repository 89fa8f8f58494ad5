/**
 * The coupon and city breakdowns carry data: platform orders fall under their first discount code
 * and their shipping (else billing) city, both as `unattributed` rows and through the pixel
 * purchase matched to them when the pixel saw neither; sessions fall under their visitor's city.
 * Fixture (workspace "Books" with unattributed orders on, connected to a Shopify shop; everything
 * on day D, two days ago, between 15:00 and 16:00 UTC; the collector behind a trusted proxy whose
 * `x-visitor-city` header it believes):
 *   Shopify orders (orders/create webhooks):
 *     #1001 50.00, code SPRING, shipped to Louisville: no pixel purchase (unattributed)
 *     #1002 30.00, no code, no shipping address, billed to Lexington: no pixel purchase
 *     #1003 122.00, code FALL, shipped to Denver: bought in session 3, where the pixel saw no city
 *           and no coupon
 *     #1004 80.00, code SPRING, shipped to Louisville: bought in session 2, where the pixel saw
 *           Boston and coupon VIP (the purchase's own values win)
 *   sessions through /collect: 1 Boston (a pageview), 2 Boston (pageview, purchase #1004),
 *   3 no city (pageview, purchase #1003).
 * Workspace "Woo" (unattributed orders on), connected to a WooCommerce site, receives order 501
 * (45.00, coupons AUTUMN then EXTRA, no shipping address, billed to San Francisco) and order 502
 * (20.00, no coupon, shipped to Oakland) through order.created webhooks, no pixel purchase.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { DESKTOP_UA, eventually } from '../collect/helpers.ts';
import { cli, shopifyOrderJson, sign, wooOrder, type ShopifyOrderInput } from '../collect/shop-fixtures.ts';

const SHOP = 'coupon-city.myshopify.com';
const SECRET = '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';
const DAY_START = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 2 * 86_400_000;
const AT = (minute: number) => DAY_START + 15 * 3_600_000 + minute * 60_000;
const DAY = new Date(DAY_START).toISOString().slice(0, 10);
const RANGE = `start_date=${DAY}&end_date=${DAY}`;

const order = (id: string, minute: number, total: string, extra: Partial<ShopifyOrderInput>): ShopifyOrderInput => ({
  id, name: `#${id}`, createdMs: AT(minute), total, tax: '0.00', discounts: '0.00', shipping: '0.00',
  lines: [{ variant_id: 44870011001, quantity: 1, price: total }], ...extra,
});
const ORDERS = [
  order('1001', 1, '50.00', { discountCodes: ['SPRING'], discounts: '5.00', shippingCity: 'Louisville' }),
  order('1002', 2, '30.00', { shippingCity: null, billingCity: 'Lexington' }),
  order('1003', 10, '122.00', { discountCodes: ['FALL'], discounts: '10.00', shippingCity: 'Denver' }),
  order('1004', 20, '80.00', { discountCodes: ['SPRING'], discounts: '5.00', shippingCity: 'Louisville' }),
];

let t: TestApp;
let shop: TestWorkspace;
let woo: TestWorkspace;
const WOO_SITE = 'https://woo.example/';
const WOO_SECRET = 'woo-coupon-city-secret';

async function deliverWoo(order: object, delivery: number): Promise<void> {
  const body = JSON.stringify(order);
  const response = await t.app.inject({
    method: 'POST', url: '/webhooks/woocommerce', payload: body,
    headers: {
      'content-type': 'application/json', 'user-agent': 'WooCommerce/9.4.2 Hookshot (WordPress/6.7.1)', 'x-wc-webhook-source': WOO_SITE,
      'x-wc-webhook-topic': 'order.created', 'x-wc-webhook-resource': 'order', 'x-wc-webhook-event': 'created', 'x-wc-webhook-id': '7',
      'x-wc-webhook-delivery-id': `c0ffee00c0ffee00c0ffee00c0ff${String(delivery).padStart(4, '0')}`, 'x-wc-webhook-signature': sign(WOO_SECRET, body),
    },
  });
  assert.equal(response.statusCode, 202, response.body);
}

async function deliver(input: ShopifyOrderInput): Promise<void> {
  const body = shopifyOrderJson(input);
  const response = await t.app.inject({
    method: 'POST', url: '/webhooks/shopify', payload: body,
    headers: {
      'content-type': 'application/json', 'x-shopify-topic': 'orders/create', 'x-shopify-shop-domain': SHOP,
      'x-shopify-webhook-id': `c0ffee00-0000-4000-8000-00000000${input.id}`, 'x-shopify-api-version': '2025-01',
      'x-shopify-hmac-sha256': sign(SECRET, body),
    },
  });
  assert.equal(response.statusCode, 202, response.body);
}

async function visit(session: number, city: string | null, purchase?: { id: string; cents: number; coupon?: string }): Promise<void> {
  const items: object[] = [{ type: 'event', name: 'pageview', url: 'https://shop.example/', ts: AT(session * 10 - 1) }];
  if (purchase) {
    items.push({
      type: 'conversion', name: 'purchase', url: 'https://shop.example/thanks', ts: AT(session * 10), transaction_id: purchase.id,
      revenue: purchase.cents, currency: 'USD', ...(purchase.coupon ? { coupon_code: purchase.coupon } : {}),
    });
  }
  const response = await t.app.inject({
    method: 'POST', url: '/collect', remoteAddress: '10.0.0.1',
    headers: { 'content-type': 'text/plain', 'user-agent': DESKTOP_UA, 'x-forwarded-for': '203.0.113.9', ...(city ? { 'x-visitor-city': city } : {}) },
    payload: JSON.stringify({ pixel_id: shop.pixelId, visitor_id: String(700 + session), session_id: String(700 + session), entry_url: 'https://shop.example/', items }),
  });
  assert.equal(response.statusCode, 202, response.body);
}

const count = async (table: string) => (await t.stores.ch.query<{ n: number }>(
  'test-coupon-city-count', `SELECT toUInt32(count()) AS n FROM ${table} WHERE store_id = {s:UInt64}`, { s: shop.id }))[0]!.n;

before(async () => {
  t = await startTestApp({ trustProxy: true, cityHeader: 'x-visitor-city', collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores, 'Books');
  await updateSettings(t.stores.db, shop.id, { include_unattributed: true });
  await cli(t, ['integration', 'set', '--workspace', String(shop.id), '--platform', 'shopify', '--shop', SHOP, '--secret', SECRET]);
  for (const input of ORDERS) await deliver(input);
  await visit(1, 'Boston');
  await visit(2, 'Boston', { id: '#1004', cents: 8_000, coupon: 'VIP' });
  await visit(3, null, { id: '#1003', cents: 12_200 });
  await eventually(async () => [await count('orders'), await count('conversions'), await count('events')], (n) => n.join() === '4,2,5');
  woo = await createTestWorkspace(t.stores, 'Woo');
  await updateSettings(t.stores.db, woo.id, { include_unattributed: true });
  await cli(t, ['integration', 'set', '--workspace', String(woo.id), '--platform', 'woocommerce', '--site', WOO_SITE, '--secret', WOO_SECRET]);
  const line = [{ product_id: 93, variation_id: 0, quantity: 1 }];
  await deliverWoo(wooOrder({ id: 501, createdMs: AT(30), total: '45.00', totalTax: '0.00', shipping: '0.00', discount: '5.00', lines: line, coupons: ['AUTUMN', 'EXTRA'], billingCity: 'San Francisco' }), 1);
  await deliverWoo(wooOrder({ id: 502, createdMs: AT(31), total: '20.00', totalTax: '0.00', shipping: '0.00', discount: '0.00', lines: line, shippingCity: 'Oakland' }), 2);
  await eventually(() => t.stores.ch.query<{ n: number }>('test-woo-orders', 'SELECT toUInt32(count()) AS n FROM orders WHERE store_id = {s:UInt64}', { s: woo.id }), (rows) => rows[0]!.n === 2);
});
after(() => t.close());

const report = async (query: string, headers = shop.headers) => {
  const { status, body } = await injectGet(t, `/v3/report?${RANGE}&${query}`, headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
};

describe('breakdown=city and breakdown=coupon_code carry platform orders and sessions', () => {
  test('city: an unattributed order under its shipping city, else its billing city; a purchase without a city under its order\'s; sessions under the visitor\'s', async () => {
    const body = await report('metrics=sessions,conversions,revenue&breakdown=city');
    assert.deepEqual(body.data, [
      { city: 'Denver', sessions: 0, conversions: 1, revenue: 122 },
      { city: 'Boston', sessions: 2, conversions: 1, revenue: 80 },
      { city: 'Louisville', sessions: 0, conversions: 1, revenue: 50 },
      { city: 'Lexington', sessions: 0, conversions: 1, revenue: 30 },
      { city: '', sessions: 1, conversions: 0, revenue: 0 },
    ]);
    assert.deepEqual(body.totals, { sessions: 3, conversions: 4, revenue: 282 });
  });

  test('coupon_code: an order under its first discount code; a purchase with a code of its own keeps it', async () => {
    const body = await report('metrics=conversions,revenue&breakdown=coupon_code');
    assert.deepEqual(body.data, [
      { coupon_code: 'FALL', conversions: 1, revenue: 122 },
      { coupon_code: 'VIP', conversions: 1, revenue: 80 },
      { coupon_code: 'SPRING', conversions: 1, revenue: 50 },
      { coupon_code: '', conversions: 1, revenue: 30 },
    ]);
    assert.deepEqual(body.totals, { conversions: 4, revenue: 282 });
  });

  test('with profit metrics (the order join the settings use) the keys are the same', async () => {
    const body = await report('metrics=revenue,gross_profit&breakdown=coupon_code');
    assert.deepEqual(body.data.map((r: { coupon_code: string; revenue: number }) => [r.coupon_code, r.revenue]),
      [['FALL', 122], ['VIP', 80], ['SPRING', 50], ['', 30]]);
  });

  test('WooCommerce: an order under its first coupon, and its shipping city, else its billing city', async () => {
    const coupons = await report('metrics=conversions,revenue&breakdown=coupon_code', woo.headers);
    assert.deepEqual(coupons.data, [{ coupon_code: 'AUTUMN', conversions: 1, revenue: 45 }, { coupon_code: '', conversions: 1, revenue: 20 }]);
    const cities = await report('metrics=conversions,revenue&breakdown=city', woo.headers);
    assert.deepEqual(cities.data, [{ city: 'San Francisco', conversions: 1, revenue: 45 }, { city: 'Oakland', conversions: 1, revenue: 20 }]);
  });
});
