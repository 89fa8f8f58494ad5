/**
 * GET /v3/export/mmm: the marketing-mix-model input, checked against /v3/report day by day.
 * Fixture (UTC), one workspace, Monday 2026-03-02 to Monday 2026-03-09, settings refund_netting,
 * include_unattributed and excluded_transaction_ids [T5]:
 * - sessions: 03-02 facebook s1 and google s2; 03-03 untagged s3; 03-04 instagram s4; 03-06 google s5
 * - conversions: T1 03-02 in s1 (100.00, Berlin; its platform order refunded 20.00), T2 03-03 in
 *   s3 (50.00, city `=cmd`), T3 03-04 in s4 (200.00, Paris), T5 03-06 in s5 (30.00, excluded)
 * - an unmatched platform order T9 on 03-05 (70.00): an `unattributed` sale
 * - ads: facebook 03-02 (10.00, 100 impressions, 10 clicks), instagram 03-04 (5.00, 50, 5), google
 *   03-02 (20.00, 1000, 20) and 03-06 (7.00, 70, 7), tiktok 03-03 (no spend, 100 impressions)
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';

let t: TestApp;
let shop: TestWorkspace;
const DAYS = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08'];

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  const s = shop.id;
  const ev = (session_id: number, dt: string, adv_source = '') => ({ store_id: s, session_id, visitor_id: session_id, dt, name: 'pageview', adv_source, pathname: '/' });
  await insertRows(t.stores, 'events', [
    ev(1, '2026-03-02 09:00:00', 'facebook'), ev(2, '2026-03-02 10:00:00', 'google'), ev(3, '2026-03-03 11:00:00'),
    ev(4, '2026-03-04 12:00:00', 'instagram'), ev(5, '2026-03-06 13:00:00', 'google'),
  ]);
  const sale = (session_id: number, dt: string, transaction_id: string, revenue: number, city: string) => ({
    store_id: s, session_id, visitor_id: session_id, dt, name: 'purchase', transaction_id, transaction_gross_revenue: revenue, transaction_currency: 'USD', transaction_city: city,
  });
  await insertRows(t.stores, 'conversions', [
    sale(1, '2026-03-02 09:30:00', 'T1', 10000, 'Berlin'), sale(3, '2026-03-03 11:30:00', 'T2', 5000, '=cmd'),
    sale(4, '2026-03-04 12:30:00', 'T3', 20000, 'Paris'), sale(5, '2026-03-06 13:30:00', 'T5', 3000, 'Berlin'),
  ]);
  await insertRows(t.stores, 'orders', [
    { store_id: s, transaction_id: 'T1', dt: '2026-03-02 09:30:00', gross_revenue: 10000, refunds: [{ dt: '2026-03-03 00:00:00', amount: 2000 }], version: 1 },
    { store_id: s, transaction_id: 'T9', dt: '2026-03-05 15:00:00', gross_revenue: 7000, version: 1 },
  ]);
  const ad = (dt: string, source: string, spend: number, impressions: number, clicks: number) => ({ store_id: s, dt, source, ad_id: `${source}-1`, spend, impressions, clicks, version: 1 });
  await insertRows(t.stores, 'ads', [
    ad('2026-03-02', 'facebook', 1000, 100, 10), ad('2026-03-04', 'instagram', 500, 50, 5),
    ad('2026-03-02', 'google', 2000, 1000, 20), ad('2026-03-06', 'google', 700, 70, 7), ad('2026-03-03', 'tiktok', 0, 100, 1),
  ]);
  await updateSettings(t.stores.db, s, { refund_netting: true, include_unattributed: true, excluded_transaction_ids: ['T5'] });
});
after(() => t.close());

const RANGE = `start_date=${DAYS[0]}&end_date=${DAYS.at(-1)}`;
const mmm = (query: string, headers = shop.headers) => t.app.inject({ method: 'GET', url: `/v3/export/mmm?${query}`, headers });
const records = (csv: string): Record<string, string>[] => parse(csv, { columns: true });

/** What /v3/report says for one span: the totals, and the media per reporting source. */
async function reportOf(start: string, end: string, headers = shop.headers) {
  const span = `start_date=${start}&end_date=${end}`;
  const totals = await injectGet(t, `/v3/report?${span}&metrics=revenue,conversions,sessions`, headers);
  const media = await injectGet(t, `/v3/report?${span}&breakdown=source&metrics=spend,impressions,clicks`, headers);
  assert.equal(totals.status, 200, JSON.stringify(totals.body));
  return { totals: totals.body.totals, media: new Map<string, any>(media.body.data.map((row: any) => [row.source, row])) };
}

/** Each MMM record (its date, and the days it covers) against /v3/report over the same days. */
async function assertMatchesReport(csv: string, spans: [date: string, start: string, end: string][], headers = shop.headers) {
  const rows = records(csv);
  assert.equal(rows.length, spans.length);
  for (const [i, [date, start, end]] of spans.entries()) {
    const row = rows[i]!;
    const report = await reportOf(start, end, headers);
    assert.equal(row.date, date);
    assert.deepEqual([Number(row.revenue), Number(row.conversions), Number(row.sessions)], [report.totals.revenue, report.totals.conversions, report.totals.sessions], start);
    for (const column of Object.keys(row).filter((c) => c.endsWith('_spend'))) {
      const source = column.slice(0, -'_spend'.length);
      const media = report.media.get(source) ?? { spend: 0, impressions: 0, clicks: 0 };
      assert.deepEqual([Number(row[column]), Number(row[`${source}_impressions`]), Number(row[`${source}_clicks`])], [media.spend, media.impressions, media.clicks], `${start} ${source}`);
    }
  }
}

describe('GET /v3/export/mmm', () => {
  test('one CSV record per day: the report\'s revenue, conversions and sessions, then media of each source with spend', async () => {
    const r = await mmm(RANGE);
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.headers['content-type'], 'text/csv; charset=utf-8; header=present');
    assert.equal(r.headers['content-disposition'], 'attachment; filename="storelens-mmm-2026-03-02_2026-03-08.csv"');
    assert.equal(r.body, [
      'date,revenue,conversions,sessions,google_spend,google_impressions,google_clicks,meta_spend,meta_impressions,meta_clicks',
      '2026-03-02,80.00,1,2,20.00,1000,20,10.00,100,10',
      '2026-03-03,50.00,1,1,0.00,0,0,0.00,0,0',
      '2026-03-04,200.00,1,1,0.00,0,0,5.00,50,5',
      '2026-03-05,70.00,1,0,0.00,0,0,0.00,0,0',
      '2026-03-06,0.00,0,1,7.00,70,7,0.00,0,0',
      '2026-03-07,0.00,0,0,0.00,0,0,0.00,0,0',
      '2026-03-08,0.00,0,0,0.00,0,0,0.00,0,0',
      '',
    ].join('\r\n'));
    await assertMatchesReport(r.body, DAYS.map((day) => [day, day, day]));
  });

  test('weeks: one record per Monday, equal to the report over that week\'s days in the range', async () => {
    const r = await mmm(`start_date=2026-03-04&end_date=2026-03-09&granularity=week`);
    assert.equal(r.statusCode, 200, r.body);
    // The first week is in the range from its Wednesday on.
    await assertMatchesReport(r.body, [['2026-03-02', '2026-03-04', '2026-03-08'], ['2026-03-09', '2026-03-09', '2026-03-09']]);
  });

  test('under any_click each sale still counts once, as the report\'s totals count it', async () => {
    await updateSettings(t.stores.db, shop.id, { attribution_model: 'any_click' });
    try {
      const r = await mmm(RANGE);
      await assertMatchesReport(r.body, DAYS.map((day) => [day, day, day]));
    } finally {
      await updateSettings(t.stores.db, shop.id, { attribution_model: 'last_click' });
    }
  });

  test('geo=city: a panel of every date and city, the report\'s city rows, media split by each city\'s share of sales', async () => {
    const r = await mmm(`${RANGE}&geo=city`);
    assert.equal(r.statusCode, 200, r.body);
    const rows = records(r.body);
    // Cities as the report names them: the platform order T9 has none; '=cmd' is written as text.
    assert.deepEqual([...new Set(rows.map((row) => row.geo))], ['', "'=cmd", 'Berlin', 'Paris']);
    assert.equal(rows.length, DAYS.length * 4);
    for (const day of DAYS) {
      const report = await injectGet(t, `/v3/report?start_date=${day}&end_date=${day}&breakdown=city&metrics=revenue,conversions,sessions`, shop.headers);
      const byCity = new Map(report.body.data.map((row: any) => [row.city, row]));
      for (const row of rows.filter((row) => row.date === day)) {
        const city = row.geo!.replace(/^'/, '');
        const want: any = byCity.get(city) ?? { revenue: 0, conversions: 0, sessions: 0 };
        assert.deepEqual([Number(row.revenue), Number(row.conversions), Number(row.sessions)], [want.revenue, want.conversions, want.sessions], `${day} ${city}`);
      }
    }
    // Sessions carry no visitor city here: each day's fall under ''.
    assert.deepEqual(rows.filter((row) => row.geo === '').map((row) => row.sessions), ['2', '1', '1', '0', '1', '0', '0']);
    // Four sales in the range, one per city: each city gets a quarter of each day's media.
    const march2 = rows.filter((row) => row.date === '2026-03-02');
    assert.deepEqual(march2.map((row) => [row.google_spend, row.google_impressions, row.meta_clicks]), Array(4).fill(['5.00', '250', '2.5']));
  });

  test('permissions and parameters: the report\'s own', async () => {
    const meta = await shop.keyHeaders(['read:meta']);
    const narrowed = await mmm(RANGE, meta);
    assert.equal(narrowed.statusCode, 200);
    assert.equal(narrowed.body.split('\r\n')[0], 'date,revenue,conversions,sessions,meta_spend,meta_impressions,meta_clicks');
    await assertMatchesReport(narrowed.body, DAYS.map((day) => [day, day, day]), meta);
    const cases: [string, Record<string, string>, number, string][] = [
      [RANGE, await shop.keyHeaders(['read:profit']), 403, 'You do not have access to pixel data'],
      [`${RANGE}&granularity=month`, shop.headers, 400, 'Invalid granularity: month. Accepted values: day, week'],
      [`${RANGE}&geo=country`, shop.headers, 400, 'Invalid geo: country. Accepted values: city'],
      ['start_date=2026-03-09&end_date=2026-03-02', shop.headers, 400, 'start_date must be before end_date'],
    ];
    for (const [query, headers, status, message] of cases) {
      const r = await mmm(query, headers);
      assert.deepEqual([r.statusCode, r.json()], [status, { message }], query);
    }
  });
});
