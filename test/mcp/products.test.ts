/**
 * products.get-sales: product sales per product and attributed source, under the report's
 * attribution, sales only. Fixture (2026-05-10, UTC, workspace on linear over 7 days, unattributed
 * orders included; Mug = P1/v1/MUG-1 at 15.00, Tee = P2/v2/TEE-M at 25.00):
 *   buyer 1: facebook (campaign c1) 08:00, google (g1) 09:00; purchase T1 09:30 in the google session.
 *     Stored order T1 (sale) has 2 Mug + 1 Tee; the pixel's event listed 1 Mug only: the order's lines win.
 *   buyer 2: tiktok 10:00; purchase T2 10:30; order T2 cancelled (5 Mug): no sale, counts nowhere.
 *   buyer 3: facebook (campaign c2) 11:00; purchase T3 11:30, no stored order; the pixel lists Mug twice
 *     (1 + 1): 2 units, one order.
 *   order U1 (sale, no purchase) 12:00: 1 Tee, unattributed.
 * Linear gives T1 half to meta, half to google. By hand:
 *   Mug: meta 1 (T1) + 2 (T3) = 3 units, 45.00, orders 0.5 + 1 = 1.5; google 1 unit, 15.00, 0.5 order
 *        -> 4 units, 60.00, 2 orders
 *   Tee: unattributed 1 unit, 25.00, 1 order; google and meta 0.5 unit, 12.50, 0.5 order each
 *        -> 2 units, 50.00, 2 orders
 *   totals: 6 units, 110.00, orders 1 (T1) + 1 (T3) + 1 (U1) = 3.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { callTool, toolOk } from './rpc.ts';
import { createUser, signIn } from '../dashboard/helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
const DAY = { date_from: '2026-05-10', date_to: '2026-05-10' };
const MUG = { product_id: 'P1', variant_id: 'v1', sku: 'MUG-1', title: 'Mug', unit_price: 1_500 };
const TEE = { product_id: 'P2', variant_id: 'v2', sku: 'TEE-M', title: 'Tee', unit_price: 2_500 };
const line = (item: typeof MUG, quantity: number) => ({ ...item, quantity });
const LINEAR = { model: 'linear', window: 7, date_mode: 'conversion', ignore_sources: [], conversion_names: ['*'] };

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  await updateSettings(t.stores.db, shop.id, { attribution_model: 'linear', attribution_window: 7, include_unattributed: true });
  const session = (id: number, visitor: number, time: string, channel: string, campaign: string) => ({
    store_id: shop.id, session_id: id, visitor_id: visitor, dt: `2026-05-10 ${time}:00`, name: 'pageview',
    adv_source: channel, adv_campaign_id: campaign, pathname: '/',
  });
  await insertRows(t.stores, 'events', [
    session(201, 1, '08:00', 'facebook', 'c1'), session(202, 1, '09:00', 'google', 'g1'),
    session(203, 2, '10:00', 'tiktok', 't1'), session(204, 3, '11:00', 'facebook', 'c2'),
  ]);
  const purchase = (id: string, time: string, sessionId: number, visitor: number, cents: number, lines: object[]) => ({
    store_id: shop.id, dt: `2026-05-10 ${time}:00`, name: 'purchase', session_id: sessionId, visitor_id: visitor,
    transaction_id: id, transaction_gross_revenue: cents, transaction_currency: 'USD', line_items: lines,
  });
  await insertRows(t.stores, 'conversions', [
    purchase('T1', '09:30', 202, 1, 5_500, [line(MUG, 1)]),
    purchase('T2', '10:30', 203, 2, 7_500, [line(MUG, 5)]),
    purchase('T3', '11:30', 204, 3, 3_000, [line(MUG, 1), line(MUG, 1)]),
  ]);
  const order = (id: string, time: string, cents: number, status: string, lines: object[]) => ({
    store_id: shop.id, transaction_id: id, dt: `2026-05-10 ${time}:00`, gross_revenue: cents, currency: 'USD', status, version: 1, line_items: lines,
  });
  await insertRows(t.stores, 'orders', [
    order('T1', '09:30', 5_500, 'sale', [line(MUG, 2), line(TEE, 1)]),
    order('T2', '10:30', 7_500, 'cancelled', [line(MUG, 5)]),
    order('U1', '12:00', 2_500, 'sale', [line(TEE, 1)]),
  ]);
});
after(() => t.close());

const sales = (args: object, headers = shop.headers) => toolOk(t.app, headers, 'products.get-sales', { ...DAY, ...args });
const product = (item: typeof MUG) => ({ product_id: item.product_id, variant_id: item.variant_id, sku: item.sku, title: item.title });
const by = (source: string, units: number, revenue: number, orders: number) => ({ source, units, revenue, orders });

test('per product: units, line revenue and orders, split by the source the workspace attribution credits', async () => {
  const result = await sales({});
  assert.deepEqual(result.products, [
    { ...product(MUG), units: 4, revenue: 60, orders: 2, sources: [by('meta', 3, 45, 1.5), by('google', 1, 15, 0.5)] },
    { ...product(TEE), units: 2, revenue: 50, orders: 2, sources: [by('unattributed', 1, 25, 1), by('google', 0.5, 12.5, 0.5), by('meta', 0.5, 12.5, 0.5)] },
  ]);
  assert.deepEqual(result.totals, { units: 6, revenue: 110, orders: 3 });
  assert.deepEqual(result.attribution, LINEAR);
  assert.deepEqual([result.date_from, result.date_to, result.timezone], ['2026-05-10', '2026-05-10', 'UTC']);
  assert.deepEqual(result.pagination, {
    limit: 50, offset: 0, total_rows: 2, has_more: false, start_date: '2026-05-10 00:00:00', end_date: '2026-05-10 23:59:59',
  });
});

test('a source group keeps the buyers credited to its channels; the orders equal the report\'s conversions for it', async () => {
  const result = await sales({ source: ['paid_social'] });
  assert.deepEqual(result.products, [
    { ...product(MUG), units: 3, revenue: 45, orders: 1.5, sources: [by('meta', 3, 45, 1.5)] },
    { ...product(TEE), units: 0.5, revenue: 12.5, orders: 0.5, sources: [by('meta', 0.5, 12.5, 0.5)] },
  ]);
  assert.deepEqual(result.totals, { units: 3.5, revenue: 57.5, orders: 1.5 });
  const { status, body } = await injectGet(t, '/v3/report?start_date=2026-05-10&end_date=2026-05-10&metrics=conversions&source=meta,tiktok,pinterest,snapchat', shop.headers);
  assert.equal(status, 200);
  assert.equal(body.totals.conversions, result.totals.orders);
});

test('campaign keeps the credits of that campaign\'s touches', async () => {
  const result = await sales({ campaign: 'c1' });
  assert.deepEqual(result.products, [
    { ...product(MUG), units: 1, revenue: 15, orders: 0.5, sources: [by('meta', 1, 15, 0.5)] },
    { ...product(TEE), units: 0.5, revenue: 12.5, orders: 0.5, sources: [by('meta', 0.5, 12.5, 0.5)] },
  ]);
});

test('attribution arguments replace the workspace settings, and the result says so', async () => {
  const result = await sales({ attribution_model: 'last_click', limit: 1 });
  assert.deepEqual(result.products, [
    { ...product(MUG), units: 4, revenue: 60, orders: 2, sources: [by('google', 2, 30, 1), by('meta', 2, 30, 1)] },
  ]);
  assert.equal(result.attribution.model, 'last_click');
  assert.deepEqual([result.pagination.total_rows, result.pagination.has_more], [2, true]);
  const next = await sales({ attribution_model: 'last_click', limit: 1, offset: 1 });
  assert.deepEqual(next.products.map((p: any) => [p.title, p.units, p.revenue]), [['Tee', 2, 50]]);
  const past = await sales({ attribution_model: 'last_click', offset: 5 });
  assert.deepEqual([past.products, past.totals], [[], { units: 6, revenue: 110, orders: 3 }]);
});

test('a key sees the credits of its own channels only, and is refused a source it cannot read', async () => {
  const google = await shop.keyHeaders(['read:google']);
  const result = await sales({}, google);
  assert.deepEqual(result.products, [
    { ...product(MUG), units: 1, revenue: 15, orders: 0.5, sources: [by('google', 1, 15, 0.5)] },
    { ...product(TEE), units: 0.5, revenue: 12.5, orders: 0.5, sources: [by('google', 0.5, 12.5, 0.5)] },
  ]);
  const refused = await callTool(t.app, google, 'products.get-sales', { ...DAY, source: ['meta'] });
  assert.equal(refused.result?.isError, true);
  assert.deepEqual(refused.result?.structuredContent.error, { code: 'permission_denied', message: 'You do not have access to the requested sources' });
});

test('the dashboard\'s Products endpoint gives the same products for the same filters, with the settings applied', async () => {
  await createUser(t, 'owner@example.com', shop.id);
  const owner = await signIn(t, 'owner@example.com');
  const { status, body } = await owner.get(`/dashboard/api/products?workspace=${shop.id}&start_date=2026-05-10&end_date=2026-05-10&source=meta`);
  assert.equal(status, 200, JSON.stringify(body));
  const tool = await sales({ source: ['meta'] });
  assert.deepEqual(body.products, tool.products);
  assert.deepEqual(body.products.map((p: any) => [p.title, p.units, p.revenue, p.orders]), [['Mug', 3, 45, 1.5], ['Tee', 0.5, 12.5, 0.5]]);
  assert.deepEqual(body.totals, { units: 3.5, revenue: 57.5, orders: 1.5 });
  assert.deepEqual([body.settings_applied.attribution_model, body.settings_applied.timezone], ['linear', 'UTC']);
});
