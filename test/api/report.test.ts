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
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { runReport } from '../../src/analytics/report/run.ts';
import { METRIC_NAMES } from '../../src/analytics/metrics.ts';
import { visibilityOf } from '../../src/analytics/permissions.ts';
import { bearer, toolOk } from '../mcp/rpc.ts';

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

const get = (query: string, headers: Record<string, string> = shop.headers) => injectGet(t, `/v3/report?${query}`, headers);

type Row = Record<string, string | number | null>;
const pick = (rows: Row[], keys: string[]) => rows.map((r) => keys.map((k) => r[k]));

describe('GET /v3/report: numbers', () => {
  test('without breakdown returns one row equal to the totals, and the pagination extras', async () => {
    const { status, body: { settings_applied: applied, ...body } } = await get(RANGE);
    assert.equal(status, 200);
    assert.deepEqual([applied.timezone, applied.attribution_model, applied.attribution_window], ['UTC', 'last_click', 7]);
    const totals = { spend: 150, revenue: 650, roas: 4.3333, conversions: 4, sessions: 6 };
    assert.deepEqual(body, {
      data: [totals],
      totals,
      pagination: {
        limit: 100, offset: 0, has_more: false, next_offset: null,
        start_date: '2026-03-01 00:00:00', end_date: '2026-03-07 23:59:59',
        total_rows: 1,
        sources: ['meta', 'facebook', 'instagram', 'messenger', 'audience_network', 'threads', 'google', 'tiktok',
          'pinterest', 'snapchat', 'microsoft', 'bing', 'openai', 'outbrain', 'taboola', 'organic', 'whatsapp', 'email',
          'creator', 'influencer'],
        ignored_sources: [],
      },
    });
  });

  test('breakdown=source credits the last click across sessions and across visitors of one customer', async () => {
    const { body } = await get(`${RANGE}&breakdown=source`);
    assert.deepEqual(body.data, [
      { source: 'meta', spend: 100, revenue: 300, roas: 3, conversions: 1, sessions: 2 },
      { source: 'tiktok', spend: 0, revenue: 200, roas: null, conversions: 1, sessions: 0 },
      { source: 'google', spend: 50, revenue: 100, roas: 2, conversions: 1, sessions: 1 },
      { source: 'organic', spend: 0, revenue: 50, roas: null, conversions: 1, sessions: 2 },
      { source: 'creator', spend: 0, revenue: 0, roas: null, conversions: 0, sessions: 1 },
    ]);
    assert.deepEqual(body.totals, { spend: 150, revenue: 650, roas: 4.3333, conversions: 4, sessions: 6 });
    assert.equal(body.pagination.total_rows, 5);
  });

  test('breakdown=campaign matches spend by campaign id and carries source and campaign_name', async () => {
    const metrics = 'spend,revenue,conversions,sessions,impressions,clicks,ctr,cpa,cr,add_to_carts,checkouts,new_customers';
    const { body } = await get(`${RANGE}&breakdown=campaign&metrics=${metrics}`);
    const none = { spend: 0, impressions: 0, clicks: 0, ctr: null };
    assert.deepEqual(body.data, [
      { source: 'meta', campaign: 'c1', campaign_name: 'Spring', spend: 100, revenue: 300, conversions: 1, sessions: 2, impressions: 1000, clicks: 50, ctr: 0.05, cpa: 100, cr: 0.5, add_to_carts: 1, checkouts: 0, new_customers: 1 },
      { source: 'tiktok', campaign: '', campaign_name: '', ...none, revenue: 200, conversions: 1, sessions: 0, cpa: 0, cr: null, add_to_carts: 0, checkouts: 0, new_customers: 1 },
      { source: 'google', campaign: 'c2', campaign_name: 'Search', spend: 50, revenue: 100, conversions: 1, sessions: 1, impressions: 500, clicks: 25, ctr: 0.05, cpa: 50, cr: 1, add_to_carts: 0, checkouts: 1, new_customers: 1 },
      { source: 'organic', campaign: '', campaign_name: '', ...none, revenue: 50, conversions: 1, sessions: 2, cpa: 0, cr: 0.5, add_to_carts: 0, checkouts: 0, new_customers: 0 },
      { source: 'creator', campaign: '', campaign_name: '', ...none, revenue: 0, conversions: 0, sessions: 1, cpa: null, cr: 0, add_to_carts: 0, checkouts: 0, new_customers: 0 },
    ].map((row) => Object.fromEntries(['source', 'campaign', 'campaign_name', ...metrics.split(',')].map((k) => [k, row[k as keyof typeof row]]))));
  });

  test('campaign, adgroup and ad drill down: only credits, sessions and ads rows of that id, totals of the part', async () => {
    const adgroups = await get(`${RANGE}&breakdown=adgroup&source=meta&campaign=c1`);
    assert.deepEqual(adgroups.body.data, [{ source: 'meta', adgroup: 'g1', adgroup_name: 'Broad', spend: 100, revenue: 300, roas: 3, conversions: 1, sessions: 2 }]);
    assert.deepEqual(adgroups.body.totals, { spend: 100, revenue: 300, roas: 3, conversions: 1, sessions: 2 });
    const ads = await get(`${RANGE}&breakdown=ad&campaign=c1&adgroup=g1`);
    assert.deepEqual(pick(ads.body.data, ['source', 'ad', 'ad_name', 'spend', 'revenue']), [['meta', 'a1', 'Hero', 100, 300]]);
    const google = await get(`${RANGE}&breakdown=campaign&campaign=c2&metrics=spend,revenue,net_profit`);
    // 100 - 40 cogs - 2.50 fee - 3 shipping - 50 spend - 20 refunds; the 50.00 rent stays out of a drilled total.
    assert.deepEqual(google.body.totals, { spend: 50, revenue: 100, net_profit: -15.5 });
    const oneAd = await get(`${RANGE}&breakdown=source&ad=a2`);
    assert.deepEqual(oneAd.body.data, [{ source: 'google', spend: 50, revenue: 100, roas: 2, conversions: 1, sessions: 1 }]);
    assert.deepEqual(oneAd.body.totals, { spend: 50, revenue: 100, roas: 2, conversions: 1, sessions: 1 });
    const none = await get(`${RANGE}&breakdown=adgroup&campaign=nope`);
    assert.deepEqual([none.body.data, none.body.totals.revenue], [[], 0]);
  });

  test('every breakdown yields its own members and, under last_click, rows that sum to the total revenue', async () => {
    const members: Record<string, string[]> = {
      source: ['source'], campaign: ['source', 'campaign', 'campaign_name'], adgroup: ['source', 'adgroup', 'adgroup_name'],
      ad: ['source', 'ad', 'ad_name'], utm_source: ['utm_source'], utm_campaign: ['utm_campaign'], utm_medium: ['utm_medium'],
      utm_term: ['utm_term'], utm_content: ['utm_content'], referrer: ['referrer'], landing_page: ['landing_page'],
      city: ['city'], coupon_code: ['coupon_code'],
    };
    const responses = await Promise.all(Object.keys(members).map((b) => get(`${RANGE}&breakdown=${b}&metrics=revenue`)));
    for (const [i, [breakdown, keys]] of Object.entries(members).entries()) {
      const { status, body } = responses[i]!;
      assert.equal(status, 200, breakdown);
      for (const row of body.data) assert.deepEqual(Object.keys(row), [...keys, 'revenue'], breakdown);
      const sum = body.data.reduce((acc: number, r: Row) => acc + Number(r.revenue), 0);
      assert.equal(sum, 650, breakdown);
    }
  });

  test('pixel-side breakdowns carry sessions and conversions with spend 0; sessions without a visitor city fall under an empty city, coupon_code has no sessions', async () => {
    const metrics = 'metrics=spend,revenue,conversions,sessions,cr';
    assert.deepEqual((await get(`${RANGE}&breakdown=referrer&${metrics}`)).body.data, [
      { referrer: '', spend: 0, revenue: 600, conversions: 3, sessions: 5, cr: 0.6 },
      { referrer: 'https://news.example/', spend: 0, revenue: 50, conversions: 1, sessions: 1, cr: 1 },
    ]);
    assert.deepEqual(pick((await get(`${RANGE}&breakdown=landing_page&${metrics}`)).body.data, ['landing_page', 'revenue', 'sessions']), [
      ['/', 600, 5],
      ['/blog', 50, 1],
    ]);
    assert.deepEqual((await get(`${RANGE}&breakdown=city&${metrics}`)).body.data, [
      { city: '', spend: 0, revenue: 600, conversions: 3, sessions: 6, cr: 0.5 },
      { city: 'Berlin', spend: 0, revenue: 50, conversions: 1, sessions: 0, cr: null },
    ]);
    const byCoupon = (await get(`${RANGE}&breakdown=coupon_code&${metrics}`)).body;
    assert.deepEqual(pick(byCoupon.data, ['coupon_code', 'revenue', 'sessions']), [
      ['', 600, null],
      ['SAVE10', 50, null],
    ]);
    assert.deepEqual([byCoupon.totals.revenue, byCoupon.totals.sessions, byCoupon.totals.cr], [650, null, null], 'the totals have no sessions either, not 0');
    assert.deepEqual(pick((await get(`${RANGE}&breakdown=utm_source&${metrics}`)).body.data, ['utm_source', 'revenue', 'conversions', 'sessions']), [
      ['ig', 300, 1, 1],
      ['', 250, 2, 2],
      ['google', 100, 1, 1],
      ['creator-anna', 0, 0, 1],
      ['fb', 0, 0, 1],
    ]);
  });

  test('attribution models: linear splits, first_click credits the opener, any_click credits every platform', async () => {
    const rows = async (model: string) =>
      pick((await get(`${RANGE}&breakdown=source&metrics=conversions,revenue&attribution_model=${model}`)).body.data, ['source', 'conversions', 'revenue']);
    assert.deepEqual(await rows('linear'), [
      ['meta', 1, 200], ['tiktok', 1, 200], ['creator', 0.5, 150], ['google', 0.5, 50], ['organic', 1, 50],
    ]);
    assert.deepEqual(await rows('first_click'), [
      ['creator', 1, 300], ['tiktok', 1, 200], ['meta', 1, 100], ['organic', 1, 50], ['google', 0, 0],
    ]);
    assert.deepEqual(await rows('any_click'), [
      ['meta', 2, 400], ['creator', 1, 300], ['tiktok', 1, 200], ['google', 1, 100], ['organic', 1, 50],
    ]);
    // Paths here have at most two touchpoints and no email touch: u_shaped and total_impact equal linear.
    assert.deepEqual(await rows('u_shaped'), await rows('linear'));
    assert.deepEqual(await rows('total_impact'), await rows('linear'));
    const anyClick = await get(`${RANGE}&metrics=conversions,revenue&attribution_model=any_click`);
    assert.deepEqual(anyClick.body.totals, { conversions: 4, revenue: 650 });
  });

  test('a 1-day window drops the 6-day-old tiktok click, so that purchase is organic', async () => {
    const { body } = await get(`${RANGE}&breakdown=source&metrics=revenue&attribution_window=1`);
    assert.deepEqual(pick(body.data, ['source', 'revenue']), [
      ['meta', 300], ['organic', 250], ['google', 100], ['creator', 0],
    ]);
  });

  test('exclude_source moves credit to the previous eligible touchpoint and lists the channels in ignored_sources', async () => {
    const google = await get(`${RANGE}&breakdown=source&metrics=conversions,revenue&exclude_source=google`);
    assert.deepEqual(pick(google.body.data, ['source', 'conversions', 'revenue']), [
      ['meta', 2, 400], ['tiktok', 1, 200], ['organic', 1, 50], ['creator', 0, 0], ['google', 0, 0],
    ]);
    assert.deepEqual(google.body.pagination.ignored_sources, ['google']);
    const creator = await get(`${RANGE}&breakdown=source&metrics=revenue&attribution_model=first_click&exclude_sources=creator`);
    assert.deepEqual(pick(creator.body.data, ['source', 'revenue']), [
      ['meta', 400], ['tiktok', 200], ['organic', 50], ['creator', 0], ['google', 0],
    ]);
    assert.deepEqual(creator.body.pagination.ignored_sources, ['creator', 'influencer']);
  });

  test('source=creator restricts rows to creator and legacy influencer traffic and lists both channels', async () => {
    const { body } = await get(`${RANGE}&breakdown=source&source=creator&attribution_model=first_click`);
    assert.deepEqual(body.data, [{ source: 'creator', spend: 0, revenue: 300, roas: null, conversions: 1, sessions: 1 }]);
    assert.deepEqual(body.totals, { spend: 0, revenue: 300, roas: null, conversions: 1, sessions: 1 });
    assert.deepEqual(body.pagination.sources, ['creator', 'influencer']);
  });

  test('interval=week buckets by Monday in a date member, ordered chronologically first', async () => {
    const { body } = await get(`${RANGE}&breakdown=source&interval=week&metrics=spend,revenue,conversions,sessions`);
    assert.deepEqual(body.data, [
      { date: '2026-02-23', source: 'meta', spend: 0, revenue: 0, conversions: 0, sessions: 1 },
      { date: '2026-03-02', source: 'meta', spend: 100, revenue: 300, conversions: 1, sessions: 1 },
      { date: '2026-03-02', source: 'tiktok', spend: 0, revenue: 200, conversions: 1, sessions: 0 },
      { date: '2026-03-02', source: 'google', spend: 50, revenue: 100, conversions: 1, sessions: 1 },
      { date: '2026-03-02', source: 'organic', spend: 0, revenue: 50, conversions: 1, sessions: 2 },
      { date: '2026-03-02', source: 'creator', spend: 0, revenue: 0, conversions: 0, sessions: 1 },
    ]);
    const month = await get(`${RANGE}&interval=month&metrics=revenue`);
    assert.deepEqual(month.body.data, [{ date: '2026-03-01', revenue: 650 }]);
  });

  test('attribution_date=click books credit on the click date and drops clicks before the range', async () => {
    const { body } = await get(`${RANGE}&interval=day&attribution_date=click&metrics=spend,revenue,conversions,sessions`);
    assert.deepEqual(body.data, [
      { date: '2026-03-01', spend: 0, revenue: 0, conversions: 0, sessions: 1 },
      { date: '2026-03-02', spend: 100, revenue: 50, conversions: 1, sessions: 1 },
      { date: '2026-03-03', spend: 50, revenue: 100, conversions: 1, sessions: 1 },
      { date: '2026-03-04', spend: 0, revenue: 0, conversions: 0, sessions: 1 },
      { date: '2026-03-05', spend: 0, revenue: 0, conversions: 0, sessions: 1 },
      { date: '2026-03-06', spend: 0, revenue: 300, conversions: 1, sessions: 1 },
    ]);
    assert.deepEqual(body.totals, { spend: 150, revenue: 450, conversions: 3, sessions: 6 });
  });

  test('name filters conversions; an unknown name leaves conversions at 0 and revenue at 0', async () => {
    const { body } = await get(`${RANGE}&metrics=revenue,conversions,cpa&name=lead`);
    assert.deepEqual(body.totals, { revenue: 0, conversions: 0, cpa: null });
    assert.deepEqual((await get(`${RANGE}&metrics=conversions&name=purch*`)).body.totals, { conversions: 4 });
  });

  test('pages over aggregated rows with total_rows, has_more and next_offset', async () => {
    const first = await get(`${RANGE}&breakdown=source&metrics=revenue&limit=2`);
    assert.deepEqual(first.body.data, [{ source: 'meta', revenue: 300 }, { source: 'tiktok', revenue: 200 }]);
    assert.deepEqual(
      [first.body.pagination.has_more, first.body.pagination.next_offset, first.body.pagination.total_rows],
      [true, 2, 5],
    );
    const last = await get(`${RANGE}&breakdown=source&metrics=revenue&limit=2&offset=4`);
    assert.deepEqual(last.body.data, [{ source: 'creator', revenue: 0 }]);
    assert.deepEqual([last.body.pagination.has_more, last.body.pagination.next_offset, last.body.pagination.total_rows], [false, null, 5]);
    const beyond = await get(`${RANGE}&breakdown=source&limit=2&offset=10`);
    assert.deepEqual([beyond.body.data, beyond.body.pagination.total_rows], [[], 5]);
    assert.equal(beyond.body.totals.revenue, 650);
  });

  test('runReport (the analytics.query core) gives the route its exact numbers', async () => {
    const query = { start_date: '2026-03-01', end_date: '2026-03-07', breakdown: 'campaign', attribution_model: 'linear' };
    const direct = await runReport(t.stores, { workspaceId: shop.id, visibility: visibilityOf(['admin:admin']) }, query);
    const { body } = await get(`${RANGE}&breakdown=campaign&attribution_model=linear`);
    assert.deepEqual(direct.rows, body.data);
    assert.deepEqual(direct.totals, body.totals);
    assert.deepEqual(direct.pagination, body.pagination);
    assert.equal(direct.settings_applied.attribution_model, 'linear');
    assert.equal(direct.settings_applied.attribution_window, 7);
  });
});

describe('GET /v3/report: permissions', () => {
  test('a read:meta key sees only meta-family rows, spend and credit', async () => {
    const headers = await shop.keyHeaders(['read:meta']);
    const { status, body } = await get(`${RANGE}&breakdown=source`, headers);
    assert.equal(status, 200);
    const meta = { spend: 100, revenue: 300, roas: 3, conversions: 1, sessions: 2 };
    assert.deepEqual(body.data, [{ source: 'meta', ...meta }]);
    assert.deepEqual(body.totals, meta);
    assert.deepEqual(body.pagination.sources, ['meta', 'facebook', 'instagram', 'messenger', 'audience_network', 'threads']);
    const campaigns = await get(`${RANGE}&breakdown=campaign&metrics=spend`, headers);
    assert.deepEqual(campaigns.body.data, [{ source: 'meta', campaign: 'c1', campaign_name: 'Spring', spend: 100 }]);
  });

  test('answers 403 for a source the key cannot see, in source and in exclude_source alike', async () => {
    const headers = await shop.keyHeaders(['read:meta']);
    const denied = await get(`${RANGE}&source=google`, headers);
    assert.deepEqual(denied, { status: 403, body: { message: 'You do not have access to the requested sources' } });
    // Excluding google would move alice's purchase to her earlier facebook click (the admin sees meta
    // at 400): a meta key that could exclude google would learn that google touched her order.
    const admin = await get(`${RANGE}&breakdown=source&exclude_source=google&source=meta`, shop.headers);
    assert.deepEqual(admin.body.data, [{ source: 'meta', spend: 100, revenue: 400, roas: 4, conversions: 2, sessions: 2 }]);
    assert.deepEqual(await get(`${RANGE}&breakdown=source&exclude_source=google`, headers), {
      status: 403, body: { message: 'You do not have access to the requested sources' },
    });
    assert.deepEqual(await get(`${RANGE}&exclude_source=email,meta`, headers), {
      status: 403, body: { message: 'You do not have access to the requested sources' },
    });
    const own = await get(`${RANGE}&breakdown=source&exclude_source=instagram`, headers);
    assert.equal(own.status, 200);
    assert.deepEqual(own.body.pagination.ignored_sources, ['instagram']);
  });

  test('answers 403 for profit metrics without read:profit', async () => {
    const headers = await shop.keyHeaders(['read:meta']);
    assert.deepEqual(await get(`${RANGE}&metrics=revenue,net_profit`, headers), {
      status: 403,
      body: { message: 'You do not have access to profit metrics' },
    });
    const allowed = await get(`${RANGE}&metrics=revenue,gross_profit`, await shop.keyHeaders(['read:meta', 'read:profit']));
    assert.deepEqual(allowed.body.totals, { revenue: 300, gross_profit: 300 });
  });

  test('answers 403 without any pixel permission', async () => {
    assert.deepEqual(await get(RANGE, await shop.keyHeaders(['read:profit'])), {
      status: 403,
      body: { message: 'You do not have access to pixel data' },
    });
  });
});

const PROFIT = 'revenue,spend,cogs,payment_fees,shipping_costs,refunds,gross_profit,contribution_profit,net_profit,gross_margin,net_margin,net_roas';

describe('GET /v3/report: profit', () => {
  test('computes profit totals from orders and expenses and per-row profit from credit shares', async () => {
    const { body } = await get(`${RANGE}&breakdown=source&metrics=${PROFIT}`);
    assert.deepEqual(body.totals, {
      revenue: 650, spend: 150, cogs: 120, payment_fees: 2.5, shipping_costs: 3, refunds: 20, gross_profit: 530,
      contribution_profit: 374.5, net_profit: 304.5, gross_margin: 0.8154, net_margin: 0.4685, net_roas: 3.4967,
    });
    const google = body.data.find((r: Row) => r.source === 'google');
    assert.deepEqual(google, {
      source: 'google', revenue: 100, spend: 50, cogs: 40, payment_fees: 2.5, shipping_costs: 3, refunds: 20,
      gross_profit: 60, contribution_profit: 4.5, net_profit: -15.5, gross_margin: 0.6, net_margin: -0.155, net_roas: 1.09,
    });
    const creator = body.data.find((r: Row) => r.source === 'creator');
    assert.equal(creator.gross_margin, null);
    assert.equal(creator.net_roas, null);
  });
});

describe('GET /v3/report: each metric on its own', () => {
  // The statement sums only the parts its metrics read; a metric asked alone must not lose one.
  test('a metric asked alone has its value among every metric, per row and in the totals, under each model', async () => {
    for (const model of ['last_click', 'any_click', 'linear', 'data_driven']) {
      const query = `${RANGE}&breakdown=source&attribution_model=${model}&limit=500&metrics=`;
      const all = (await get(`${query}${METRIC_NAMES.join(',')}`)).body;
      assert.ok(all.data.length >= 4, JSON.stringify(all));
      for (const metric of METRIC_NAMES) {
        const alone = (await get(`${query}${metric}`)).body;
        assert.deepEqual(alone.totals, { [metric]: all.totals[metric] }, `${model}: ${metric} in the totals`);
        assert.deepEqual(pick(alone.data, ['source', metric]), pick(all.data, ['source', metric]), `${model}: ${metric} per row`);
      }
    }
  });
});

describe('GET /v3/report: bad input', () => {
  const cases: [string, string, string?][] = [
    ['metrics=spend,profit', 'Invalid metrics: profit. Accepted values: spend, revenue, roas, ctr, cpa, cr, sessions, conversions, impressions, clicks, new_customers, add_to_carts, checkouts, cogs, payment_fees, shipping_costs, refunds, gross_profit, contribution_profit, net_profit, gross_margin, net_margin, net_roas, incremental_conversions, incremental_revenue, iroas'],
    ['breakdown=country', 'Invalid breakdown: country. Accepted values: source, campaign, adgroup, ad, utm_source, utm_campaign, utm_medium, utm_term, utm_content, referrer, landing_page, city, coupon_code'],
    ['interval=hour', 'Invalid interval: hour. Accepted values: day, week, month'],
    ['attribution_model=shapley', 'Invalid attribution_model: shapley. Accepted values: last_click, first_click, linear, u_shaped, total_impact, any_click, markov, data_driven'],
    ['attribution_window=14', 'Invalid attribution_window: 14. Accepted values: 1, 7, 28, 90, 180, 365'],
    ['attribution_window=7.0', 'Invalid attribution_window: 7.0. Accepted values: 1, 7, 28, 90, 180, 365'],
    ['attribution_date=impression', 'Invalid attribution_date: impression. Accepted values: conversion, click'],
    ['source=myspace', 'Unknown source: myspace. Accepted sources: meta, facebook, instagram, google, tiktok, pinterest, snapchat, microsoft, bing, openai, outbrain, taboola, organic, audience_network, messenger, threads, whatsapp, email, creator'],
    ['limit=0', 'limit must be a positive integer'],
    ['offset=-1', 'offset must be a non-negative integer'],
    ['start_date=2026-13-01', 'Invalid start_date or end_date parameter', 'start_date is not a calendar day (got 2026-13-01)'],
    ['start_date=2026-03-09&end_date=2026-03-01', 'start_date must be before end_date'],
  ];
  for (const [query, message, detail] of cases) {
    test(`answers 400 "${message.slice(0, 40)}..." for ${query}`, async () => {
      assert.deepEqual(await get(query), { status: 400, body: detail ? { message, detail } : { message } });
    });
  }

  test('fuzzed parameters answer 200 or 400, never 500', async () => {
    const params = ['metrics', 'breakdown', 'interval', 'attribution_model', 'attribution_window', 'attribution_date',
      'source', 'exclude_source', 'name', 'limit', 'offset', 'start_date', 'end_date'];
    // Control characters and quotes, an oversized value, a negative number, and the parameter given twice.
    const queries = (param: string) => [`${param}=%00%27%3B--`, `${param}=${'x'.repeat(3000)}`, `${param}=-1`, `${param}=a&${param}=b`];
    await Promise.all(
      params.flatMap(queries).map(async (query) => {
        const response = await t.app.inject({ method: 'GET', url: `/v3/report?${query}`, headers: shop.headers });
        assert.ok([200, 400].includes(response.statusCode), `${query.slice(0, 40)} -> ${response.statusCode}`);
        const body = response.json();
        assert.ok(response.statusCode === 200 ? Array.isArray(body.data) : typeof body.message === 'string');
      }),
    );
  });

  test('a window reaching before 1970 and a range up to 2299 still answer 200 with the whole scope', async () => {
    const early = await get('start_date=1970-01-01&end_date=2299-12-31&attribution_window=365&attribution_date=click&metrics=revenue,conversions');
    assert.deepEqual([early.status, early.body.totals], [200, { revenue: 650, conversions: 4 }]);
  });

  test('answers 405 for other methods', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/v3/report', headers: shop.headers });
    assert.deepEqual([response.statusCode, response.json()], [405, { message: 'Method not allowed' }]);
  });
});

describe('GET /v3/report: settings_applied', () => {
  test('echoes the zone, model and window the numbers were computed with, as analytics.query does', async () => {
    const { status, body } = await get(`${RANGE}&timezone=europe/berlin&attribution_model=linear&attribution_window=28&breakdown=source`);
    assert.equal(status, 200);
    assert.equal(body.settings_applied.timezone, 'Europe/Berlin');
    assert.equal(body.settings_applied.attribution_model, 'linear');
    assert.equal(body.settings_applied.attribution_window, 28);
    const tool = await toolOk(t.app, bearer(shop.headers), 'analytics.query', {
      filters: { date_from: '2026-03-01', date_to: '2026-03-07', timezone: 'Europe/Berlin' },
      attribution_model: 'linear',
      attribution_window: 28,
      breakdown: 'source',
    });
    assert.deepEqual(body.settings_applied, tool.settings_applied);
  });

  test('is on every answer: UTC and the workspace defaults when the request names none', async () => {
    for (const query of [RANGE, `${RANGE}&interval=day`, `${RANGE}&breakdown=campaign&limit=1&offset=5`, `${RANGE}&metrics=net_profit`]) {
      const { status, body } = await get(query);
      assert.equal(status, 200, query);
      assert.deepEqual(
        [body.settings_applied.timezone, body.settings_applied.attribution_model, body.settings_applied.attribution_window, body.settings_applied.currency],
        ['UTC', 'last_click', 7, 'USD'],
        query,
      );
    }
  });
});

describe('GET /v3/report: workspace settings (re-read at every request)', () => {
  test('applies revenue, refund, exclusion, unattributed, new-customer and fee settings on the next request', async () => {
    const metrics = 'revenue,conversions,new_customers,payment_fees,cogs,refunds,net_profit';
    const before = await get(`${RANGE}&metrics=${metrics}`);
    assert.deepEqual(before.body.totals, { revenue: 650, conversions: 4, new_customers: 3, payment_fees: 2.5, cogs: 120, refunds: 20, net_profit: 304.5 });
    await updateSettings(t.stores.db, shop.id, {
      net_merchandise_revenue: true, refund_netting: true, platform_revenue: 'platform', excluded_transaction_ids: ['T2'],
      include_unattributed: true, new_customer_correction: true, payment_fee_percent: 2, payment_fee_fixed: 30,
    });
    const after = await get(`${RANGE}&metrics=${metrics}`);
    // T1 100 - 10 tax - 5 shipping - 20 refund = 65; T3 platform 210; T4 300; T9 unattributed 70.
    // Fees: T1 2.50 (order), T3 2% of 210 + 0.30, T4 2% of 300 + 0.30, T9 2% of 70 + 0.30.
    // net_profit = 645 - 130 cogs - 15 fees - 3 shipping - 150 spend - 50 expenses (refunds already netted).
    assert.deepEqual(after.body.totals, { revenue: 645, conversions: 4, new_customers: 2, payment_fees: 15, cogs: 130, refunds: 20, net_profit: 297 });
    const rows = await get(`${RANGE}&breakdown=source&metrics=revenue`);
    assert.deepEqual(pick(rows.body.data, ['source', 'revenue']), [
      ['meta', 300], ['tiktok', 210], ['unattributed', 70], ['google', 65], ['creator', 0], ['organic', 0],
    ]);
    const meta = await get(`${RANGE}&metrics=revenue`, await shop.keyHeaders(['read:meta']));
    assert.deepEqual(meta.body.totals, { revenue: 300 });
  });

  test('dashboard defaults (model, window, ignored sources) apply when the request leaves them out', async () => {
    await updateSettings(t.stores.db, shop.id, { attribution_model: 'first_click', ignore_sources: ['creator'] });
    const { body } = await get(`${RANGE}&breakdown=source&metrics=revenue`);
    // first_click with creator ignored: T1 -> facebook, T4 -> instagram.
    assert.deepEqual(pick(body.data, ['source', 'revenue']), [
      ['meta', 365], ['tiktok', 210], ['unattributed', 70], ['creator', 0], ['google', 0], ['organic', 0],
    ]);
    assert.deepEqual(body.pagination.ignored_sources, ['creator', 'influencer']);
    assert.deepEqual([body.settings_applied.attribution_model, body.settings_applied.ignore_sources], ['first_click', ['creator']]);
    const overridden = await get(`${RANGE}&breakdown=source&metrics=revenue&attribution_model=last_click&exclude_source=tiktok`);
    assert.deepEqual(pick(overridden.body.data, ['source', 'revenue']), [
      ['meta', 300], ['organic', 210], ['unattributed', 70], ['google', 65], ['creator', 0],
    ]);
  });

  test('a single-touch model books each conversion whole when nothing reads its touch: the totals of its rows by source', async () => {
    // Without a key of the touch credited the statement credits the conversions themselves, without
    // paths (build-sql.ts, wholeConversions); here with every setting of the tests above applied.
    const metrics = 'metrics=revenue,conversions,new_customers,sessions,cogs,payment_fees,refunds';
    for (const model of ['first_click', 'last_click']) {
      const bySource = await get(`${RANGE}&attribution_model=${model}&breakdown=source&${metrics}`);
      assert.equal(bySource.body.totals.revenue, 645, model);
      for (const shape of ['', '&interval=day', '&breakdown=city']) {
        const { body } = await get(`${RANGE}&attribution_model=${model}&${metrics}${shape}`);
        assert.deepEqual(body.totals, bySource.body.totals, `${model}${shape}`);
      }
    }
  });
});
