/**
 * Cancelled, voided, test and pending orders are not sales, in every number: the report (metrics,
 * profit, `unattributed` rows, the pixel conversions that name them), the dashboard and every
 * tool that counts conversions or revenue. An order changed back to a live status counts again.
 * Fixture (2026-05-10, UTC; every purchase lands from facebook ad fb1 of campaign c1 in Boston,
 * US, with coupon SAVE, an add to cart and A/B test hero variant A, in a session of its own):
 *   stored orders and the pixel purchases that name them:
 *     S1 sale 100.00 (cogs 40.00), purchase S1 09:00
 *     C1 cancelled 50.00, purchase C1 10:00
 *     V1 voided 30.00, named #1003, purchase #1003 11:00 (matched by the order's name)
 *     X1 test 20.00, purchase X1 12:00
 *     P1 pending 25.00, purchase P1 13:00
 *     R1 cancelled and then restored (a newer version is a sale) 60.00, purchase R1 14:00
 *     K1 a sale first and cancelled later 70.00, purchase K1 15:00
 *   a purchase N1 10.00 at 16:00 that names no stored order (the pixel is all we know)
 *   orders without a purchase: U1 sale 40.00 08:00 (unattributed) and U2 cancelled 45.00 08:30
 *   ads: fb1 on 05-10 spends 20.00; weather in Boston on 05-10
 * So the sales are S1, R1 and N1 through the pixel (170.00) and U1 unattributed (40.00).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { createUser, signIn } from '../dashboard/helpers.ts';
import { toolOk } from '../mcp/rpc.ts';

let t: TestApp;
let shop: TestWorkspace;
const DAY = 'start_date=2026-05-10&end_date=2026-05-10';
const TOOL_DAY = { date_from: '2026-05-10', date_to: '2026-05-10' };

const PURCHASES: [string, string, number][] = [
  ['S1', '09:00', 10_000], ['C1', '10:00', 5_000], ['#1003', '11:00', 3_000], ['X1', '12:00', 2_000],
  ['P1', '13:00', 2_500], ['R1', '14:00', 6_000], ['K1', '15:00', 7_000], ['N1', '16:00', 1_000],
];

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Books');
  await updateSettings(t.stores.db, shop.id, { include_unattributed: true });
  const landing = { adv_source: 'facebook', adv_campaign_id: 'c1', adv_ad_id: 'fb1', country_code: 'US', pathname: '/' };
  await insertRows(t.stores, 'events', PURCHASES.flatMap(([, time], i) => [
    { store_id: shop.id, session_id: 100 + i, visitor_id: 100 + i, dt: `2026-05-10 ${time}:00`, name: 'pageview', ...landing,
      entry_meta_keys: ['ab_test', 'ab_variant'], entry_meta_values: ['hero', 'A'] },
    { store_id: shop.id, session_id: 100 + i, visitor_id: 100 + i, dt: `2026-05-10 ${time}:30`, name: 'add_to_cart', ...landing },
  ]));
  await insertRows(t.stores, 'conversions', PURCHASES.map(([id, time, cents], i) => ({
    store_id: shop.id, dt: `2026-05-10 ${time}:50`, name: 'purchase', session_id: 100 + i, visitor_id: 100 + i,
    customer_id: `buyer-${i}`, transaction_id: id, transaction_gross_revenue: cents, transaction_currency: 'USD',
    transaction_country_code: 'US', transaction_city: 'Boston', coupon_code: 'SAVE',
  })));
  const order = (transaction_id: string, time: string, cents: number, status: string, version = 1, extra: object = {}) => ({
    store_id: shop.id, transaction_id, dt: `2026-05-10 ${time}:00`, gross_revenue: cents, currency: 'USD', status, version,
    customer_id: `order-${transaction_id}`, ...extra,
  });
  await insertRows(t.stores, 'orders', [
    order('S1', '09:00', 10_000, 'sale', 1, { cogs: 4_000 }), order('C1', '10:00', 5_000, 'cancelled'),
    order('V1', '11:00', 3_000, 'voided', 1, { order_name: '#1003' }), order('X1', '12:00', 2_000, 'test'),
    order('P1', '13:00', 2_500, 'pending'), order('R1', '14:00', 6_000, 'cancelled', 1), order('R1', '14:00', 6_000, 'sale', 2),
    order('K1', '15:00', 7_000, 'sale', 1), order('K1', '15:00', 7_000, 'cancelled', 2),
    order('U1', '08:00', 4_000, 'sale'), order('U2', '08:30', 4_500, 'cancelled'),
  ]);
  await insertRows(t.stores, 'ads', [{ store_id: shop.id, dt: '2026-05-10', source: 'meta', ad_id: 'fb1', campaign_id: 'c1', spend: 2_000, impressions: 1000, clicks: 10, version: 1 }]);
  await insertRows(t.stores, 'weather_daily', [{ store_id: shop.id, dt: '2026-05-10', country_code: 'US', city: 'Boston', temperature_c: 20, precipitation_mm: 0, condition: 'clear', version: 1 }]);
});
after(() => t.close());

const get = async (url: string) => {
  const { status, body } = await injectGet(t, url, shop.headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
};
const tool = (name: string, args: object) => toolOk(t.app, shop.headers, name, args);

describe('/v3/report counts sales only', () => {
  test('totals: the pixel purchases of sales, and the sale without a purchase as unattributed', async () => {
    const body = await get(`/v3/report?${DAY}&metrics=conversions,revenue,cogs,gross_profit&breakdown=source`);
    assert.deepEqual(body.data, [
      { source: 'meta', conversions: 3, revenue: 170, cogs: 40, gross_profit: 130 },
      { source: 'unattributed', conversions: 1, revenue: 40, cogs: 0, gross_profit: 40 },
    ]);
    assert.deepEqual(body.totals, { conversions: 4, revenue: 210, cogs: 40, gross_profit: 170 });
  });

  test('with the order\'s revenue (platform_revenue) and every model, including data_driven', async () => {
    await updateSettings(t.stores.db, shop.id, { platform_revenue: 'platform' });
    try {
      for (const model of ['last_click', 'linear', 'any_click', 'markov', 'data_driven']) {
        const { totals } = await get(`/v3/report?${DAY}&metrics=conversions,revenue&attribution_model=${model}`);
        assert.deepEqual(totals, { conversions: 4, revenue: 210 }, model);
      }
    } finally {
      await updateSettings(t.stores.db, shop.id, { platform_revenue: 'pixel' });
    }
  });

  test('an order changed back to a live status counts again, and a restored one cancelled again drops out', async () => {
    const revenue = async () => (await get(`/v3/report?${DAY}&metrics=revenue`)).totals.revenue;
    const c1 = { store_id: shop.id, transaction_id: 'C1', dt: '2026-05-10 10:00:00', gross_revenue: 5_000, currency: 'USD', customer_id: 'order-C1' };
    await insertRows(t.stores, 'orders', [{ ...c1, status: 'sale', version: 2 }]);
    assert.equal(await revenue(), 260);
    await insertRows(t.stores, 'orders', [{ ...c1, status: 'cancelled', version: 3 }]);
    assert.equal(await revenue(), 210);
  });

  test('/v3/conversions still lists every purchase the pixel recorded', async () => {
    const body = await get(`/v3/conversions?${DAY}`);
    assert.deepEqual(body.data.map((c: { transaction_id: string }) => c.transaction_id), PURCHASES.map(([id]) => id));
  });

  test('the dashboard\'s overview counts the same sales', async () => {
    await createUser(t, 'owner@example.com', shop.id);
    const owner = await signIn(t, 'owner@example.com');
    const { body } = await owner.get(`/dashboard/api/overview?workspace=${shop.id}&${DAY}`);
    assert.deepEqual([body.totals.conversions, body.totals.revenue], [4, 210]);
  });
});

describe('every tool that counts conversions or revenue counts sales only', () => {
  test('analytics.query, analytics.profit-summary and attribution.get-data', async () => {
    const query = await tool('analytics.query', { metrics: ['conversions', 'revenue'], filters: TOOL_DAY });
    assert.deepEqual(query.totals, { conversions: 4, revenue: 210 });
    const { profit } = await tool('analytics.profit-summary', { filters: TOOL_DAY });
    assert.deepEqual([profit.totals.conversions, profit.totals.revenue, profit.totals.cogs], [4, 210, 40]);
    const { attribution } = await tool('attribution.get-data', { models: ['last_click'], filters: TOOL_DAY });
    assert.deepEqual([attribution.totals.last_click.conversions, attribution.totals.last_click.revenue], [4, 210]);
  });

  test('the tools over pixel purchases: three sales of 170.00', async () => {
    const { correlations } = await tool('correlations.get-data', TOOL_DAY);
    assert.deepEqual(correlations.channels.map((c: { channel: string; revenue: number }) => [c.channel, c.revenue]), [['meta', 170]]);
    const { hourly } = await tool('hourly.get-data', TOOL_DAY);
    assert.deepEqual(hourly.hours.filter((h: { conversions: number }) => h.conversions).map((h: { hour: number }) => h.hour), [9, 14, 16]);
    const { map } = await tool('map.get-data', { ...TOOL_DAY, level: 'city' });
    assert.deepEqual(map.places, [{ country_code: 'US', city: 'Boston', sessions: 0, conversions: 3, revenue: 170, cr: null }]);
    const { weather } = await tool('weather.get-data', TOOL_DAY);
    assert.deepEqual(weather.days.map((d: { conversions: number; revenue: number }) => [d.conversions, d.revenue]), [[3, 170]]);
    const { geo_candidates } = await tool('geo-testing.get-candidates', { ...TOOL_DAY, min_conversions: 1 });
    assert.deepEqual(geo_candidates.candidates.map((c: { conversions: number; revenue: number }) => [c.conversions, c.revenue]), [[3, 170]]);
    const { journeys } = await tool('journeys.get-data', TOOL_DAY);
    assert.deepEqual(journeys.paths.map((p: { path: string[]; conversions: number; revenue: number }) => [p.path, p.conversions, p.revenue]), [[['meta'], 3, 170]]);
    const { results } = await tool('ab-testing.get-results', { ...TOOL_DAY, test_id: 'hero' });
    assert.deepEqual(results.variants.map((v: { sessions: number; conversions: number; revenue: number }) => [v.sessions, v.conversions, v.revenue]), [[8, 3, 170]]);
    const { assets } = await tool('library.get-assets', TOOL_DAY);
    assert.deepEqual(assets.map((a: { asset_id: string; conversions: number; revenue: number }) => [a.asset_id, a.conversions, a.revenue]), [['fb1', 3, 170]]);
    const { opportunities } = await tool('offers.get-opportunities', TOOL_DAY);
    assert.deepEqual(opportunities.coupons, [{ coupon_code: 'SAVE', conversions: 3, revenue: 170, new_customer_share: 0 }]);
    assert.deepEqual(opportunities.cart_abandonment.map((c: { cart_sessions: number; converted_cart_sessions: number }) => [c.cart_sessions, c.converted_cart_sessions]), [[8, 3]]);
  });

  test('loyalty.get-analytics: the orders that are sales', async () => {
    const { loyalty } = await tool('loyalty.get-analytics', TOOL_DAY);
    assert.deepEqual([loyalty.customers, loyalty.revenue], [3, 200]);
  });
});
