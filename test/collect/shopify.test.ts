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
import { cli, collectGooglePurchase, shopifyOrderJson, shopifyRefund, shopifyRefundJson, sign, type ShopifyOrderInput } from './shop-fixtures.ts';

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
  lines: [{ variant_id: 44870011001, quantity: 2, price: '49.00' }, { variant_id: 44870011002, quantity: 1, price: '20.00' }],
  customerId: '115310627314723954',
};
const ORDER_1002: ShopifyOrderInput = {
  id: '5940139491234',
  name: '#1002',
  createdMs: NOW - 1_800_000,
  total: '70.00',
  tax: '5.00',
  discounts: '0.00',
  shipping: '0.00',
  lines: [{ variant_id: 44870011002, quantity: 1, price: '65.00' }],
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

async function post(topic: string, body: string, options: { shop?: string; signature?: string | null; id?: string } = {}) {
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

type Row = { transaction_id: string; order_name: string; dt: string; customer_id: string; gross_revenue: number; tax: number; shipping: number; discount: number; refunds: { dt: string; amount: number }[]; cogs: number; cancelled: number };

const stored = () =>
  t.stores.ch.query<Row>(
    'test-shopify-orders',
    `SELECT transaction_id, order_name, toString(dt) AS dt, customer_id, gross_revenue, tax, shipping, discount, refunds, cogs, cancelled
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
        tax: 500, shipping: 0, discount: 0, refunds: [], cogs: 900, cancelled: 0,
      },
      {
        transaction_id: '820982911946154508', order_name: '#1001', dt: created(ORDER_1001.createdMs), customer_id: '115310627314723954',
        gross_revenue: 12200, tax: 900, shipping: 500, discount: 1000, refunds: [], cogs: 5100, cancelled: 0,
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

  test('a later update replaces the order, an older one does not, and orders/cancelled marks it cancelled', async () => {
    const refund = shopifyRefund({ id: 509562969, orderId: ORDER_1001.id, createdMs: NOW - 600_000, amount: '25.00', lineSubtotal: '20.00', lineTax: '0.00', shipping: '5.00' });
    const updated = { ...ORDER_1002, updatedMs: NOW - 60_000, tax: '6.00' };
    assert.equal((await post('orders/updated', shopifyOrderJson(updated))).status, 202);
    const stale = { ...ORDER_1002, updatedMs: NOW - 120_000, total: '1.00' };
    assert.equal((await post('orders/updated', shopifyOrderJson(stale))).status, 202);
    const cancelled = { ...ORDER_1001, updatedMs: NOW - 30_000, cancelledMs: NOW - 30_000, refunds: [{ ...refund, order_id: 0 }] };
    assert.equal((await post('orders/cancelled', shopifyOrderJson(cancelled))).status, 202);
    const rows = await eventually(stored, (r) => r[1]?.cancelled === 1 && r[0]?.tax === 600);
    assert.deepEqual(rows.map((r) => [r.order_name, r.gross_revenue, r.tax, r.cancelled, r.refunds.map((f) => f.amount)]), [
      ['#1002', 7000, 600, 0, []],
      ['#1001', 12200, 900, 1, [2500]],
    ]);
    // Leave #1001 uncancelled for the report below.
    assert.equal((await post('orders/updated', shopifyOrderJson({ ...ORDER_1001, updatedMs: NOW - 20_000, refunds: [{ ...refund, order_id: 0 }] }))).status, 202);
    await eventually(stored, (r) => r[1]?.cancelled === 0);
  });

  test('skips test orders and topics it does not use, and answers a replayed delivery without storing again', async () => {
    const testOrder = { ...ORDER_1002, id: '777', name: '#T1', test: true };
    assert.deepEqual(await post('orders/create', shopifyOrderJson(testOrder)), { status: 200, body: { status: 'ignored', reason: 'test order' } });
    assert.deepEqual(await post('products/create', '{"id":632910392,"title":"Linen Shirt"}'), {
      status: 200, body: { status: 'ignored', reason: 'topic products/create is not used' },
    });
    const replay = shopifyOrderJson({ ...ORDER_1002, updatedMs: NOW - 10_000, total: '99.00' });
    assert.equal((await post('orders/updated', replay, { id: 'replayed-1' })).status, 202);
    assert.deepEqual(await post('orders/updated', replay, { id: 'replayed-1' }), { status: 200, body: { status: 'duplicate' } });
    const rows = await eventually(stored, (r) => r[0]?.gross_revenue === 9900);
    assert.deepEqual(rows.map((r) => r.transaction_id), ['5940139491234', '820982911946154508']);
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
    assert.deepEqual((await stored()).map((r) => r.transaction_id), ['5940139491234', '820982911946154508']);
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
