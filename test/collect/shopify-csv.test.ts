/**
 * Backfill from Shopify's order export (admin > Orders > Export, "CSV for Excel, Numbers, or other
 * spreadsheet programs"): the column set and value formats of that file, one row per line item,
 * order fields on an order's first row. Fixture: workspace "Export shop" (USD); orders #1001
 * (two line items, a discount code, shipped to Portland; its pixel conversion arrives as `#1001`),
 * #1002 (refunded 10.00, no pixel conversion), #1003 (a broken Total) and #1004 (cancelled and
 * voided two days ago, outside the report's range).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { eventually, todayRange } from './helpers.ts';
import { cli, collectGooglePurchase } from './shop-fixtures.ts';

const HEADER = [
  'Name', 'Email', 'Financial Status', 'Paid at', 'Fulfillment Status', 'Fulfilled at', 'Accepts Marketing', 'Currency', 'Subtotal',
  'Shipping', 'Taxes', 'Total', 'Discount Code', 'Discount Amount', 'Shipping Method', 'Created at', 'Lineitem quantity', 'Lineitem name',
  'Lineitem price', 'Lineitem compare at price', 'Lineitem sku', 'Lineitem requires shipping', 'Lineitem taxable',
  'Lineitem fulfillment status', 'Billing Name', 'Billing City', 'Billing Country', 'Shipping Name', 'Shipping City', 'Shipping Country',
  'Notes', 'Note Attributes', 'Cancelled at', 'Payment Method', 'Payment Reference', 'Refunded Amount', 'Vendor', 'Outstanding Balance',
  'Id', 'Tags', 'Risk Level', 'Source', 'Lineitem discount', 'Tax 1 Name', 'Tax 1 Value', 'Phone', 'Receipt Number', 'Duties',
  'Payment ID', 'Payment References',
];

const NOW = Math.floor(Date.now() / 1000) * 1000;
/** The export's `2026-11-23 10:04:20 -0500`. */
const exportTime = (ms: number) => `${new Date(ms - 5 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ')} -0500`;
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ') + '.000';

function order(fields: Record<string, string>, lines: Record<string, string>[]): Record<string, string>[] {
  return lines.map((line, i) => (i === 0 ? { ...fields, ...line } : { Name: fields.Name!, Email: fields.Email!, 'Created at': fields['Created at']!, ...line }));
}

const line = (name: string, quantity: string, price: string, sku = '') => ({
  'Lineitem quantity': quantity, 'Lineitem name': name, 'Lineitem price': price, 'Lineitem sku': sku, 'Lineitem requires shipping': 'true',
  'Lineitem taxable': 'true', 'Lineitem fulfillment status': 'pending', Vendor: 'Northwind', 'Lineitem discount': '0.00',
});

const ROWS = [
  ...order(
    {
      Name: '#1001', Email: 'buyer@example.com', 'Financial Status': 'paid', 'Paid at': exportTime(NOW - 3_500_000), 'Fulfillment Status': 'unfulfilled',
      'Accepts Marketing': 'no', Currency: 'USD', Subtotal: '108.00', Shipping: '5.00', Taxes: '9.00', Total: '122.00', 'Discount Code': 'WELCOME10',
      'Discount Amount': '10.00', 'Shipping Method': 'Standard', 'Created at': exportTime(NOW - 3_600_000), 'Billing Name': 'Ada Buyer',
      'Billing City': 'Austin', 'Billing Country': 'US', 'Shipping Name': 'Ada Buyer', 'Shipping City': 'Portland', 'Shipping Country': 'US',
      'Payment Method': 'Shopify Payments', 'Refunded Amount': '0.00', 'Outstanding Balance': '0.00',
      Id: '5940139491001', 'Risk Level': 'Low', Source: 'web', 'Tax 1 Name': 'TX State Tax 8.25%', 'Tax 1 Value': '9.00', 'Payment ID': 'c2713.1',
      'Payment References': 'c2713.1',
    },
    [line('Linen Shirt - M', '2', '49.00', 'LS-M'), line('Linen Cap', '1', '20.00')],
  ),
  ...order(
    {
      Name: '#1002', Email: 'other@example.com', 'Financial Status': 'partially_refunded', 'Paid at': exportTime(NOW - 1_700_000), Currency: 'USD',
      Subtotal: '65.00', Shipping: '0.00', Taxes: '5.00', Total: '70.00', 'Discount Amount': '0.00', 'Created at': exportTime(NOW - 1_800_000),
      'Refunded Amount': '10.00', Id: '5940139491002', Source: 'web',
    },
    [line('Linen Cap', '1', '65.00')],
  ),
  ...order(
    { Name: '#1003', Currency: 'USD', Total: 'twelve', 'Created at': exportTime(NOW - 900_000), Id: '5940139491003' },
    [line('Linen Cap', '1', '12.00')],
  ),
  ...order(
    {
      Name: '#1004', 'Financial Status': 'voided', Currency: 'USD', Total: '20.00', 'Discount Code': 'VIP, SPRING', 'Created at': exportTime(NOW - 2 * 86_400_000),
      'Cancelled at': exportTime(NOW - 2 * 86_400_000 + 600_000), 'Billing City': 'Denver', 'Billing Country': 'US', Id: '5940139491004',
    },
    [line('Linen Cap', '1', '20.00')],
  ),
];

const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const csv = [HEADER.join(','), ...ROWS.map((row) => HEADER.map((h) => csvCell(row[h] ?? '')).join(','))].join('\n');

let t: TestApp;
let shop: TestWorkspace;
let file: string;

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores, 'Export shop');
  file = path.join(t.config.dataDir, 'orders_export_1.csv');
  fs.writeFileSync(file, `\uFEFF${csv}\n`);
});

after(() => t.close());

const importArgs = (extra: string[] = []) => ['import', '--workspace', String(shop.id), '--kind', 'orders', '--format', 'shopify', '--file', file, ...extra];

test('--strict imports nothing when one order is invalid, and names its first line', async () => {
  assert.deepEqual(await cli(t, importArgs(['--strict'])), {
    result: { kind: 'orders', format: 'shopify', rows_imported: 0, rows_already_imported: 0, rows_rejected: 1, errors: [{ line: 5, message: 'Total: expected a decimal amount' }] },
    exitCode: 2,
  });
  const rows = await t.stores.ch.query('test-csv-none', 'SELECT 1 FROM orders WHERE store_id = {store:UInt64}', { store: shop.id });
  assert.equal(rows.length, 0);
});

test('imports one order per group of rows, with its name, money, refund and timestamps', async () => {
  assert.deepEqual(await cli(t, importArgs()), {
    result: { kind: 'orders', format: 'shopify', rows_imported: 3, rows_rejected: 1, rows_already_imported: 0, errors: [{ line: 5, message: 'Total: expected a decimal amount' }] },
    exitCode: 2,
  });
  const rows = await t.stores.ch.query(
    'test-csv-orders',
    `SELECT transaction_id, order_name, toString(dt) AS dt, currency, gross_revenue, tax, shipping, discount, refunds, status, platform_status,
       coupon_code, city, country_code, line_items, toString(version) AS version
     FROM orders FINAL WHERE store_id = {store:UInt64} ORDER BY transaction_id`,
    { store: shop.id },
  );
  assert.deepEqual(rows, [
    {
      transaction_id: '5940139491001', order_name: '#1001', dt: utc(NOW - 3_600_000), currency: 'USD', gross_revenue: 12200, tax: 900, shipping: 500,
      discount: 1000, refunds: [], status: 'sale', platform_status: 'paid', coupon_code: 'WELCOME10', city: 'Portland', country_code: 'US',
      line_items: [
        { product_id: '', variant_id: '', sku: 'LS-M', title: 'Linen Shirt - M', quantity: 2, unit_price: 4900 },
        { product_id: '', variant_id: '', sku: '', title: 'Linen Cap', quantity: 1, unit_price: 2000 },
      ],
      version: String((NOW - 3_500_000) * 1000),
    },
    {
      transaction_id: '5940139491002', order_name: '#1002', dt: utc(NOW - 1_800_000), currency: 'USD', gross_revenue: 7000, tax: 500, shipping: 0,
      discount: 0, refunds: [{ dt: utc(NOW - 1_800_000), amount: 1000 }], status: 'sale', platform_status: 'partially_refunded', coupon_code: '', city: '',
      country_code: '', line_items: [{ product_id: '', variant_id: '', sku: '', title: 'Linen Cap', quantity: 1, unit_price: 6500 }],
      version: String((NOW - 1_700_000) * 1000),
    },
    {
      transaction_id: '5940139491004', order_name: '#1004', dt: utc(NOW - 2 * 86_400_000), currency: 'USD', gross_revenue: 2000, tax: 0, shipping: 0,
      discount: 0, refunds: [], status: 'cancelled', platform_status: 'voided', coupon_code: 'VIP', city: 'Denver', country_code: 'US',
      line_items: [{ product_id: '', variant_id: '', sku: '', title: 'Linen Cap', quantity: 1, unit_price: 2000 }],
      version: String((NOW - 2 * 86_400_000 + 600_000) * 1000),
    },
  ]);
});

test('the report matches the backfilled orders to the pixel by name and shows the rest as unattributed', async () => {
  await collectGooglePurchase(t, shop.pixelId, '#1001', NOW - 3_600_000);
  await updateSettings(t.stores.db, shop.id, { include_unattributed: true, platform_revenue: 'platform' });
  const report = await eventually(
    async () => (await t.app.inject({ method: 'GET', url: `/v3/report?${todayRange()}&breakdown=source&metrics=revenue,conversions,refunds,gross_profit,net_profit`, headers: shop.headers })).json(),
    (body) => body.totals?.conversions === 2 && body.data?.[0]?.source === 'google',
  );
  assert.deepEqual(report.data.map((r: Record<string, unknown>) => [r.source, r.revenue, r.conversions, r.refunds, r.gross_profit, r.net_profit]), [
    ['google', 122, 1, 0, 122, 122],
    ['unattributed', 70, 1, 10, 70, 60],
  ]);
});

test('a line item row with a broken quantity refuses its order, naming the row', async () => {
  const rows = order(
    { Name: '#1005', Currency: 'USD', Total: '20.00', 'Created at': exportTime(NOW - 600_000), Id: '5940139491005' },
    [line('Linen Cap', '1', '10.00'), line('Canvas Tote', 'two', '5.00')],
  );
  const text = [HEADER.join(','), ...rows.map((row) => HEADER.map((h) => csvCell(row[h] ?? '')).join(','))].join('\n');
  const broken = path.join(t.config.dataDir, 'orders_export_2.csv');
  fs.writeFileSync(broken, `${text}\n`);
  assert.deepEqual(await cli(t, ['import', '--workspace', String(shop.id), '--kind', 'orders', '--format', 'shopify', '--file', broken]), {
    result: { kind: 'orders', format: 'shopify', rows_imported: 0, rows_already_imported: 0, rows_rejected: 1, errors: [{ line: 2, message: 'line 3: Lineitem quantity: expected a whole number' }] },
    exitCode: 2,
  });
});
