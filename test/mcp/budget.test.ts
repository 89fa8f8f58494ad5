/**
 * budget.compare-channels on data with known response curves. Fixture (14 days, 2026-05-01 to
 * 2026-05-14, UTC, last click over 7 days): each day one session and one purchase per channel,
 * the ad rows spending that day's amount.
 *   meta (facebook sessions): revenue = 40 · √spend (spend a square, so revenue is whole dollars):
 *     a power curve with b = 0.5; every other day's buyer is new.
 *   google: revenue = 3 · spend (b = 1, a straight line); every buyer new.
 *   tiktok: 50.00 spent every day, revenue 100.00: spend never varies, so no slope can be read.
 *   pinterest: spend at four levels, each level seen once with revenue 100.00 and once with 300.00
 *     (and the 60.00 level twice): daily revenue does not follow spend at all, so the fitted slope
 *     is 0 and the curve explains 0 % of daily revenue: low confidence despite 14 varied days.
 *   email: purchases (revenue 50.00 a day) and no ad rows: a channel without spend, listed apart.
 * Expected values are derived from these formulas below, not read from the tool.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { toolOk } from './rpc.ts';

let t: TestApp;
let shop: TestWorkspace;

const DAYS = Array.from({ length: 14 }, (_, i) => `2026-05-${String(i + 1).padStart(2, '0')}`);
const META_SPEND = [25, 100, 225, 400, 49, 144, 81, 36, 64, 169, 196, 121, 16, 289];
const GOOGLE_SPEND = [10, 30, 20, 50, 40, 70, 60, 15, 25, 35, 45, 55, 65, 80];
const PINTEREST_SPEND = [20, 20, 40, 40, 80, 80, 20, 20, 40, 40, 80, 80, 60, 60];
const meta = (spend: number) => 40 * Math.sqrt(spend);
const google = (spend: number) => 3 * spend;
const CHANNELS = [
  { channel: 'facebook', source: 'meta', spend: META_SPEND, revenue: META_SPEND.map(meta), isNew: (d: number) => (d % 2 === 0 ? 1 : 0) },
  { channel: 'google', source: 'google', spend: GOOGLE_SPEND, revenue: GOOGLE_SPEND.map(google), isNew: () => 1 },
  { channel: 'tiktok', source: 'tiktok', spend: DAYS.map(() => 50), revenue: DAYS.map(() => 100), isNew: () => 0 },
  { channel: 'pinterest', source: 'pinterest', spend: PINTEREST_SPEND, revenue: DAYS.map((_, d) => (d % 2 === 0 ? 100 : 300)), isNew: () => 0 },
  { channel: 'email', source: 'email', spend: null, revenue: DAYS.map(() => 50), isNew: () => 0 },
];

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  await updateSettings(t.stores.db, shop.id, { attribution_model: 'last_click', attribution_window: 7 });
  const rows = CHANNELS.flatMap((c, ci) => DAYS.map((day, d) => ({ c, day, d, id: 1000 + ci * 100 + d })));
  await insertRows(t.stores, 'events', rows.map(({ c, day, id }) => ({
    store_id: shop.id, session_id: id, visitor_id: id, dt: `${day} 10:00:00`, name: 'pageview', adv_source: c.channel, pathname: '/',
  })));
  await insertRows(t.stores, 'conversions', rows.map(({ c, day, d, id }) => ({
    store_id: shop.id, session_id: id, visitor_id: id, dt: `${day} 10:30:00`, name: 'purchase', transaction_id: `T${id}`,
    transaction_gross_revenue: Math.round(c.revenue[d]! * 100), transaction_currency: 'USD', is_new_customer: c.isNew(d),
  })));
  await insertRows(t.stores, 'ads', rows.filter(({ c }) => c.spend).map(({ c, day, d }) => ({
    store_id: shop.id, dt: day, source: c.source, ad_id: `${c.source}-ad`, campaign_id: `${c.source}-c`, spend: c.spend![d]! * 100, impressions: 1000, clicks: 10, version: 1,
  })));
});
after(() => t.close());

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const close = (actual: number | null, expected: number, what: string) => assert.ok(actual !== null && Math.abs(actual - expected) < 1e-3, `${what}: ${actual} != ${expected}`);

test('the marginal ROAS is the slope of each channel\'s own curve at its current daily spend', async () => {
  const result = await toolOk(t.app, shop.headers, 'budget.compare-channels', { date_from: DAYS[0], date_to: DAYS.at(-1) });
  const bySource = Object.fromEntries(result.channels.map((c: any) => [c.source, c]));
  assert.deepEqual(Object.keys(bySource).sort(), ['google', 'meta', 'pinterest', 'tiktok']);

  // meta: revenue = 40 s^0.5, so the slope at s is 20 / √s; s = the last 7 days' mean spend.
  const metaNow = sum(META_SPEND.slice(-7)) / 7;
  const m = bySource.meta;
  close(m.curve.a, 40, 'meta a');
  close(m.curve.b, 0.5, 'meta b');
  close(m.curve.r2, 1, 'meta r2');
  assert.equal(m.daily_spend_now, Math.round(metaNow * 100) / 100);
  close(m.marginal_roas, 20 / Math.sqrt(metaNow), 'meta marginal');
  assert.equal(m.spend, sum(META_SPEND));
  assert.equal(m.revenue, sum(META_SPEND.map(meta)));
  assert.equal(m.new_customer_share, 0.5);
  const roas = (spend: number[]) => Math.round((sum(spend.map(meta)) / sum(spend)) * 10_000) / 10_000;
  assert.deepEqual(m.trend, {
    roas_first_half: roas(META_SPEND.slice(0, 7)),
    roas_second_half: roas(META_SPEND.slice(7)),
    change: Math.round((roas(META_SPEND.slice(7)) / roas(META_SPEND.slice(0, 7)) - 1) * 10_000) / 10_000,
  });
  // One touch per order: every model credits the same.
  assert.deepEqual([m.roas_by_model.min, m.roas_by_model.max], [m.roas, m.roas]);
  assert.equal(Object.keys(m.roas_by_model.models).length, 8);
  assert.equal(m.days_fitted, 14);
  assert.equal(m.confidence, 'medium');
  assert.match(m.confidence_note, /^Medium: 14 days, spend varied ±\d+ %, the curve explains 100 % of daily revenue/);

  // google: a straight line, each dollar returns 3 whatever the spend.
  close(bySource.google.curve.b, 1, 'google b');
  close(bySource.google.marginal_roas, 3, 'google marginal');
  assert.equal(bySource.google.new_customer_share, 1);

  // tiktok: no slope from a spend that never moved.
  assert.deepEqual([bySource.tiktok.curve, bySource.tiktok.marginal_roas, bySource.tiktok.confidence, bySource.tiktok.roas], [null, null, 'low', 2]);
  assert.match(bySource.tiktok.confidence_note, /spend never changed/);

  assert.deepEqual(result.ranking, ['google', 'meta', 'pinterest']);
  assert.deepEqual(result.attribution, { model: 'last_click', window: 7, date_mode: 'conversion', ignore_sources: [], conversion_names: ['*'] });
});

test('a curve that explains little of daily revenue is low confidence, however many varied days', async () => {
  const result = await toolOk(t.app, shop.headers, 'budget.compare-channels', { date_from: DAYS[0], date_to: DAYS.at(-1) });
  const p = result.channels.find((c: any) => c.source === 'pinterest');
  // Every spend level is seen as often with revenue 100 as with 300:
  // the log-log slope is 0 and the line explains nothing.
  assert.equal(p.days_fitted, 14);
  assert.ok(p.spend_variation >= 0.25);
  close(p.curve.b, 0, 'pinterest b');
  close(p.curve.r2, 0, 'pinterest r2');
  assert.equal(p.confidence, 'low');
  assert.equal(p.confidence_note, 'Low: the curve explains only 0 % of daily revenue (log scale; 30 % or more wanted), so daily revenue follows something other than this spend.');
});

test('channels without spend are listed apart with their revenue, not given a curve', async () => {
  const result = await toolOk(t.app, shop.headers, 'budget.compare-channels', { date_from: DAYS[0], date_to: DAYS.at(-1) });
  assert.equal(result.channels.some((c: any) => c.source === 'email'), false);
  assert.deepEqual(result.without_spend, [{ source: 'email', revenue: 50 * DAYS.length }]);
});

test('spend, revenue and ROAS per channel are the report\'s for the same days', async () => {
  const result = await toolOk(t.app, shop.headers, 'budget.compare-channels', { date_from: DAYS[0], date_to: DAYS.at(-1) });
  const { status, body } = await injectGet(t, `/v3/report?start_date=${DAYS[0]}&end_date=${DAYS.at(-1)}&breakdown=source&metrics=spend,revenue,roas`, shop.headers);
  assert.equal(status, 200);
  for (const c of result.channels) {
    const row = body.data.find((r: any) => r.source === c.source);
    assert.deepEqual([c.spend, c.revenue], [row.spend, row.revenue], c.source);
  }
});

test('a week of data is low confidence, said in words', async () => {
  const result = await toolOk(t.app, shop.headers, 'budget.compare-channels', { date_from: DAYS[7], date_to: DAYS.at(-1) });
  const m = result.channels.find((c: any) => c.source === 'meta');
  assert.equal(m.confidence, 'low');
  assert.equal(m.confidence_note, 'Low: only 7 days with spend and revenue (14 or more wanted).');
  close(m.curve.b, 0.5, 'the curve is still exact');
});
