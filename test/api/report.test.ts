/**
 * Fixture (workspace "shop", USD, report range 2026-03-01..2026-03-07 unless a test says otherwise):
 * - ads: meta campaign c1 "Spring" / adgroup g1 "Broad" / ad a1 on 03-02, spend 100.00, 1000 impressions,
 *   50 clicks (imported twice: only the newer version counts); google c2 "Search" / g2 / a2 on 03-03,
 *   spend 50.00, 500 impressions, 25 clicks; a meta row on 02-20 outside the range.
 * - visitor 1 (customer alice): s11 03-01 10:00 facebook c1/g1/a1 (pageview, add_to_cart),
 *   s12 03-03 10:00 google c2/g2/a2 (pageview, initiate_checkout); purchase T1 03-03 10:30 in s12,
 *   100.00, new customer.
 * - visitor 2: s21 03-02 09:00 untagged, referrer news.example, landing /blog; purchase T2 03-02 09:10,
 *   50.00, returning, city Berlin, coupon SAVE10.
 * - visitors 3 and 4 share customer bob: s31 02-27 12:00 tiktok (visitor 3, before the range);
 *   s41 03-05 12:00 untagged (visitor 4); purchase T3 03-05 12:05 in s41, 200.00, new customer.
 * - visitor 5: s51 03-04 08:00 influencer (legacy creator), s52 03-06 08:00 instagram c1/g1/a1;
 *   purchase T4 03-06 08:30 in s52, 300.00, new customer.
 * - orders: T1 (gross 100.00, tax 10.00, shipping 5.00, refund 20.00, cogs 40.00, shipping cost 3.00,
 *   payment fee 2.50, returning), T3 (gross 210.00, cogs 80.00, returning, no fee), T9 (no pixel
 *   match, 03-04, 70.00, cogs 10.00, new). expenses: 03-02 rent 50.00; 02-01 (outside) 99.99.
 * - a second workspace with a purchase that must never show up.
 * Hand-computed last_click credit: T1 -> google, T2 -> organic, T3 -> tiktok (through bob's other
 * visitor), T4 -> meta (instagram). Sessions in range: s11, s12, s21, s41, s51, s52.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { runReport } from '../../src/analytics/report/run.ts';
import { visibilityOf } from '../../src/analytics/permissions.ts';

let t: TestApp;
let shop: TestWorkspace;

const RANGE = 'start_date=2026-03-01&end_date=2026-03-07';

function event(session: number, visitor: number, dt: string, name: string, extra: object = {}) {
  return { store_id: 0, dt, name, session_id: session, visitor_id: visitor, pathname: '/', ...extra };
}

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  const other = await createTestWorkspace(t.stores, 'Other');
  const s = shop.id;
  const fb = { adv_source: 'facebook', adv_campaign_id: 'c1', adv_adgroup_id: 'g1', adv_ad_id: 'a1', utm_source: 'fb' };
  const ig = { adv_source: 'instagram', adv_campaign_id: 'c1', adv_adgroup_id: 'g1', adv_ad_id: 'a1', utm_source: 'ig' };
  const gg = { adv_source: 'google', adv_campaign_id: 'c2', adv_adgroup_id: 'g2', adv_ad_id: 'a2', utm_source: 'google' };
  await insertRows(t.stores, 'events', [
    event(11, 1, '2026-03-01 10:00:00', 'pageview', { ...fb, customer_id: 'alice' }),
    event(11, 1, '2026-03-01 10:02:00', 'add_to_cart', fb),
    event(12, 1, '2026-03-03 10:00:00', 'pageview', gg),
    event(12, 1, '2026-03-03 10:10:00', 'initiate_checkout', gg),
    event(21, 2, '2026-03-02 09:00:00', 'pageview', { referrer: 'https://news.example/', pathname: '/blog' }),
    event(31, 3, '2026-02-27 12:00:00', 'pageview', { adv_source: 'tiktok', customer_id: 'bob' }),
    event(41, 4, '2026-03-05 12:00:00', 'pageview', { customer_id: 'bob' }),
    event(51, 5, '2026-03-04 08:00:00', 'pageview', { adv_source: 'influencer', utm_source: 'creator-anna' }),
    event(52, 5, '2026-03-06 08:00:00', 'pageview', ig),
  ].map((e) => ({ ...e, store_id: s })));
  const purchase = { name: 'purchase', transaction_currency: 'USD' };
  await insertRows(t.stores, 'conversions', [
    { ...purchase, store_id: s, dt: '2026-03-03 10:30:00', session_id: 12, visitor_id: 1, customer_id: 'alice', transaction_id: 'T1', is_new_customer: 1, transaction_gross_revenue: 10000 },
    { ...purchase, store_id: s, dt: '2026-03-02 09:10:00', session_id: 21, visitor_id: 2, transaction_id: 'T2', is_new_customer: 0, transaction_gross_revenue: 5000, transaction_city: 'Berlin', coupon_code: 'SAVE10' },
    { ...purchase, store_id: s, dt: '2026-03-05 12:05:00', session_id: 41, visitor_id: 4, customer_id: 'bob', transaction_id: 'T3', is_new_customer: 1, transaction_gross_revenue: 20000 },
    { ...purchase, store_id: s, dt: '2026-03-06 08:30:00', session_id: 52, visitor_id: 5, transaction_id: 'T4', is_new_customer: 1, transaction_gross_revenue: 30000 },
    { ...purchase, store_id: other.id, dt: '2026-03-03 10:30:00', session_id: 99, visitor_id: 99, transaction_id: 'X', transaction_gross_revenue: 99900 },
  ]);
  await insertRows(t.stores, 'orders', [
    { store_id: s, transaction_id: 'T1', dt: '2026-03-03 10:30:00', customer_id: 'alice', is_new_customer: 0, gross_revenue: 10000, tax: 1000, shipping: 500, refunds: [{ dt: '2026-03-04 00:00:00', amount: 2000 }], cogs: 4000, shipping_cost: 300, payment_fee: 250, version: 1 },
    { store_id: s, transaction_id: 'T3', dt: '2026-03-05 12:05:00', customer_id: 'bob', is_new_customer: 0, gross_revenue: 21000, cogs: 8000, version: 1 },
    { store_id: s, transaction_id: 'T9', dt: '2026-03-04 15:00:00', customer_id: 'carol', is_new_customer: 1, gross_revenue: 7000, cogs: 1000, version: 1 },
  ]);
  const ad = { adaccount_id: 'acc', campaign_id: 'c1', campaign_name: 'Spring', adgroup_id: 'g1', adgroup_name: 'Broad', ad_id: 'a1', ad_name: 'Hero' };
  await insertRows(t.stores, 'ads', [
    { ...ad, store_id: s, dt: '2026-03-02', source: 'meta', spend: 99999, impressions: 1, clicks: 1, version: 1 },
    { ...ad, store_id: s, dt: '2026-02-20', source: 'meta', spend: 7777, impressions: 10, clicks: 1, version: 1 },
  ]);
  await insertRows(t.stores, 'ads', [
    { ...ad, store_id: s, dt: '2026-03-02', source: 'meta', spend: 10000, impressions: 1000, clicks: 50, version: 2 },
    { store_id: s, dt: '2026-03-03', source: 'google', adaccount_id: 'g', campaign_id: 'c2', campaign_name: 'Search', adgroup_id: 'g2', adgroup_name: 'Brand', ad_id: 'a2', ad_name: 'Text', spend: 5000, impressions: 500, clicks: 25, version: 1 },
  ]);
  await insertRows(t.stores, 'expenses', [
    { store_id: s, dt: '2026-03-02', name: 'rent', amount: 5000 },
    { store_id: s, dt: '2026-02-01', name: 'old', amount: 9999 },
  ]);
});

after(() => t.close());

const get = async (query: string, headers: Record<string, string> = shop.headers) => {
  const response = await t.app.inject({ method: 'GET', url: `/v3/report?${query}`, headers });
  return { status: response.statusCode, body: response.json() };
};

describe('GET /v3/report', () => {
  test('smoke', async () => {
    const r = await get(`${RANGE}&breakdown=source`);
    console.log(JSON.stringify(r.body, null, 1));
  });
});
