/**
 * Fixture: workspace "Test shop" with a webhook secret, and "Other" whose secret must not sign
 * for it. Order deliveries are signed like a platform would sign them and posted through
 * app.inject; orders are read back from the analytics `orders` table (FINAL: newest version).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { ensureWebhookSecret } from '../../src/store/app/webhooks.ts';
import { signWebhook } from '../../src/collect/order-webhook.ts';
import { OUT_OF_RANGE } from '../../src/collect/fields.ts';
import { eventually } from './helpers.ts';
import { withBytesFFFE } from './shop-fixtures.ts';

let t: TestApp;
let shop: TestWorkspace;
let secret: string;
let otherSecret: string;

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores);
  const other = await createTestWorkspace(t.stores, 'Other');
  secret = await ensureWebhookSecret(t.stores.db, t.stores.secrets, shop.id);
  otherSecret = await ensureWebhookSecret(t.stores.db, t.stores.secrets, other.id);
});

after(() => t.close());

const order = (fields: Record<string, unknown> = {}) => ({
  transaction_id: '1001', dt: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z', customer_id: 'c-77',
  is_new_customer: 1, currency: 'usd', gross_revenue: 4990, tax: 797, shipping: 490, ...fields,
});

async function deliver(
  payload: unknown,
  options: { key?: string; at?: number; workspace?: number | string; signature?: string } = {},
) {
  const text = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
  const at = String(options.at ?? Math.floor(Date.now() / 1000));
  const response = await t.app.inject({
    method: 'POST',
    url: `/webhooks/orders?workspace=${options.workspace ?? shop.id}`,
    payload: text,
    headers: {
      'content-type': 'application/json',
      'x-storelens-timestamp': at,
      'x-storelens-signature': options.signature ?? signWebhook(options.key ?? secret, at, text),
    },
  });
  return { status: response.statusCode, body: response.json() };
}

type StoredOrder = {
  transaction_id: string; gross_revenue: number; refunds: Array<{ dt: string; amount: number }>; status: string; sale: number; currency: string; version: string;
};

/** An order's version: its updated_at in microseconds. */
const version = (iso: string) => String(Date.parse(iso) * 1000);

const storedOrders = () =>
  t.stores.ch.query<StoredOrder>(
    'test-orders',
    `SELECT transaction_id, gross_revenue, refunds, status, sale, currency, toString(version) AS version
     FROM orders FINAL WHERE store_id = {store:UInt64} ORDER BY transaction_id`,
    { store: shop.id },
  );

describe('POST /webhooks/orders', () => {
  test('stores a signed order, then its refund and cancellation as newer versions of the same order', async () => {
    assert.deepEqual(await deliver({ delivery_id: 'd-1', type: 'order.created', order: order() }), { status: 202, body: { status: 'accepted' } });
    const refund = order({ updated_at: '2026-11-21T09:00:00Z', refunds: [{ dt: '2026-11-21 09:00:00', amount: 1500 }] });
    assert.equal((await deliver({ delivery_id: 'd-2', type: 'order.refunded', order: refund })).status, 202);
    const refunded = await eventually(storedOrders, (rows) => rows[0]?.refunds.length === 1);
    assert.deepEqual(refunded, [{
      transaction_id: '1001', gross_revenue: 4990, refunds: [{ dt: '2026-11-21 09:00:00.000', amount: 1500 }], status: 'sale', sale: 1,
      currency: 'USD', version: version('2026-11-21T09:00:00Z'),
    }]);

    const cancel = order({ updated_at: '2026-11-22T08:00:00Z', refunds: [{ dt: '2026-11-21 09:00:00', amount: 1500 }] });
    assert.equal((await deliver({ delivery_id: 'd-3', type: 'order.cancelled', order: cancel })).status, 202);
    // A late delivery of an older state cannot roll the order back.
    assert.equal((await deliver({ delivery_id: 'd-0', type: 'order.updated', order: order({ updated_at: '2026-11-20T09:00:00Z', gross_revenue: 1 }) })).status, 202);
    const cancelled = await eventually(storedOrders, (rows) => rows[0]?.status === 'cancelled');
    assert.deepEqual(cancelled.map((o) => [o.status, o.sale, o.gross_revenue, o.version]), [['cancelled', 0, 4990, version('2026-11-22T08:00:00Z')]]);
  });

  test('accepts a repeated delivery id once and answers the retry with 200 duplicate', async () => {
    const first = { delivery_id: 'd-10', type: 'order.created', order: order({ transaction_id: '2002', updated_at: '2026-11-20T11:00:00Z' }) };
    assert.equal((await deliver(first)).status, 202);
    const retry = { ...first, order: { ...first.order, gross_revenue: 999_999, updated_at: '2026-11-23T00:00:00Z' } };
    assert.deepEqual(await deliver(retry), { status: 200, body: { status: 'duplicate' } });
    const rows = await eventually(storedOrders, (r) => r.some((o) => o.transaction_id === '2002'));
    assert.deepEqual(rows.filter((o) => o.transaction_id === '2002').map((o) => o.gross_revenue), [4990]);
  });

  const refused: Array<[string, () => Promise<{ status: number; body: unknown }>, number, string]> = [
    ['a forged signature', () => deliver({ delivery_id: 'f-1', type: 'order.created', order: order({ transaction_id: '9001' }) }, { key: 'whsec_guess' }), 401, 'Invalid webhook signature'],
    ['another workspace\'s secret', () => deliver({ delivery_id: 'f-2', type: 'order.created', order: order({ transaction_id: '9002' }) }, { key: otherSecret }), 401, 'Invalid webhook signature'],
    ['a missing signature', () => deliver({ delivery_id: 'f-3', type: 'order.created', order: order({ transaction_id: '9003' }) }, { signature: '' }), 401, 'Invalid webhook signature'],
    ['an unknown workspace', () => deliver({ delivery_id: 'f-4', type: 'order.created', order: order({ transaction_id: '9004' }) }, { workspace: 999 }), 401, 'Invalid webhook signature'],
    ['a replay signed an hour ago', () => deliver({ delivery_id: 'f-5', type: 'order.created', order: order({ transaction_id: '9005' }) }, { at: Math.floor(Date.now() / 1000) - 3600 }), 401, 'Webhook timestamp is outside the allowed window'],
    ['malformed JSON', () => deliver('{"delivery_id": '), 400, 'Invalid JSON'],
    ['an unknown type', () => deliver({ delivery_id: 'f-6', type: 'order.shipped', order: order({ transaction_id: '9006' }) }), 400, 'type: expected one of order.created, order.updated, order.refunded, order.cancelled'],
    ['a missing transaction id', () => deliver({ delivery_id: 'f-7', type: 'order.created', order: order({ transaction_id: undefined }) }), 400, 'order.transaction_id: is required'],
    ['a negative refund', () => deliver({ delivery_id: 'f-8', type: 'order.refunded', order: order({ transaction_id: '9008', refunds: [{ dt: '2026-11-21 09:00:00', amount: -5 }] }) }), 400, 'order.refunds: [0]: amount: expected a non-negative integer (number or digit string)'],
    ['another currency than the workspace\'s', () => deliver({ delivery_id: 'f-15', type: 'order.created', order: order({ transaction_id: '9015', currency: 'EUR' }) }), 400, 'order.currency: EUR does not match the workspace currency USD; nothing was stored'],
    ['an unknown status', () => deliver({ delivery_id: 'f-17', type: 'order.updated', order: order({ transaction_id: '9017', status: 'shipped' }) }), 400, 'order.status: expected one of test, cancelled, voided, pending, sale'],
    ['a line item without a quantity', () => deliver({ delivery_id: 'f-18', type: 'order.created', order: order({ transaction_id: '9018', line_items: [{ sku: 'TEE-M', unit_price: 1500 }] }) }), 400, 'order.line_items: [0]: quantity: is required'],
    ['a line item that names no product', () => deliver({ delivery_id: 'f-19', type: 'order.created', order: order({ transaction_id: '9019', line_items: [{ quantity: 1, unit_price: 1500 }] }) }), 400, 'order.line_items: [0]: names no product: give product_id, variant_id, sku or title'],
    ['an updated_at in 1970 once its +05:00 offset is applied', () => deliver({ delivery_id: 'f-10', type: 'order.updated', order: order({ transaction_id: '9010', updated_at: '1970-01-01T00:00:00+05:00' }) }), 400, `order.updated_at: ${OUT_OF_RANGE}`],
    ['an order date in 1969', () => deliver({ delivery_id: 'f-11', type: 'order.created', order: order({ transaction_id: '9011', dt: '1969-12-31T23:00:00Z' }) }), 400, `order.dt: ${OUT_OF_RANGE}`],
    ['a refund in 2300', () => deliver({ delivery_id: 'f-12', type: 'order.refunded', order: order({ transaction_id: '9012', refunds: [{ dt: '2300-01-01 00:00:00', amount: 5 }] }) }), 400, `order.refunds: [0]: dt: ${OUT_OF_RANGE}`],
    ['an updated_at in 2299, which would freeze the order', () => deliver({ delivery_id: 'f-13', type: 'order.updated', order: order({ transaction_id: '1001', updated_at: '2299-12-31T00:00:00Z', gross_revenue: 1 }) }), 400, `order.updated_at: ${OUT_OF_RANGE}`],
    ['an updated_at an hour ahead', () => deliver({ delivery_id: 'f-14', type: 'order.updated', order: order({ transaction_id: '9014', updated_at: new Date(Date.now() + 3_600_000).toISOString() }) }), 400, `order.updated_at: ${OUT_OF_RANGE}`],
    ['refunds larger than the order', () => deliver({ delivery_id: 'f-20', type: 'order.refunded', order: order({ transaction_id: '9020', refunds: [{ dt: '2026-11-21 09:00:00', amount: 3000 }, { dt: '2026-11-21 10:00:00', amount: 2000 }] }) }), 400, 'order.refunds: 5000 in total, more than the order\'s gross_revenue of 4990'],
    ['a body over 256 KB', () => deliver({ delivery_id: 'f-9', type: 'order.created', order: order({ transaction_id: '9009', customer_id: 'x'.repeat(300_000) }) }), 413, 'Request body is too large'],
  ];
  for (const [what, send, status, message] of refused) {
    test(`refuses ${what} with ${status} and stores nothing`, async () => {
      assert.deepEqual(await send(), { status, body: { message } });
    });
  }

  test('takes a refused delivery again under the same delivery id once it is corrected', async () => {
    const fixed = order({ transaction_id: '9013', updated_at: '2026-11-22T12:00:00+05:00' });
    assert.deepEqual(await deliver({ delivery_id: 'f-13', type: 'order.updated', order: fixed }), { status: 202, body: { status: 'accepted' } });
    const rows = await eventually(storedOrders, (r) => r.some((o) => o.transaction_id === '9013'));
    assert.deepEqual(rows.filter((o) => o.transaction_id === '9013').map((o) => o.version), [version('2026-11-22T07:00:00Z')]);
  });

  test('checks the signature over the raw bytes: a signed body with bytes that are not UTF-8 (FF FE) is taken', async () => {
    const body = withBytesFFFE(JSON.stringify({ delivery_id: 'b-1', type: 'order.created', order: order({ transaction_id: '5005' }) }));
    assert.deepEqual(await deliver(body), { status: 202, body: { status: 'accepted' } });
    await eventually(storedOrders, (r) => r.some((o) => o.transaction_id === '5005'));
  });

  test('keeps the coupon, the city and the line items, and a newer version replaces the lines', async () => {
    const lines = [
      { product_id: '71', variant_id: '7101', sku: 'TEE-M', title: 'Tee M', quantity: 2, unit_price: 1500 },
      { product_id: '72', variant_id: '', sku: 'CAP', title: 'Cap', quantity: 1, unit_price: '1990' },
    ];
    const first = order({ transaction_id: '3003', coupon_code: 'SPRING10', city: 'Lyon', country_code: 'fr', line_items: lines });
    assert.equal((await deliver({ delivery_id: 'l-1', type: 'order.created', order: first })).status, 202);
    const read = () => t.stores.ch.query<Record<string, unknown>>('test-order-lines',
      `SELECT coupon_code, city, country_code, line_items, status FROM orders FINAL WHERE store_id = {store:UInt64} AND transaction_id = '3003'`, { store: shop.id });
    assert.deepEqual(await eventually(read, (r) => r.length === 1), [{
      coupon_code: 'SPRING10', city: 'Lyon', country_code: 'FR', status: 'sale',
      line_items: [
        { product_id: '71', variant_id: '7101', sku: 'TEE-M', title: 'Tee M', quantity: 2, unit_price: 1500 },
        { product_id: '72', variant_id: '', sku: 'CAP', title: 'Cap', quantity: 1, unit_price: 1990 },
      ],
    }]);
    const edited = order({ transaction_id: '3003', updated_at: '2026-11-20T12:00:00Z', coupon_code: 'SPRING10', city: 'Lyon', line_items: [lines[0]] });
    assert.equal((await deliver({ delivery_id: 'l-2', type: 'order.updated', order: edited })).status, 202);
    const after = await eventually(read, (r) => (r[0]?.line_items as unknown[]).length === 1);
    assert.deepEqual(after[0]!.line_items, [{ product_id: '71', variant_id: '7101', sku: 'TEE-M', title: 'Tee M', quantity: 2, unit_price: 1500 }]);
  });

  test('an order cancelled and then changed back to a live status counts again; the newest updated_at decides', async () => {
    const placed = order({ transaction_id: '4004', updated_at: '2026-11-20T10:00:00Z' });
    assert.equal((await deliver({ delivery_id: 'u-1', type: 'order.created', order: placed })).status, 202);
    assert.equal((await deliver({ delivery_id: 'u-2', type: 'order.cancelled', order: { ...placed, updated_at: '2026-11-20T11:00:00Z' } })).status, 202);
    const status = async () => (await storedOrders()).find((o) => o.transaction_id === '4004');
    assert.equal((await eventually(status, (o) => o?.status === 'cancelled'))!.sale, 0);
    // The older `cancelled: 1` flag still says the same as `status: cancelled`.
    assert.equal((await deliver({ delivery_id: 'u-3', type: 'order.updated', order: { ...placed, updated_at: '2026-11-20T11:30:00Z', cancelled: 1 } })).status, 202);
    assert.equal((await deliver({ delivery_id: 'u-4', type: 'order.updated', order: { ...placed, updated_at: '2026-11-20T12:00:00Z' } })).status, 202);
    const restored = await eventually(status, (o) => o?.status === 'sale');
    assert.deepEqual([restored!.sale, restored!.version], [1, version('2026-11-20T12:00:00Z')]);
    assert.equal((await deliver({ delivery_id: 'u-5', type: 'order.updated', order: { ...placed, updated_at: '2026-11-20T13:00:00Z', status: 'test' } })).status, 202);
    assert.deepEqual(await eventually(status, (o) => o?.status === 'test').then((o) => [o!.status, o!.sale]), ['test', 0]);
  });

  test('left no order behind from refused deliveries', async () => {
    assert.equal((await deliver({ delivery_id: 'd-last', type: 'order.created', order: order({ transaction_id: '9999' }) })).status, 202);
    const rows = await eventually(storedOrders, (r) => r.some((o) => o.transaction_id === '9999'));
    assert.deepEqual(rows.map((o) => [o.transaction_id, o.version]), [
      ['1001', version('2026-11-22T08:00:00Z')], ['2002', version('2026-11-20T11:00:00Z')], ['3003', version('2026-11-20T12:00:00Z')],
      ['4004', version('2026-11-20T13:00:00Z')], ['5005', version('2026-11-20T10:00:00Z')], ['9013', version('2026-11-22T07:00:00Z')], ['9999', version('2026-11-20T10:00:00Z')],
    ]);
  });
});
