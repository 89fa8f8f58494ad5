/**
 * WooCommerce orders straight from WooCommerce's webhooks. Fixture: workspace "Woo shop" (EUR)
 * connected with `integration set` to https://shop.example; products with unit costs for
 * variation 57 (8.00) and product 22 (5.00). A visitor from a Facebook ad buys orders 727 (pixel
 * transaction id = the order id) and 728 (WooCommerce number `WC-728`, as a sequential-number
 * plugin writes it); order 729 has no pixel conversion and is `unattributed`; order 731 is
 * deleted and restored. Deliveries are signed and posted the way WooCommerce does.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { DESKTOP_UA, eventually, todayRange } from './helpers.ts';
import { cli, sign, withBytesFFFE, wooOrder, type WooOrderInput } from './shop-fixtures.ts';

const SECRET = 'wc-secret-9f8e7d6c5b4a';
const NOW = Math.floor(Date.now() / 1000) * 1000;
const ORDER_727: WooOrderInput = {
  id: 727, createdMs: NOW - 3_600_000, currency: 'EUR', total: '54.00', totalTax: '4.00', shipping: '10.00', discount: '5.00',
  customerId: 12, lines: [{ product_id: 22, variation_id: 57, quantity: 2, subtotal: '40.00', sku: 'LS-M', name: 'Linen Shirt - M' }],
  coupons: ['SUMMER5'], shippingCity: 'Lyon',
};
const ORDER_728: WooOrderInput = {
  id: 728, number: 'WC-728', createdMs: NOW - 3_000_000, currency: 'EUR', total: '30.00', totalTax: '2.00', shipping: '0.00', discount: '0.00',
  customerId: 12, lines: [{ product_id: 22, variation_id: 0, quantity: 3, subtotal: '28.00', name: 'Linen Cap' }], billingCity: 'Bordeaux',
};
const ORDER_729: WooOrderInput = {
  id: 729, createdMs: NOW - 2_400_000, currency: 'EUR', total: '20.00', totalTax: '1.00', shipping: '0.00', discount: '0.00',
  lines: [{ product_id: 99, variation_id: 0, quantity: 1 }],
};

let t: TestApp;
let shop: TestWorkspace;
let delivery = 0;

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores, 'Woo shop', 'EUR');
  await insertRows(t.stores, 'products', [
    { store_id: shop.id, product_handle: 'linen-shirt', variant_id: '57', title: 'Linen Shirt - M', cost: 800, version: 1 },
    { store_id: shop.id, product_handle: 'linen-cap', variant_id: '22', title: 'Linen Cap', cost: 500, version: 1 },
  ]);
});

after(() => t.close());

async function post(topic: string, payload: unknown, options: { source?: string; signature?: string | null; id?: string } = {}) {
  const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'WooCommerce/9.4.2 Hookshot (WordPress/6.7.1)',
    'x-wc-webhook-source': options.source ?? 'https://shop.example/',
    'x-wc-webhook-topic': topic,
    'x-wc-webhook-resource': topic.split('.')[0]!,
    'x-wc-webhook-event': topic.split('.')[1] ?? '',
    'x-wc-webhook-id': '7',
    'x-wc-webhook-delivery-id': options.id ?? `3f2c1b0a9e8d7c6b5a4f3e2d1c0b${String(++delivery).padStart(4, '0')}`,
  };
  if (options.signature !== null) headers['x-wc-webhook-signature'] = options.signature ?? sign(SECRET, body);
  const response = await t.app.inject({ method: 'POST', url: '/webhooks/woocommerce', payload: body, headers });
  return { status: response.statusCode, body: response.json() };
}

type Row = {
  transaction_id: string; order_name: string; customer_id: string; gross_revenue: number; tax: number; shipping: number; discount: number;
  refunds: { dt: string; amount: number }[]; cogs: number; status: string; sale: number;
};

const stored = () =>
  t.stores.ch.query<Row>(
    'test-woo-orders',
    `SELECT transaction_id, order_name, customer_id, gross_revenue, tax, shipping, discount, refunds, cogs, status, sale
     FROM orders FINAL WHERE store_id = {store:UInt64} ORDER BY transaction_id`,
    { store: shop.id },
  );
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ') + '.000';

describe('integration set --platform woocommerce', () => {
  test('connects the site and prints the webhook URL and topics, never the secret', async () => {
    const outcome = await cli(t, ['integration', 'set', '--workspace', String(shop.id), '--platform', 'woocommerce', '--site', 'https://Shop.example/', '--secret', SECRET]);
    assert.deepEqual(outcome, {
      result: {
        platform: 'woocommerce',
        workspace_id: shop.id,
        webhook_url: `http://localhost:${t.config.port}/webhooks/woocommerce`,
        site: 'shop.example',
        topics: ['order.created', 'order.updated', 'order.restored', 'order.deleted'],
      },
    });
    assert.ok(!JSON.stringify(outcome).includes(SECRET));
    assert.deepEqual(
      await cli(t, ['integration', 'set', '--workspace', String(shop.id), '--platform', 'woocommerce', '--site', 'ftp://shop.example', '--secret', SECRET]),
      { error: { message: '--site must be the WordPress address of the shop, like https://shop.example' } },
    );
  });
});

describe('POST /webhooks/woocommerce', () => {
  test('answers the creation ping with 200 and stores nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/webhooks/woocommerce',
      payload: 'webhook_id=7',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'WooCommerce/9.4.2 Hookshot (WordPress/6.7.1)' },
    });
    assert.deepEqual([response.statusCode, response.json()], [200, { status: 'ping' }]);
  });

  test('maps order.created to orders: totals, tax, shipping, discount, customer, number and COGS by variation or product', async () => {
    for (const order of [ORDER_727, ORDER_728, ORDER_729]) {
      assert.deepEqual(await post('order.created', wooOrder(order)), { status: 202, body: { status: 'accepted' } });
    }
    const rows = await eventually(stored, (r) => r.length === 3);
    assert.deepEqual(rows, [
      { transaction_id: '727', order_name: '', customer_id: '12', gross_revenue: 5400, tax: 400, shipping: 1000, discount: 500, refunds: [], cogs: 1600, status: 'sale', sale: 1 },
      { transaction_id: '728', order_name: 'WC-728', customer_id: '12', gross_revenue: 3000, tax: 200, shipping: 0, discount: 0, refunds: [], cogs: 1500, status: 'sale', sale: 1 },
      { transaction_id: '729', order_name: '', customer_id: '', gross_revenue: 2000, tax: 100, shipping: 0, discount: 0, refunds: [], cogs: 0, status: 'sale', sale: 1 },
    ]);
    const details = await t.stores.ch.query<Record<string, unknown>>('test-woo-details',
      `SELECT transaction_id, coupon_code, city, country_code, line_items FROM orders FINAL WHERE store_id = {store:UInt64} ORDER BY transaction_id`, { store: shop.id });
    assert.deepEqual(details, [
      {
        transaction_id: '727', coupon_code: 'SUMMER5', city: 'Lyon', country_code: 'US',
        line_items: [{ product_id: '22', variant_id: '57', sku: 'LS-M', title: 'Linen Shirt - M', quantity: 2, unit_price: 2000 }],
      },
      // No shipping address: the billing city. Unit price before coupons: subtotal / quantity, rounded.
      {
        transaction_id: '728', coupon_code: '', city: 'Bordeaux', country_code: 'US',
        line_items: [{ product_id: '22', variant_id: '', sku: '', title: 'Linen Cap', quantity: 3, unit_price: 933 }],
      },
      {
        transaction_id: '729', coupon_code: '', city: 'San Francisco', country_code: 'US',
        line_items: [{ product_id: '99', variant_id: '', sku: '', title: 'Linen Shirt', quantity: 1, unit_price: 2000 }],
      },
    ]);
  });

  test('stores every WooCommerce status as a sale or as the reason it is none', async () => {
    // Two days back, outside the report's range below (the report's own rules are not part of this test).
    const earlier = NOW - 2 * 86_400_000;
    const statuses = ['pending', 'on-hold', 'processing', 'completed', 'refunded', 'failed', 'cancelled', 'trash', 'checkout-draft', 'wc-custom'];
    for (const [i, status] of statuses.entries()) {
      assert.equal((await post('order.created', wooOrder({ ...ORDER_729, id: 900 + i, createdMs: earlier, status }))).status, 202);
    }
    const read = () => t.stores.ch.query<{ transaction_id: string; status: string; sale: number; platform_status: string }>('test-woo-statuses',
      `SELECT transaction_id, status, sale, platform_status FROM orders FINAL WHERE store_id = {store:UInt64} AND transaction_id LIKE '9%' ORDER BY transaction_id`,
      { store: shop.id });
    const rows = await eventually(read, (r) => r.length === statuses.length);
    assert.deepEqual(rows.map((r) => [r.platform_status, r.status, r.sale]), [
      ['pending', 'pending', 0], ['on-hold', 'sale', 1], ['processing', 'sale', 1], ['completed', 'sale', 1], ['refunded', 'sale', 1],
      ['failed', 'cancelled', 0], ['cancelled', 'cancelled', 0], ['trash', 'cancelled', 0], ['checkout-draft', 'pending', 0], ['wc-custom', 'sale', 1],
    ]);
    // Paid at last: the pending order becomes a sale with its newer modification date.
    assert.equal((await post('order.updated', wooOrder({ ...ORDER_729, id: 900, createdMs: earlier, modifiedMs: earlier + 60_000, status: 'processing' }))).status, 202);
    assert.deepEqual((await eventually(read, (r) => r[0]?.status === 'sale'))[0], { transaction_id: '900', status: 'sale', sale: 1, platform_status: 'processing' });
  });

  test('dates a refund when it first appears in order.updated and keeps that date in later updates', async () => {
    const refundedMs = NOW - 1_200_000;
    const refunded = wooOrder({ ...ORDER_727, modifiedMs: refundedMs, status: 'processing', refunds: [{ id: 730, total: '-12.00' }] });
    assert.equal((await post('order.updated', refunded)).status, 202);
    await eventually(stored, (r) => r[0]?.refunds.length === 1);
    const completed = wooOrder({ ...ORDER_727, modifiedMs: NOW - 600_000, status: 'completed', refunds: [{ id: 730, total: '-12.00' }] });
    assert.equal((await post('order.updated', completed)).status, 202);
    const stale = wooOrder({ ...ORDER_727, modifiedMs: NOW - 3_000_000, total: '1.00' });
    assert.equal((await post('order.updated', stale)).status, 202);
    const rows = await eventually(stored, (r) => r[0]?.refunds.length === 1);
    assert.deepEqual(rows[0]!.refunds, [{ dt: utc(refundedMs), amount: 1200 }]);
    assert.equal(rows[0]!.gross_revenue, 5400);
  });

  test('marks a deleted order cancelled and a restored one a sale again', async () => {
    const order731: WooOrderInput = { ...ORDER_729, id: 731, total: '15.00' };
    assert.equal((await post('order.created', wooOrder(order731))).status, 202);
    await eventually(stored, (r) => r.length === 4);
    assert.deepEqual(await post('order.deleted', { id: 731 }), { status: 202, body: { status: 'accepted' } });
    assert.deepEqual((await eventually(stored, (r) => r[3]?.status === 'cancelled')).map((r) => [r.transaction_id, r.sale]).at(3), ['731', 0]);
    assert.deepEqual(await post('order.deleted', { id: 9999 }), { status: 200, body: { status: 'ignored', reason: 'order not stored' } });
    // Restored from the trash: WooCommerce sends the whole order, changed after the deletion.
    const restored = wooOrder({ ...order731, modifiedMs: Date.now() + 1000, status: 'processing' });
    assert.equal((await post('order.restored', restored)).status, 202);
    const rows = await eventually(stored, (r) => r[3]?.status === 'sale');
    assert.deepEqual([rows[3]!.transaction_id, rows[3]!.sale, rows[3]!.gross_revenue], ['731', 1, 1500]);
  });

  test('a replayed delivery changes nothing; two deliveries sharing an id (same second) are both taken', async () => {
    const body = wooOrder({ ...ORDER_729, modifiedMs: NOW - 60_000, total: '21.00' });
    assert.equal((await post('order.updated', body, { id: 'same-second' })).status, 202);
    assert.deepEqual(await post('order.updated', body, { id: 'same-second' }), { status: 200, body: { status: 'duplicate' } });
    const other = wooOrder({ ...ORDER_729, modifiedMs: NOW - 30_000, total: '20.00' });
    assert.equal((await post('order.updated', other, { id: 'same-second' })).status, 202);
    await eventually(stored, (r) => r[2]?.gross_revenue === 2000);
  });

  test('ignores topics it does not use', async () => {
    assert.deepEqual(await post('product.updated', { id: 22, name: 'Linen Cap' }), {
      status: 200, body: { status: 'ignored', reason: 'topic product.updated is not used' },
    });
  });

  test('refuses forged or missing signatures and unknown sites with 401, bad bodies with 400, huge ones with 413, nothing stored', async () => {
    const fresh = wooOrder({ ...ORDER_729, id: 800 });
    const refused = { status: 401, body: { message: 'Invalid webhook signature' } };
    assert.deepEqual(await post('order.created', fresh, { signature: null }), refused);
    assert.deepEqual(await post('order.created', fresh, { signature: sign('guess', JSON.stringify(fresh)) }), refused);
    assert.deepEqual(await post('order.created', fresh, { source: 'https://other.example/' }), refused);
    assert.deepEqual(await post('order.created', fresh, { source: 'not a url' }), refused);
    const cases: [unknown, string][] = [
      ['{"id":', 'Invalid JSON'],
      [{ ...fresh, currency: 'USD' }, 'order currency USD does not match the workspace currency EUR'],
      [{ ...fresh, date_created_gmt: '1999-12-31T23:00:00' }, 'date_created_gmt: timestamp out of range (before 2000-01-01 or in the future)'],
      [{ ...fresh, date_modified_gmt: '2099-01-01T00:00:00' }, 'date_modified_gmt: timestamp out of range (before 2000-01-01 or in the future)'],
      [{ ...fresh, total: '12,50' }, 'total: expected a decimal amount'],
    ];
    for (const [payload, message] of cases) assert.deepEqual(await post('order.created', payload), { status: 400, body: { message } }, message);
    const huge = JSON.stringify({ ...fresh, customer_note: 'x'.repeat(1024 * 1024) });
    assert.deepEqual(await post('order.created', huge), { status: 413, body: { message: 'Request body is too large' } });
    const marker = wooOrder({ ...ORDER_729, id: 801, modifiedMs: NOW });
    assert.equal((await post('order.created', marker)).status, 202);
    const rows = await eventually(stored, (r) => r.some((o) => o.transaction_id === '801'));
    assert.ok(!rows.some((o) => o.transaction_id === '800'));
  });

  test('checks the signature over the raw bytes: a signed body with bytes that are not UTF-8 (FF FE) is taken', async () => {
    // Failed: stored, but no sale, so the report below does not count it.
    const order = wooOrder({ ...ORDER_729, id: 877, status: 'failed' });
    assert.deepEqual(await post('order.created', withBytesFFFE(JSON.stringify(order))), { status: 202, body: { status: 'accepted' } });
    await eventually(stored, (r) => r.some((o) => o.transaction_id === '877'));
  });
});

describe('GET /v3/report with WooCommerce orders', () => {
  test('gives profit from orders matched by id or number and an unattributed row for the rest', async () => {
    const collected = await t.app.inject({
      method: 'POST',
      url: '/collect',
      headers: { 'content-type': 'text/plain', 'user-agent': DESKTOP_UA },
      payload: JSON.stringify({
        pixel_id: shop.pixelId, visitor_id: '3200000001', session_id: '7100000001',
        entry_url: 'https://shop.example/?utm_source=facebook&fbclid=IwAR2x', referrer: 'https://l.facebook.com/', timezone: 'Europe/Berlin',
        items: [
          { type: 'event', name: 'pageview', url: 'https://shop.example/', ts: NOW - 3_700_000 },
          { type: 'conversion', name: 'purchase', url: 'https://shop.example/checkout/order-received/727/', ts: NOW - 3_600_000, transaction_id: '727', revenue: 5400, currency: 'EUR' },
          { type: 'conversion', name: 'purchase', url: 'https://shop.example/checkout/order-received/728/', ts: NOW - 3_000_000, transaction_id: 'WC-728', revenue: 3000, currency: 'EUR' },
        ],
      }),
    });
    assert.equal(collected.statusCode, 202, collected.body);
    await updateSettings(t.stores.db, shop.id, { include_unattributed: true, platform_revenue: 'platform' });
    const metrics = 'revenue,conversions,cogs,refunds,gross_profit,net_profit';
    const report = await eventually(
      async () => (await t.app.inject({ method: 'GET', url: `/v3/report?${todayRange()}&breakdown=source&metrics=${metrics}`, headers: shop.headers })).json(),
      (body) => body.totals?.conversions === 5 && body.data?.[0]?.conversions === 2,
    );
    // Unattributed: 729 (20.00), 731 (15.00) and the marker order 801 (20.00).
    assert.deepEqual(report.data.map((r: Record<string, unknown>) => [r.source, r.revenue, r.conversions, r.cogs, r.refunds, r.gross_profit, r.net_profit]), [
      ['meta', 84, 2, 31, 12, 53, 41],
      ['unattributed', 55, 3, 0, 0, 55, 55],
    ]);
  });
});
