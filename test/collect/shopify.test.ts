/**
 * Shopify orders straight from Shopify's webhooks. Fixture: workspace "Shopify shop" (USD)
 * connected with `integration set` to northwind.myshopify.com; products with unit costs for
 * variants 44870011001 (21.00) and 44870011002 (9.00); a visitor from a Google ad whose purchase
 * the pixel records as `#1001` (the order's name). Order #1001 (id 820982911946154508, beyond
 * 2^53) has no COGS of its own and is refunded 25.00; order #1002 has no pixel conversion and
 * shows up as `unattributed`. Another workspace "Other shop" is connected to another shop.
 * Deliveries are signed and posted the way Shopify does (docs/integrations.md).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { eventually, todayRange } from './helpers.ts';
import { cli, collectGooglePurchase, shopifyOrderJson, shopifyRefund, shopifyRefundJson, sign, withBytesFFFE, type ShopifyOrderInput } from './shop-fixtures.ts';

const SHOP = 'northwind.myshopify.com';
const SECRET = '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';
const NOW = Date.now();
const ORDER_1001: ShopifyOrderInput = {
  id: '820982911946154508',
  name: '#1001',
  createdMs: NOW - 3_600_000,
  total: '122.00',
  tax: '9.00',
  discounts: '10.00',
  shipping: '5.00',
  lines: [
    { variant_id: 44870011001, quantity: 2, price: '49.00', sku: 'LS-M', title: 'Linen Shirt' },
    { variant_id: 44870011002, quantity: 1, price: '20.00', sku: 'LC-1', title: 'Linen Cap' },
  ],
  customerId: '115310627314723954',
  discountCodes: ['WELCOME10'],
  shippingCity: 'Portland',
};
const ORDER_1002: ShopifyOrderInput = {
  id: '5940139491234',
  name: '#1002',
  createdMs: NOW - 1_800_000,
  total: '70.00',
  tax: '5.00',
  discounts: '0.00',
  shipping: '0.00',
  lines: [{ variant_id: 44870011002, quantity: 1, price: '65.00', title: 'Linen Cap' }],
  financialStatus: 'authorized',
  shippingCity: null,
  billingCity: 'Lexington',
};

let t: TestApp;
let shop: TestWorkspace;
let other: TestWorkspace;
let delivery = 0;

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores, 'Shopify shop');
  other = await createTestWorkspace(t.stores, 'Other shop');
  await insertRows(t.stores, 'products', [
    { store_id: shop.id, product_handle: 'linen-shirt', variant_id: '44870011001', title: 'Linen Shirt', cost: 2100, version: 1 },
    { store_id: shop.id, product_handle: 'linen-cap', variant_id: '44870011002', title: 'Linen Cap', cost: 900, version: 1 },
  ]);
});

after(() => t.close());

async function post(topic: string, body: string | Buffer, options: { shop?: string; signature?: string | null; id?: string } = {}) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-shopify-topic': topic,
    'x-shopify-shop-domain': options.shop ?? SHOP,
    'x-shopify-webhook-id': options.id ?? `b54557e4-bdd9-4b37-8a5f-${String(++delivery).padStart(12, '0')}`,
    'x-shopify-api-version': '2025-01',
  };
  if (options.signature !== null) headers['x-shopify-hmac-sha256'] = options.signature ?? sign(SECRET, body);
  const response = await t.app.inject({ method: 'POST', url: '/webhooks/shopify', payload: body, headers });
  return { status: response.statusCode, body: response.json() };
}

type Row = {
  transaction_id: string; order_name: string; dt: string; customer_id: string; gross_revenue: number; tax: number; shipping: number; discount: number;
  refunds: { dt: string; amount: number }[]; cogs: number; status: string; sale: number; platform_status: string;
};

const stored = () =>
  t.stores.ch.query<Row>(
    'test-shopify-orders',
    `SELECT transaction_id, order_name, toString(dt) AS dt, customer_id, gross_revenue, tax, shipping, discount, refunds, cogs, status, sale, platform_status
     FROM orders FINAL WHERE store_id = {store:UInt64} ORDER BY transaction_id`,
    { store: shop.id },
  );

let marker = 0;
/**
 * Waits until everything delivered so far is in the orders table: a marker order for the other
 * shop goes through the same write-ahead log, so once it is visible, earlier writes are too.
 */
async function settle(): Promise<void> {
  const id = String(9_900_000_000 + ++marker);
  const body = shopifyOrderJson({ ...ORDER_1002, id, name: `#M${marker}` });
  await post('orders/create', body, { shop: 'other.myshopify.com', signature: sign('other-secret', body) });
  await eventually(
    () => t.stores.ch.query('test-marker', 'SELECT 1 FROM orders WHERE store_id = {store:UInt64} AND transaction_id = {id:String}', { store: other.id, id }),
    (rows) => rows.length === 1,
  );
}

describe('integration set --platform shopify', () => {
  test('connects the shop and prints the webhook URL, topics and pixel URL, never the secret', async () => {
    const outcome = await cli(t, ['integration', 'set', '--workspace', String(shop.id), '--platform', 'shopify', '--shop', 'Northwind.myshopify.com', '--secret', SECRET]);
    assert.deepEqual(outcome, {
      result: {
        platform: 'shopify',
        workspace_id: shop.id,
        webhook_url: `http://localhost:${t.config.port}/webhooks/shopify`,
        shop: SHOP,
        topics: ['orders/create', 'orders/updated', 'orders/paid', 'orders/cancelled', 'refunds/create'],
        pixel_url: `http://localhost:${t.config.port}/integrations/shopify/pixel.js?pixel_id=${shop.pixelId}`,
      },
    });
    const row = await t.stores.db.selectFrom('shop_integrations').select('secret').executeTakeFirstOrThrow();
    assert.ok(row.secret.startsWith('v1:') && !row.secret.includes(SECRET), 'stored sealed');
    assert.deepEqual(
      await cli(t, ['integration', 'set', '--workspace', String(other.id), '--platform', 'shopify', '--shop', SHOP, '--secret', 'x']),
      { error: { message: `${SHOP} is already connected to workspace ${shop.id}` } },
    );
    assert.deepEqual(
      await cli(t, ['integration', 'set', '--workspace', String(shop.id), '--platform', 'shopify', '--shop', 'northwind.com', '--secret', 'x']),
      { error: { message: "--shop must be the shop's NAME.myshopify.com domain" } },
    );
    const otherShop = await cli(t, ['integration', 'set', '--workspace', String(other.id), '--platform', 'shopify', '--shop', 'other.myshopify.com', '--secret', 'other-secret']);
    assert.ok('result' in otherShop);
  });
});

describe('POST /webhooks/shopify', () => {
  test('maps orders/create to an order: shop money, tax, shipping, discounts, customer, name and COGS from the products table', async () => {
    assert.deepEqual(await post('orders/create', shopifyOrderJson(ORDER_1001)), { status: 202, body: { status: 'accepted' } });
    assert.deepEqual(await post('orders/paid', shopifyOrderJson(ORDER_1002)), { status: 202, body: { status: 'accepted' } });
    const rows = await eventually(stored, (r) => r.length === 2);
    const created = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ') + '.000';
    assert.deepEqual(rows, [
      {
        transaction_id: '5940139491234', order_name: '#1002', dt: created(ORDER_1002.createdMs), customer_id: '', gross_revenue: 7000,
        tax: 500, shipping: 0, discount: 0, refunds: [], cogs: 900, status: 'sale', sale: 1, platform_status: 'authorized',
      },
      {
        transaction_id: '820982911946154508', order_name: '#1001', dt: created(ORDER_1001.createdMs), customer_id: '115310627314723954',
        gross_revenue: 12200, tax: 900, shipping: 500, discount: 1000, refunds: [], cogs: 5100, status: 'sale', sale: 1, platform_status: 'paid',
      },
    ]);
  });

  test('keeps the first discount code, the shipping city (else the billing city) and the line items', async () => {
    const rows = await t.stores.ch.query<Record<string, unknown>>('test-shopify-details',
      `SELECT transaction_id, coupon_code, city, country_code, line_items FROM orders FINAL WHERE store_id = {store:UInt64} ORDER BY transaction_id`, { store: shop.id });
    const line = (variant: string, sku: string, title: string, quantity: number, unitPrice: number) =>
      ({ product_id: '632910392', variant_id: variant, sku, title, quantity, unit_price: unitPrice });
    assert.deepEqual(rows, [
      { transaction_id: '5940139491234', coupon_code: '', city: 'Lexington', country_code: 'US', line_items: [line('44870011002', '', 'Linen Cap', 1, 6500)] },
      {
        transaction_id: '820982911946154508', coupon_code: 'WELCOME10', city: 'Portland', country_code: 'US',
        line_items: [line('44870011001', 'LS-M', 'Linen Shirt', 2, 4900), line('44870011002', 'LC-1', 'Linen Cap', 1, 2000)],
      },
    ]);
  });

  test('adds a refund from refunds/create once, with its date and amount including refunded shipping', async () => {
    const refundMs = NOW - 600_000;
    const refund = shopifyRefund({ id: 509562969, orderId: ORDER_1001.id, createdMs: refundMs, amount: '25.00', lineSubtotal: '20.00', lineTax: '0.00', shipping: '5.00' });
    const body = shopifyRefundJson(refund, ORDER_1001.id);
    assert.deepEqual(await post('refunds/create', body, { id: 'refund-delivery-1' }), { status: 202, body: { status: 'accepted' } });
    const rows = await eventually(stored, (r) => r[1]?.refunds.length === 1);
    assert.deepEqual(rows[1]!.refunds, [{ dt: new Date(Math.floor(refundMs / 1000) * 1000).toISOString().slice(0, 19).replace('T', ' ') + '.000', amount: 2500 }]);

    // The same delivery again, and the same refund in a new delivery: nothing changes.
    assert.deepEqual(await post('refunds/create', body, { id: 'refund-delivery-1' }), { status: 200, body: { status: 'duplicate' } });
    assert.deepEqual(await post('refunds/create', body), { status: 200, body: { status: 'ignored', reason: 'refund already stored' } });
    // A refund whose order was never delivered: Shopify is asked to retry.
    const orphan = shopifyRefundJson(shopifyRefund({ id: 1, orderId: '42', createdMs: refundMs, amount: '1.00', lineSubtotal: '1.00', lineTax: '0.00', shipping: '0.00' }), '42');
    assert.deepEqual(await post('refunds/create', orphan), { status: 409, body: { message: 'order 42 is not stored yet; retry after its orders/create delivery' } });
    await settle();
    assert.equal((await stored())[1]!.refunds.length, 1);
  });

  test('a later update replaces the order, an older one does not, and orders/cancelled makes it no sale until an update un-cancels it', async () => {
    const refund = shopifyRefund({ id: 509562969, orderId: ORDER_1001.id, createdMs: NOW - 600_000, amount: '25.00', lineSubtotal: '20.00', lineTax: '0.00', shipping: '5.00' });
    const updated = { ...ORDER_1002, updatedMs: NOW - 60_000, tax: '6.00' };
    assert.equal((await post('orders/updated', shopifyOrderJson(updated))).status, 202);
    const stale = { ...ORDER_1002, updatedMs: NOW - 120_000, total: '1.00' };
    assert.equal((await post('orders/updated', shopifyOrderJson(stale))).status, 202);
    const cancelled = { ...ORDER_1001, updatedMs: NOW - 30_000, cancelledMs: NOW - 30_000, refunds: [{ ...refund, order_id: 0 }] };
    assert.equal((await post('orders/cancelled', shopifyOrderJson(cancelled))).status, 202);
    const rows = await eventually(stored, (r) => r[1]?.status === 'cancelled' && r[0]?.tax === 600);
    assert.deepEqual(rows.map((r) => [r.order_name, r.gross_revenue, r.tax, r.status, r.sale, r.refunds.map((f) => f.amount)]), [
      ['#1002', 7000, 600, 'sale', 1, []],
      ['#1001', 12200, 900, 'cancelled', 0, [2500]],
    ]);
    // A newer state without cancelled_at (the order live again) counts again; #1001 stays a sale for the report below.
    assert.equal((await post('orders/updated', shopifyOrderJson({ ...ORDER_1001, updatedMs: NOW - 20_000, refunds: [{ ...refund, order_id: 0 }] }))).status, 202);
    const restored = await eventually(stored, (r) => r[1]?.status === 'sale');
    assert.deepEqual([restored[1]!.sale, restored[1]!.refunds.map((f) => f.amount)], [1, [2500]]);
  });

  test('stores test orders and voided payments as no sale, with the reason', async () => {
    // Two days back, outside the report's range below (the report's own rules are not part of this test).
    const earlier = NOW - 2 * 86_400_000;
    const testOrder = { ...ORDER_1002, id: '777', name: '#T1', createdMs: earlier, test: true };
    const voided = { ...ORDER_1002, id: '778', name: '#1003', createdMs: earlier, financialStatus: 'voided' };
    const testCancelled = { ...ORDER_1002, id: '779', name: '#T2', createdMs: earlier, test: true, cancelledMs: earlier + 60_000, updatedMs: earlier + 60_000 };
    const pending = { ...ORDER_1002, id: '780', name: '#1004', createdMs: earlier, financialStatus: 'pending' };
    for (const order of [testOrder, voided, testCancelled, pending]) {
      assert.deepEqual(await post('orders/create', shopifyOrderJson(order)), { status: 202, body: { status: 'accepted' } });
    }
    const rows = await eventually(stored, (r) => r.length === 6);
    assert.deepEqual(rows.filter((r) => r.transaction_id.length === 3).map((r) => [r.order_name, r.status, r.sale, r.platform_status]), [
      ['#T1', 'test', 0, 'authorized'],
      ['#1003', 'voided', 0, 'voided'],
      ['#T2', 'test', 0, 'authorized'],
      ['#1004', 'sale', 1, 'pending'],
    ]);
  });

  test('skips topics it does not use, and answers a replayed delivery without storing again', async () => {
    assert.deepEqual(await post('products/create', '{"id":632910392,"title":"Linen Shirt"}'), {
      status: 200, body: { status: 'ignored', reason: 'topic products/create is not used' },
    });
    const replay = shopifyOrderJson({ ...ORDER_1002, updatedMs: NOW - 10_000, total: '99.00' });
    assert.equal((await post('orders/updated', replay, { id: 'replayed-1' })).status, 202);
    assert.deepEqual(await post('orders/updated', replay, { id: 'replayed-1' }), { status: 200, body: { status: 'duplicate' } });
    const rows = await eventually(stored, (r) => r[0]?.gross_revenue === 9900);
    assert.deepEqual(rows.map((r) => r.transaction_id), ['5940139491234', '777', '778', '779', '780', '820982911946154508']);
    // Restore #1002 for the report.
    assert.equal((await post('orders/updated', shopifyOrderJson({ ...ORDER_1002, updatedMs: NOW - 5_000 }))).status, 202);
    await eventually(stored, (r) => r[0]?.gross_revenue === 7000);
  });
});

describe('POST /webhooks/shopify: bad deliveries store nothing', () => {
  const fresh = { ...ORDER_1002, id: '9100000000001', name: '#9001' };

  test('refuses a missing or forged signature and an unknown shop with 401', async () => {
    const body = shopifyOrderJson(fresh);
    const refused = { status: 401, body: { message: 'Invalid webhook signature' } };
    assert.deepEqual(await post('orders/create', body, { signature: null }), refused);
    assert.deepEqual(await post('orders/create', body, { signature: sign('not-the-secret', body) }), refused);
    assert.deepEqual(await post('orders/create', body, { signature: sign(SECRET, `${body} `) }), refused);
    assert.deepEqual(await post('orders/create', body, { shop: 'unknown.myshopify.com' }), refused);
    assert.deepEqual(await post('orders/create', body, { shop: 'other.myshopify.com' }), refused);
    assert.deepEqual(await post('orders/create', body, { shop: 'not a domain' }), refused);
  });

  test('answers malformed JSON, bad fields, another currency and absurd dates with 400', async () => {
    const cases: [string, string][] = [
      ['{"id": 1,', 'Invalid JSON'],
      [JSON.stringify({ id: 'abc', created_at: '2026-01-01T00:00:00Z', currency: 'USD' }), 'id: expected a numeric id'],
      [shopifyOrderJson({ ...fresh, total: 'ten' }), 'total_price_set.shop_money.amount: expected a decimal amount; total_price: expected a decimal amount'],
      [shopifyOrderJson({ ...fresh, currency: 'EUR' }), 'order currency EUR does not match the workspace currency USD'],
      [shopifyOrderJson({ ...fresh, updatedMs: Date.UTC(2099, 0, 1) }), 'updated_at: timestamp out of range (before 2000-01-01 or in the future)'],
      [shopifyOrderJson({ ...fresh, createdMs: Date.UTC(1999, 11, 31), updatedMs: NOW }), 'processed_at: timestamp out of range (before 2000-01-01 or in the future)'],
    ];
    for (const [body, message] of cases) {
      assert.deepEqual(await post('orders/create', body), { status: 400, body: { message } }, message);
    }
  });

  test('refuses a refund with a negative amount (Shopify documents refund amounts as positive) with 400', async () => {
    const refund = shopifyRefund({ id: 509562970, orderId: ORDER_1001.id, createdMs: NOW - 500_000, amount: '-25.00', lineSubtotal: '20.00', lineTax: '0.00', shipping: '5.00' });
    assert.deepEqual(await post('refunds/create', shopifyRefundJson(refund, ORDER_1001.id)), {
      status: 400, body: { message: 'transactions.0.amount: must not be negative (refund amounts are positive)' },
    });
    const negativeLine = shopifyRefund({ id: 509562971, orderId: ORDER_1001.id, createdMs: NOW - 500_000, amount: '1.00', lineSubtotal: '-20.00', lineTax: '0.00', shipping: '0.00' });
    assert.deepEqual(await post('refunds/create', shopifyRefundJson(negativeLine, ORDER_1001.id)), {
      status: 400, body: { message: 'refund_line_items.0.subtotal_set.shop_money.amount: must not be negative (refund amounts are positive); refund_line_items.0.subtotal: must not be negative (refund amounts are positive)' },
    });
    // The same inside an order's refunds.
    const inOrder = shopifyOrderJson({ ...fresh, refunds: [{ ...refund, order_id: 0 }] });
    assert.deepEqual(await post('orders/updated', inOrder), {
      status: 400, body: { message: 'refunds.0.transactions.0.amount: must not be negative (refund amounts are positive)' },
    });
    await settle();
    assert.deepEqual((await stored()).find((r) => r.transaction_id === ORDER_1001.id)!.refunds.map((f) => f.amount), [2500]);
  });

  test('refuses a delivery without X-Shopify-Webhook-Id with 400', async () => {
    const body = shopifyOrderJson(fresh);
    const response = await t.app.inject({
      method: 'POST',
      url: '/webhooks/shopify',
      payload: body,
      headers: { 'content-type': 'application/json', 'x-shopify-topic': 'orders/create', 'x-shopify-shop-domain': SHOP, 'x-shopify-hmac-sha256': sign(SECRET, body) },
    });
    assert.deepEqual([response.statusCode, response.json()], [400, { message: 'the delivery id header is missing or longer than 200 characters' }]);
  });

  test('refuses a body over 1 MB with 413', async () => {
    const body = JSON.stringify({ id: 1, note: 'x'.repeat(1024 * 1024) });
    assert.deepEqual(await post('orders/create', body), { status: 413, body: { message: 'Request body is too large' } });
  });

  test('none of them stored an order', async () => {
    await settle();
    assert.deepEqual((await stored()).map((r) => r.transaction_id), ['5940139491234', '777', '778', '779', '780', '820982911946154508']);
  });
});

describe('GET /v3/report with Shopify orders', () => {
  test('gives profit from the matched order and an unattributed row for the order the pixel never saw', async () => {
    await collectGooglePurchase(t, shop.pixelId, '#1001', NOW - 3_600_000);
    await updateSettings(t.stores.db, shop.id, { include_unattributed: true, platform_revenue: 'platform' });
    const metrics = 'revenue,conversions,cogs,refunds,gross_profit,net_profit';
    const report = await eventually(
      async () => (await t.app.inject({ method: 'GET', url: `/v3/report?${todayRange()}&breakdown=source&metrics=${metrics}`, headers: shop.headers })).json(),
      (body) => body.totals?.conversions === 2 && body.data?.[0]?.source === 'google',
    );
    assert.deepEqual(report.data.map((r: Record<string, unknown>) => [r.source, r.revenue, r.conversions, r.cogs, r.refunds, r.gross_profit, r.net_profit]), [
      ['google', 122, 1, 51, 25, 71, 46],
      ['unattributed', 70, 1, 9, 0, 61, 61],
    ]);
    assert.deepEqual(report.totals, { revenue: 192, conversions: 2, cogs: 60, refunds: 25, gross_profit: 132, net_profit: 107 });
  });
});

describe('POST /webhooks/shopify: raw bytes and refund bounds', () => {
  const order = { ...ORDER_1002, id: '9100000000077', name: '#9077' };

  test('checks the signature over the raw bytes: a signed body with bytes that are not UTF-8 (FF FE) is taken', async () => {
    assert.deepEqual(await post('orders/create', withBytesFFFE(shopifyOrderJson(order))), { status: 202, body: { status: 'accepted' } });
    await eventually(stored, (rows) => rows.some((r) => r.transaction_id === order.id));
  });

  test('refuses a refund that would give back more than the order took, and keeps the refunds stored', async () => {
    const gross = (await stored()).find((r) => r.transaction_id === order.id)!.gross_revenue;
    const refund = shopifyRefund({ id: 777001, orderId: order.id, createdMs: NOW - 60_000, amount: '9999.00', lineSubtotal: '9999.00', lineTax: '0.00', shipping: '0.00' });
    assert.deepEqual(await post('refunds/create', shopifyRefundJson(refund, order.id)), {
      status: 400,
      body: { message: `refunds: 999900 in total, more than the order's gross_revenue of ${gross}` },
    });
    await settle();
    assert.deepEqual((await stored()).find((r) => r.transaction_id === order.id)!.refunds, []);
  });
});
