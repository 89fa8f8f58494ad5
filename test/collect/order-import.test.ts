/**
 * `import --kind orders` with the fields orders carry beyond their money (status, coupon, city,
 * line items) and with `updated_at`, which makes a row that version of the order: a webhook
 * delivery of a later change still wins over the import, and an import of a newer state wins over
 * an older delivery. Fixture: workspace "Import shop" (USD) with a webhook secret.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { ensureWebhookSecret } from '../../src/store/app/webhooks.ts';
import { signWebhook } from '../../src/collect/order-webhook.ts';
import { eventually } from './helpers.ts';
import { cli } from './shop-fixtures.ts';

let t: TestApp;
let shop: TestWorkspace;
let secret: string;
let deliveries = 0;

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores, 'Import shop');
  secret = await ensureWebhookSecret(t.stores.db, t.stores.secrets, shop.id);
});

after(() => t.close());

function write(name: string, text: string): string {
  const file = path.join(t.config.dataDir, name);
  fs.writeFileSync(file, text);
  return file;
}

const importOrders = (file: string) => cli(t, ['import', '--workspace', String(shop.id), '--kind', 'orders', '--file', file]);

/** Imports a file that must go in whole. */
async function importAll(name: string, text: string): Promise<void> {
  const outcome = await importOrders(write(name, text));
  const result = 'result' in outcome ? (outcome.result as { rows_imported: number; rows_rejected: number }) : null;
  assert.ok(result && result.rows_rejected === 0 && result.rows_imported > 0, JSON.stringify(outcome));
}

async function deliver(order: Record<string, unknown>) {
  const body = JSON.stringify({ delivery_id: `d-${++deliveries}`, type: 'order.updated', order });
  const at = String(Math.floor(Date.now() / 1000));
  const response = await t.app.inject({
    method: 'POST', url: `/webhooks/orders?workspace=${shop.id}`, payload: body,
    headers: { 'content-type': 'application/json', 'x-storelens-timestamp': at, 'x-storelens-signature': signWebhook(secret, at, body) },
  });
  assert.equal(response.statusCode, 202, response.body);
}

const read = (id: string) =>
  t.stores.ch.query<Record<string, unknown>>('test-imported-order',
    `SELECT transaction_id, gross_revenue, status, sale, coupon_code, city, country_code, line_items, toString(version) AS version
     FROM orders FINAL WHERE store_id = {store:UInt64} AND transaction_id = {id:String}`, { store: shop.id, id });

const base = { dt: '2026-11-20 10:00:00', currency: 'USD', gross_revenue: 5000 };
const shirt = { product_id: '8011', variant_id: '44870011001', sku: 'LS-M', title: 'Linen Shirt - M', quantity: 2, unit_price: 2500 };

test('imports status, coupon, city and line items from NDJSON and CSV, and names bad rows by line', async () => {
  const ndjson = [
    { ...base, transaction_id: 'A-1', status: 'voided', coupon_code: 'VIP', city: 'Lyon', country_code: 'fr', line_items: [shirt] },
    { ...base, transaction_id: 'A-2', cancelled: 1 },
    { ...base, transaction_id: 'A-3', status: 'refunded' },
    { ...base, transaction_id: 'A-4', line_items: [{ ...shirt, quantity: -1 }] },
    { ...base, transaction_id: 'A-5', line_items: 'not json' },
  ].map((r) => JSON.stringify(r)).join('\n');
  assert.deepEqual(await importOrders(write('orders.ndjson', ndjson)), {
    result: {
      kind: 'orders', format: 'ndjson', rows_imported: 2, rows_already_imported: 0, rows_rejected: 3,
      errors: [
        { line: 3, message: 'status: expected one of test, cancelled, voided, pending, sale' },
        { line: 4, message: 'line_items: [0]: quantity: expected a non-negative integer (number or digit string)' },
        { line: 5, message: 'line_items: expected an array of {product_id?, variant_id?, sku?, title?, quantity, unit_price} (JSON text in CSV cells)' },
      ],
    },
    exitCode: 2,
  });
  const csv = [
    'transaction_id,dt,currency,gross_revenue,status,coupon_code,city,line_items',
    `A-6,2026-11-20 11:00:00,USD,2500,pending,SPRING,Portland,"${JSON.stringify([{ sku: 'CAP', quantity: '1', unit_price: '2500' }]).replace(/"/g, '""')}"`,
  ].join('\n');
  await importAll('orders.csv', csv);
  const rows = await Promise.all(['A-1', 'A-2', 'A-6'].map(async (id) => (await read(id))[0]));
  const strip = ({ version: _v, ...rest }: Record<string, unknown>) => rest;
  assert.deepEqual(rows.map((r) => strip(r!)), [
    { transaction_id: 'A-1', gross_revenue: 5000, status: 'voided', sale: 0, coupon_code: 'VIP', city: 'Lyon', country_code: 'FR', line_items: [shirt] },
    { transaction_id: 'A-2', gross_revenue: 5000, status: 'cancelled', sale: 0, coupon_code: '', city: '', country_code: '', line_items: [] },
    {
      transaction_id: 'A-6', gross_revenue: 2500, status: 'pending', sale: 0, coupon_code: 'SPRING', city: 'Portland', country_code: '',
      line_items: [{ product_id: '', variant_id: '', sku: 'CAP', title: '', quantity: 1, unit_price: 2500 }],
    },
  ]);
});

test('a row with updated_at is that version of the order: a later webhook wins over it, it wins over an older one', async () => {
  const placed = { ...base, transaction_id: 'B-1', updated_at: '2026-11-20T10:00:00Z' };
  await deliver({ ...placed, updated_at: '2026-11-21T09:00:00Z', gross_revenue: 4000 });
  await eventually(() => read('B-1'), (r) => r.length === 1);
  // An export made before that change: the stored newer state stays.
  await importAll('older.ndjson', JSON.stringify({ ...placed, updated_at: '2026-11-20T12:00:00Z', gross_revenue: 1 }));
  assert.deepEqual((await read('B-1')).map((r) => [r.gross_revenue, r.version]), [[4000, String(Date.parse('2026-11-21T09:00:00Z') * 1000)]]);
  // An export of a newer state (cancelled since) wins, and so does a still later delivery (un-cancelled).
  await importAll('newer.ndjson', JSON.stringify({ ...placed, updated_at: '2026-11-22T09:00:00Z', status: 'cancelled', gross_revenue: 4000 }));
  assert.deepEqual((await read('B-1')).map((r) => [r.status, r.version]), [['cancelled', String(Date.parse('2026-11-22T09:00:00Z') * 1000)]]);
  await deliver({ ...placed, updated_at: '2026-11-23T09:00:00Z', gross_revenue: 4000 });
  assert.deepEqual((await eventually(() => read('B-1'), (r) => r[0]?.status === 'sale')).map((r) => [r.sale, r.version]), [[1, String(Date.parse('2026-11-23T09:00:00Z') * 1000)]]);
  // A row without updated_at is as new as its import: it wins over every delivery so far.
  const before = Date.now() * 1000;
  await importAll('undated.ndjson', JSON.stringify({ ...base, transaction_id: 'B-1', gross_revenue: 4100 }));
  const [undated] = await read('B-1');
  assert.equal(undated!.gross_revenue, 4100);
  assert.ok(Number(undated!.version) >= before && Number(undated!.version) <= Date.now() * 1000, `version ${undated!.version} is the import's time`);
});
