/**
 * The computed tools over the analytics store, checked against hand-computed numbers.
 * Fixture (workspace "Socks", UTC, 2026-11-10 to 2026-11-12):
 *   visitor 1: session 11 lands from facebook (DE) on 11-10 09:00, A/B test hero variant A, adds to cart;
 *              session 12 lands from google (DE) on 11-11 14:00, hero variant B, and converts at 14:20
 *              (100.00, Berlin, coupon WINTER, new customer).
 *   visitor 2: session 21 untagged (FR) on 11-10 14:30, hero variant A, converts at 15:00 (50.00, Paris).
 *   visitor 3: session 31 lands from google (US) on 11-11 09:10, adds to cart, never converts.
 *   ads: meta m1 20.00 on 11-10 and 30.00 on 11-11; google g1 10.00 and 40.00; tiktok f1 on 11-01..11-04
 *        with CTR halving and frequency doubling in the second half (a fully fatigued ad).
 *   orders: customer A 2 orders, B 1 order, C 5 orders in November.
 *   weather: Berlin 11-10 clear (imported twice, the second import says 4.0 °C), 11-11 rain 5 mm.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { bearer, callTool, toolOk } from './rpc.ts';
import { pearson } from '../../src/mcp/tools/kit/stats.ts';

let t: TestApp;
let ws: TestWorkspace;
let googleOnly: Record<string, string>;

const RANGE = { date_from: '2026-11-10', date_to: '2026-11-11' };

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Socks');
  googleOnly = await ws.keyHeaders(['read:google']);
  const ev = (session_id: number, visitor_id: number, dt: string, name: string, extra: object = {}) => ({
    store_id: ws.id, session_id, visitor_id, dt, name, ...extra,
  });
  const hero = (variant: string) => ({ entry_meta_keys: ['ab_test', 'ab_variant'], entry_meta_values: ['hero', variant] });
  await insertRows(t.stores, 'events', [
    ev(11, 1, '2026-11-10 09:00:00.000', 'pageview', { adv_source: 'facebook', country_code: 'DE', ...hero('A') }),
    ev(11, 1, '2026-11-10 09:03:00.000', 'add_to_cart', { adv_source: 'facebook', country_code: 'DE' }),
    ev(12, 1, '2026-11-11 14:00:00.000', 'pageview', { adv_source: 'google', country_code: 'DE', ...hero('B') }),
    ev(21, 2, '2026-11-10 14:30:00.000', 'pageview', { country_code: 'FR', ...hero('A') }),
    ev(31, 3, '2026-11-11 09:10:00.000', 'pageview', { adv_source: 'google', country_code: 'US' }),
    ev(31, 3, '2026-11-11 09:12:00.000', 'add_to_cart', { adv_source: 'google', country_code: 'US' }),
  ]);
  await insertRows(t.stores, 'conversions', [
    { store_id: ws.id, dt: '2026-11-11 14:20:00.000', name: 'purchase', session_id: 12, visitor_id: 1, transaction_id: 'o1',
      transaction_gross_revenue: 10_000, transaction_country_code: 'DE', transaction_city: 'Berlin', coupon_code: 'WINTER', is_new_customer: 1 },
    { store_id: ws.id, dt: '2026-11-10 15:00:00.000', name: 'purchase', session_id: 21, visitor_id: 2, transaction_id: 'o2',
      transaction_gross_revenue: 5_000, transaction_country_code: 'FR', transaction_city: 'Paris' },
  ]);
  const ad = (source: string, ad_id: string, dt: string, spend: number, impressions = 1000, clicks = 10, reach = 1000) => ({
    store_id: ws.id, dt, source, ad_id, ad_name: ad_id, campaign_id: `${source}-c`, campaign_name: `${source} campaign`,
    spend, impressions, clicks, reach, version: 1,
  });
  await insertRows(t.stores, 'ads', [
    ad('meta', 'm1', '2026-11-10', 2_000), ad('meta', 'm1', '2026-11-11', 3_000),
    ad('google', 'g1', '2026-11-10', 1_000), ad('google', 'g1', '2026-11-11', 4_000),
    ad('tiktok', 'f1', '2026-11-01', 500, 1000, 40, 1000), ad('tiktok', 'f1', '2026-11-02', 500, 1000, 40, 1000),
    ad('tiktok', 'f1', '2026-11-03', 500, 1000, 20, 500), ad('tiktok', 'f1', '2026-11-04', 500, 1000, 20, 500),
  ]);
  const order = (transaction_id: string, customer_id: string, dt: string) => ({
    store_id: ws.id, transaction_id, customer_id, dt, gross_revenue: 1_000, version: 1,
  });
  await insertRows(t.stores, 'orders', [
    order('a1', 'A', '2026-11-02 10:00:00'), order('a2', 'A', '2026-11-09 10:00:00'), order('b1', 'B', '2026-11-03 10:00:00'),
    ...[1, 2, 3, 4, 5].map((i) => order(`c${i}`, 'C', `2026-11-0${i} 12:00:00`)),
  ]);
  const weather = (dt: string, temperature_c: number, precipitation_mm: number, condition: string, version: number) => ({
    store_id: ws.id, dt, country_code: 'DE', city: 'Berlin', temperature_c, precipitation_mm, condition, version,
  });
  await insertRows(t.stores, 'weather_daily', [weather('2026-11-10', 3, 0, 'clear', 1), weather('2026-11-11', 1, 5, 'rain', 1)]);
  await insertRows(t.stores, 'weather_daily', [weather('2026-11-10', 4, 0, 'clear', 2)]);
});
after(() => t.close());

const ok = (name: string, args: unknown = {}, headers = ws.headers) => toolOk(t.app, headers, name, args);

describe('hourly, map, journeys', () => {
  test('hourly.get-data counts sessions by start hour and conversions by their hour', async () => {
    const { hourly } = await ok('hourly.get-data', RANGE);
    const busy = hourly.hours.filter((h: any) => h.sessions || h.conversions);
    assert.deepEqual(busy, [
      { hour: 9, sessions: 2, conversions: 0, revenue: 0, cr: 0 },
      { hour: 14, sessions: 2, conversions: 1, revenue: 100, cr: 0.5 },
      { hour: 15, sessions: 0, conversions: 1, revenue: 50, cr: null },
    ]);
    assert.equal(hourly.hours.length, 24);
  });

  test('map.get-data by country and by city', async () => {
    const { map } = await ok('map.get-data', RANGE);
    assert.deepEqual(map.places, [
      { country_code: 'DE', sessions: 2, conversions: 1, revenue: 100, cr: 0.5 },
      { country_code: 'FR', sessions: 1, conversions: 1, revenue: 50, cr: 1 },
      { country_code: 'US', sessions: 1, conversions: 0, revenue: 0, cr: 0 },
    ]);
    const cities = await ok('map.get-data', { ...RANGE, level: 'city' });
    assert.deepEqual(cities.map.places, [
      { country_code: 'DE', city: 'Berlin', sessions: 0, conversions: 1, revenue: 100, cr: null },
      { country_code: 'FR', city: 'Paris', sessions: 0, conversions: 1, revenue: 50, cr: null },
    ]);
  });

  test('map.get-data of a read:google key sees only google-landed traffic', async () => {
    const { map } = await ok('map.get-data', RANGE, bearer(googleOnly));
    assert.deepEqual(map.places, [
      { country_code: 'DE', sessions: 1, conversions: 1, revenue: 100, cr: 1 },
      { country_code: 'US', sessions: 1, conversions: 0, revenue: 0, cr: 0 },
    ]);
  });

  test('journeys.get-data builds ordered touchpoint paths, organic without touchpoints', async () => {
    const { journeys } = await ok('journeys.get-data', RANGE);
    assert.deepEqual(journeys.paths, [
      { path: ['meta', 'google'], raw_paths: [['facebook', 'google']], touchpoints: 2, conversions: 1, revenue: 100, avg_sessions_before_conversion: 2 },
      { path: ['organic'], raw_paths: [['organic']], touchpoints: 0, conversions: 1, revenue: 50, avg_sessions_before_conversion: 0 },
    ]);
    assert.equal(journeys.attribution_window, 7);
    const short = await ok('journeys.get-data', { ...RANGE, attribution_window: 1 });
    assert.deepEqual(short.journeys.paths.map((p: any) => p.path), [['google'], ['organic']]);
  });

  /**
   * Workspace "Journeys" (2026-11-10): buyer 1 came by facebook, instagram, then google; buyer 2
   * by bing; buyers 3 and 4 by instagram and by facebook. As reporting sources: [meta, google]
   * (facebook and instagram in a row are one meta touch), [microsoft], and [meta] twice, over the
   * raw paths [instagram] and [facebook].
   */
  test('journeys.get-data names reporting sources, the raw channels behind each path alongside', async () => {
    const shop = await createTestWorkspace(t.stores, 'Journeys');
    const visits = [[1, 'facebook', '08:00'], [1, 'instagram', '09:00'], [1, 'google', '10:00'], [2, 'bing', '08:00'], [3, 'instagram', '08:00'], [4, 'facebook', '08:00']] as const;
    await insertRows(t.stores, 'events', visits.map(([visitor, adv_source, time], i) => ({
      store_id: shop.id, dt: `2026-11-10 ${time}:00`, name: 'pageview', session_id: 100 + i, visitor_id: visitor, adv_source, pathname: '/',
    })));
    await insertRows(t.stores, 'conversions', [1, 2, 3, 4].map((visitor) => ({
      store_id: shop.id, dt: '2026-11-10 12:00:00', name: 'purchase', session_id: 200 + visitor, visitor_id: visitor, transaction_id: `J${visitor}`, transaction_gross_revenue: 1_000 * visitor,
    })));
    const { journeys } = await toolOk(t.app, shop.headers, 'journeys.get-data', { date_from: '2026-11-10', date_to: '2026-11-10' });
    assert.deepEqual(journeys.paths.map((p: any) => [p.path, p.raw_paths, p.touchpoints, p.conversions, p.revenue, p.avg_sessions_before_conversion]), [
      [['meta'], [['facebook'], ['instagram']], 1, 2, 70, 1],
      [['microsoft'], [['bing']], 1, 1, 20, 1],
      [['meta', 'google'], [['facebook', 'instagram', 'google']], 2, 1, 10, 3],
    ]);
  });

  test('journeys.get-data shows a restricted key only the paths it sees whole, never a shortened or organic stand-in', async () => {
    const paths = async (scopes: string[]) => (await ok('journeys.get-data', RANGE, await ws.keyHeaders(scopes))).journeys.paths;
    assert.deepEqual(await paths(['read:google']), []);
    assert.deepEqual((await paths(['read:meta', 'read:google'])).map((p: any) => [p.path, p.conversions]), [[['meta', 'google'], 1]]);
    assert.deepEqual((await paths(['read:organic'])).map((p: any) => [p.path, p.conversions, p.revenue]), [[['organic'], 1, 50]]);
  });
});

describe('correlations, fatigue, library', () => {
  test('correlations.get-data pairs daily spend with landed revenue per channel', async () => {
    const { correlations } = await ok('correlations.get-data', { date_from: '2026-11-10', date_to: '2026-11-12', include_series: true });
    assert.equal(correlations.days, 3);
    const google = correlations.channels.find((c: any) => c.channel === 'google');
    assert.deepEqual(google.series, [
      { date: '2026-11-10', spend: 10, revenue: 0 },
      { date: '2026-11-11', spend: 40, revenue: 100 },
      { date: '2026-11-12', spend: 0, revenue: 0 },
    ]);
    assert.equal(google.correlation, pearson([1000, 4000, 0], [0, 10000, 0]));
    assert.deepEqual([google.spend, google.revenue, google.roas], [50, 100, 2]);
    const meta = correlations.channels.find((c: any) => c.channel === 'meta');
    assert.deepEqual([meta.spend, meta.revenue, meta.roas, meta.correlation], [50, 0, 0, null]);
  });

  test('ad-fatigue.get-scores gives 100 to an ad whose CTR halved while frequency doubled', async () => {
    const { ad_fatigue } = await ok('ad-fatigue.get-scores', { date_from: '2026-11-01', date_to: '2026-11-11', min_days: 2 });
    assert.deepEqual(ad_fatigue.ads[0], {
      source: 'tiktok', ad_id: 'f1', ad_name: 'f1', campaign_name: 'tiktok campaign', days: 4, spend: 20,
      ctr_early: 0.04, ctr_late: 0.02, ctr_change: -0.5, frequency_early: 1, frequency_late: 2, frequency_change: 1, score: 100,
    });
    const strict = await ok('ad-fatigue.get-scores', { date_from: '2026-11-01', date_to: '2026-11-11', min_days: 3 });
    assert.deepEqual(strict.ad_fatigue.ads.map((a: any) => a.ad_id), ['f1']);
  });

  test('ads tools refuse a key without any ad platform', async () => {
    const organicOnly = await ws.keyHeaders(['read:organic']);
    const reply = await callTool(t.app, organicOnly, 'ad-fatigue.get-scores', {});
    assert.deepEqual(reply.result?.structuredContent, { error: { code: 'permission_denied', message: 'You do not have access to ads data' } });
  });
});

describe('tests, geo, health, loyalty, offers, weather', () => {
  test('ab-testing lists the test and compares variants with a z-test', async () => {
    const { tests } = await ok('ab-testing.get-tests', RANGE);
    assert.deepEqual(tests, [{ test_id: 'hero', variants: ['A', 'B'], sessions: 3, first_seen: '2026-11-10 09:00:00', last_seen: '2026-11-11 14:00:00' }]);
    const before = await ok('ab-testing.get-tests', { date_from: '2026-10-01', date_to: '2026-10-02' });
    assert.deepEqual([before.tests, before.note], [[], 'No A/B test in this range: a test shows once its landing URLs carry ab_test and ab_variant']);
    const { results } = await ok('ab-testing.get-results', { ...RANGE, test_id: 'hero' });
    assert.equal(results.control_variant, 'A');
    assert.deepEqual(results.variants.map((v: any) => [v.variant, v.sessions, v.converted_sessions, v.cr, v.revenue]), [
      ['A', 2, 1, 0.5, 50],
      ['B', 1, 1, 1, 100],
    ]);
    // pooled p = 2/3, se = sqrt(2/3 * 1/3 * (1/2 + 1)) = 0.57735, z = 0.5 / se = 0.866, p = 0.3865
    assert.deepEqual(results.variants[1].significance, { z: 0.866, p_value: 0.3865, significant: false });
    assert.equal(results.variants[1].uplift, 1);
    const missing = await callTool(t.app, ws.headers, 'ab-testing.get-results', { ...RANGE, test_id: 'nope' });
    assert.deepEqual(missing.result?.structuredContent.error, { code: 'not_found', message: 'No sessions of test nope in the range' });
  });

  test('geo-testing.get-candidates ranks regions by steadiness of daily revenue', async () => {
    const { geo_candidates } = await ok('geo-testing.get-candidates', { ...RANGE, min_conversions: 1 });
    // DE: days [0, 100] -> mean 50, sd 50, cv 1; FR: days [50, 0] -> mean 25, sd 25, cv 1; equal cv, higher revenue first
    assert.deepEqual(geo_candidates.candidates, [
      { country_code: 'DE', conversions: 1, revenue: 100, revenue_share: 0.6667, days_with_orders: 1, daily_revenue_mean: 50, daily_revenue_cv: 1 },
      { country_code: 'FR', conversions: 1, revenue: 50, revenue_share: 0.3333, days_with_orders: 1, daily_revenue_mean: 25, daily_revenue_cv: 1 },
    ]);
    assert.deepEqual((await ok('geo-testing.get-candidates', RANGE)).geo_candidates.candidates, []);
  });

  test('health-center.get-summary reports freshness, and no match rate without sale orders in the range', async () => {
    const { health } = await ok('health-center.get-summary', RANGE);
    assert.equal(health.pixel.last_event_at, '2026-11-11 14:00:00');
    assert.equal(health.pixel.status, Date.now() - Date.parse('2026-11-11T14:00:00Z') > 86_400_000 ? 'error' : 'ok');
    assert.deepEqual(health.conversion_matching, {
      status: 'no_data', orders: 0, orders_with_purchase: 0, match_rate: null, last_conversion_at: '2026-11-11 14:20:00',
    });
    assert.deepEqual(health.ad_data.platforms.map((p: any) => [p.source, p.last_day, p.ads]), [
      ['google', '2026-11-11', 1], ['meta', '2026-11-11', 1], ['tiktok', '2026-11-04', 1],
    ]);
    const denied = await callTool(t.app, bearer(googleOnly), 'health-center.get-summary', {});
    assert.equal(denied.result?.structuredContent.error.code, 'permission_denied');
  });

  test('loyalty.get-analytics buckets customers by order count', async () => {
    const { loyalty } = await ok('loyalty.get-analytics', { date_from: '2026-11-01', date_to: '2026-11-30' });
    assert.deepEqual(loyalty, {
      date_from: '2026-11-01', date_to: '2026-11-30', timezone: 'UTC', customers: 3, repeat_customers: 2, repeat_rate: 0.6667, revenue: 80,
      repeat_revenue_share: 0.875,
      buckets: [{ orders: '1', customers: 1, revenue: 10 }, { orders: '2', customers: 1, revenue: 20 }, { orders: '4+', customers: 1, revenue: 50 }],
    });
  });

  test('a tool without dates covers the data API\'s default range: 7 days ago through today', async () => {
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const expected = () => ({ date_from: day(Date.now() - 7 * 86_400_000), date_to: day(Date.now()) });
    const before = expected();
    const { loyalty } = await ok('loyalty.get-analytics', {});
    const got = { date_from: loyalty.date_from, date_to: loyalty.date_to };
    // Either side of a midnight during the call.
    assert.ok([JSON.stringify(before), JSON.stringify(expected())].includes(JSON.stringify(got)), JSON.stringify(got));
  });

  test('offers.get-opportunities reports cart abandonment per channel and coupon performance', async () => {
    const { opportunities } = await ok('offers.get-opportunities', RANGE);
    assert.deepEqual(opportunities.cart_abandonment, [
      { channel: 'facebook', cart_sessions: 1, converted_cart_sessions: 0, abandonment_rate: 1, opportunity: false },
      { channel: 'google', cart_sessions: 1, converted_cart_sessions: 0, abandonment_rate: 1, opportunity: false },
    ]);
    assert.deepEqual(opportunities.coupons, [{ coupon_code: 'WINTER', conversions: 1, revenue: 100, new_customer_share: 1 }]);
  });

  test('weather.get-data joins the newest observation of each day with that place\'s sales', async () => {
    const { weather } = await ok('weather.get-data', { ...RANGE, country_code: 'DE' });
    assert.deepEqual(weather.days, [
      { date: '2026-11-10', country_code: 'DE', city: 'Berlin', temperature_c: 4, precipitation_mm: 0, condition: 'clear', conversions: 0, revenue: 0 },
      { date: '2026-11-11', country_code: 'DE', city: 'Berlin', temperature_c: 1, precipitation_mm: 5, condition: 'rain', conversions: 1, revenue: 100 },
    ]);
    assert.deepEqual(weather.by_condition, [
      { condition: 'clear', days: 1, conversions: 0, revenue_per_day: 0 },
      { condition: 'rain', days: 1, conversions: 1, revenue_per_day: 100 },
    ]);
    assert.equal(weather.temperature_revenue_correlation, null);
    const none = (await ok('weather.get-data', { ...RANGE, country_code: 'FR' })).weather;
    assert.deepEqual([none.days, none.note], [[], 'No imported weather for this range and place: daily weather comes from `import --kind weather` (docs/cli.md, Importing data)']);
    assert.equal(weather.note, undefined);
  });
});

describe('analytics.query and the report engine', () => {
  test('analytics.query gives the same rows and totals as /v3/report for the same arguments', async () => {
    const args = { metrics: ['spend', 'revenue', 'roas', 'conversions', 'sessions'], breakdown: 'source', filters: RANGE, attribution_model: 'first_click' };
    const tool = await ok('analytics.query', args);
    const http = await t.app.inject({
      method: 'GET',
      url: '/v3/report?start_date=2026-11-10&end_date=2026-11-11&metrics=spend,revenue,roas,conversions,sessions&breakdown=source&attribution_model=first_click',
      headers: ws.headers,
    });
    assert.equal(http.statusCode, 200);
    assert.deepEqual(tool.rows, http.json().data);
    assert.deepEqual(tool.totals, http.json().totals);
    assert.equal(tool.settings_applied.attribution_model, 'first_click');
    assert.ok(tool.rows.length > 0);
  });

  test('arguments left out fall back to the saved dashboard settings', async () => {
    const { updateSettings } = await import('../../src/store/app/workspaces.ts');
    await updateSettings(t.stores.db, ws.id, { attribution_model: 'linear', attribution_window: 28 });
    try {
      const tool = await ok('analytics.query', { filters: RANGE });
      assert.equal(tool.settings_applied.attribution_model, 'linear');
      assert.equal(tool.settings_applied.attribution_window, 28);
    } finally {
      await updateSettings(t.stores.db, ws.id, { attribution_model: 'last_click', attribution_window: 7 });
    }
  });

  test('totals cover the whole scope even on a page of one row', async () => {
    const all = await ok('analytics.query', { filters: RANGE, breakdown: 'source', metrics: ['revenue'] });
    const page = await ok('analytics.query', { filters: RANGE, breakdown: 'source', metrics: ['revenue'], limit: 1 });
    assert.equal(page.rows.length, 1);
    assert.deepEqual(page.totals, all.totals);
    assert.equal(page.pagination.has_more, true);
  });

  test('attribution.get-data compares models with the same numbers as analytics.query', async () => {
    const { attribution } = await ok('attribution.get-data', { models: ['last_click', 'first_click'], filters: RANGE });
    for (const model of ['last_click', 'first_click']) {
      const q = await ok('analytics.query', { filters: RANGE, breakdown: 'source', metrics: ['revenue', 'conversions', 'spend', 'roas', 'cpa'], attribution_model: model });
      for (const row of q.rows) {
        const entry = attribution.channels.find((c: any) => c.source === row.source);
        assert.deepEqual(entry[model], { revenue: row.revenue, conversions: row.conversions, spend: row.spend, roas: row.roas, cpa: row.cpa });
      }
      assert.deepEqual(attribution.totals[model], q.totals);
    }
  });

  test('analytics.profit-summary gives profit totals to an admin key', async () => {
    const { profit } = await ok('analytics.profit-summary', { filters: RANGE });
    const q = await ok('analytics.query', { filters: RANGE, metrics: ['revenue', 'gross_profit', 'net_profit'] });
    assert.equal(profit.totals.revenue, q.totals.revenue);
    assert.equal(profit.totals.gross_profit, q.totals.gross_profit);
    assert.equal(profit.totals.net_profit, q.totals.net_profit);
  });

  test('a key may only ignore sources it sees: excluding a hidden channel would move its credit onto a visible one', async () => {
    // facebook opened visitor 1's path; without it, the google key's credit could not reveal that.
    const googleProfit = bearer(await ws.keyHeaders(['read:google', 'read:profit']));
    for (const name of ['analytics.query', 'attribution.get-data', 'analytics.profit-summary']) {
      const denied = await callTool(t.app, googleProfit, name, { filters: { ...RANGE, ignore_sources: ['facebook'] } });
      assert.deepEqual(denied.result?.structuredContent, {
        error: { code: 'permission_denied', message: 'You do not have access to the requested sources' },
      }, name);
    }
    const own = await ok('analytics.query', { filters: { ...RANGE, ignore_sources: ['google'] }, metrics: ['revenue'] }, bearer(googleOnly));
    assert.deepEqual([own.totals, own.settings_applied.ignore_sources], [{ revenue: 0 }, ['google']]);
  });

  test('a report-side parameter error is -32602', async () => {
    const reply = await callTool(t.app, ws.headers, 'analytics.query', { filters: { date_from: '2026-11-12', date_to: '2026-11-10' } });
    assert.equal(reply.error?.code, -32602);
    assert.equal(reply.error?.message, 'Invalid arguments: start_date must be before end_date');
  });
});
