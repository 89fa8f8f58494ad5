/**
 * The `timezone` parameter of the row endpoints: a New York store's local days (its evening orders
 * fall on their own day, not the next UTC day), the 23- and 25-hour days of its clock changes, ads
 * rows on their own calendar date, and the refusal of a name that is no zone.
 * Fixture (New York times; UTC in the rows):
 *   session 1 (facebook, ad m1) 2026-03-10 23:10 EDT = 03-11 03:10Z, order E1 80.00 at 23:30 EDT = 03:30Z
 *   session 2 (google) 2026-03-11 09:00 EDT = 13:00Z, order M1 50.00 at 09:20 EDT
 *   session 3 (untagged) 2026-03-10 12:00 EDT = 16:00Z, order N1 20.00 at 12:10 EDT
 *   8 March (clocks forward, 23 hours): D1 10.00 at 00:30 EST = 05:30Z, D2 11.00 at 23:30 EDT = 03-09 03:30Z
 *   1 November (clocks back, 25 hours): F1 12.00 at 01:30 EDT = 05:30Z, F2 13.00 at 01:30 EST = 06:30Z,
 *     F3 14.00 at 23:30 EST = 11-02 04:30Z
 *   L1 15.00 at 2026-03-31 23:30 EDT = 04-01 03:30Z (the last evening of March)
 *   Sydney's changes (Australia/Sydney): S1 1.00 at 2026-04-05 00:30 AEDT = 04-04 13:30Z and S2 2.00 at
 *     23:30 AEST = 04-05 13:30Z (a 25-hour day); S3 3.00 at 2026-10-04 00:30 AEST = 10-03 14:30Z and S4 4.00
 *     at 23:30 AEDT = 10-04 12:30Z (a 23-hour day)
 *   ads rows of meta ad m1: 03-08 5.00, 03-10 30.00, 03-11 40.00
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';

let t: TestApp;
let shop: TestWorkspace;
const NY = 'timezone=America/New_York';
const MARCH_10 = 'start_date=2026-03-10&end_date=2026-03-10';

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'New York shop');
  const visit = (session_id: number, dt: string, extra: object = {}) => ({
    store_id: shop.id, session_id, visitor_id: session_id, dt, name: 'pageview', pathname: '/', ...extra,
  });
  await insertRows(t.stores, 'events', [
    visit(1, '2026-03-11 03:10:00', { adv_source: 'facebook', adv_ad_id: 'm1' }),
    visit(2, '2026-03-11 13:00:00', { adv_source: 'google' }),
    visit(3, '2026-03-10 16:00:00'),
  ]);
  const order = (transaction_id: string, session_id: number, dt: string, cents: number) => ({
    store_id: shop.id, dt, name: 'purchase', session_id, visitor_id: session_id, transaction_id, transaction_gross_revenue: cents,
  });
  await insertRows(t.stores, 'conversions', [
    order('E1', 1, '2026-03-11 03:30:00', 8000), order('M1', 2, '2026-03-11 13:20:00', 5000), order('N1', 3, '2026-03-10 16:10:00', 2000),
    order('D1', 4, '2026-03-08 05:30:00', 1000), order('D2', 5, '2026-03-09 03:30:00', 1100),
    order('F1', 6, '2026-11-01 05:30:00', 1200), order('F2', 7, '2026-11-01 06:30:00', 1300), order('F3', 8, '2026-11-02 04:30:00', 1400),
    order('L1', 9, '2026-04-01 03:30:00', 1500),
    order('S1', 10, '2026-04-04 13:30:00', 100), order('S2', 11, '2026-04-05 13:30:00', 200),
    order('S3', 12, '2026-10-03 14:30:00', 300), order('S4', 13, '2026-10-04 12:30:00', 400),
  ]);
  const ad = (dt: string, spend: number) => ({ store_id: shop.id, dt, source: 'meta', ad_id: 'm1', spend, impressions: 100, clicks: 1, version: 1 });
  await insertRows(t.stores, 'ads', [ad('2026-03-08', 500), ad('2026-03-10', 3000), ad('2026-03-11', 4000)]);
});

after(() => t.close());

const get = async (url: string) => {
  const { status, body } = await injectGet(t, url, shop.headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
};

describe('a local day of the row endpoints', () => {
  test('/v3/events: the day runs from local midnight to 23:59:59 local; rows keep UTC timestamps', async () => {
    const local = await get(`/v3/events?${MARCH_10}&${NY}`);
    assert.deepEqual(local.data.map((e: { dt: string }) => e.dt), ['2026-03-10 16:00:00', '2026-03-11 03:10:00']);
    assert.deepEqual([local.pagination.start_date, local.pagination.end_date], ['2026-03-10 04:00:00', '2026-03-11 03:59:59']);
    const utc = await get(`/v3/events?${MARCH_10}`);
    assert.deepEqual(utc.data.map((e: { dt: string }) => e.dt), ['2026-03-10 16:00:00']);
    assert.deepEqual([utc.pagination.start_date, utc.pagination.end_date], ['2026-03-10 00:00:00', '2026-03-10 23:59:59']);
  });

  test('/v3/sessions: the evening session belongs to the day it started on locally', async () => {
    const local = await get(`/v3/sessions?${MARCH_10}&${NY}`);
    assert.deepEqual(local.data.map((s: { session_id: string; session_start_dt: string }) => [s.session_id, s.session_start_dt]), [
      ['3', '2026-03-10 16:00:00'], ['1', '2026-03-11 03:10:00'],
    ]);
    assert.deepEqual((await get(`/v3/sessions?start_date=2026-03-11&end_date=2026-03-11&${NY}`)).data.map((s: { session_id: string }) => s.session_id), ['2']);
  });

  test('/v3/conversions rows: the New York evening order is on 10 March', async () => {
    const local = await get(`/v3/conversions?${MARCH_10}&${NY}`);
    assert.deepEqual(local.data.map((c: { transaction_id: string; dt: string }) => [c.transaction_id, c.dt]), [
      ['N1', '2026-03-10 16:10:00'], ['E1', '2026-03-11 03:30:00'],
    ]);
    assert.deepEqual((await get(`/v3/conversions?${MARCH_10}`)).data.map((c: { transaction_id: string }) => c.transaction_id), ['N1']);
  });

  test('/v3/conversions group_by=date: local dates, with the 23-hour day of the March change', async () => {
    const range = 'start_date=2026-03-08&end_date=2026-03-11&group_by=date';
    const row = (date: string, conversions: number, revenue: number) => ({ date, conversions, revenue, new_customers: 0, unique_customers: 0 });
    assert.deepEqual((await get(`/v3/conversions?${range}&${NY}`)).data, [
      row('2026-03-08', 2, 2100), row('2026-03-10', 2, 10000), row('2026-03-11', 1, 5000),
    ]);
    assert.deepEqual((await get(`/v3/conversions?${range}`)).data, [
      row('2026-03-08', 1, 1000), row('2026-03-09', 1, 1100), row('2026-03-10', 1, 2000), row('2026-03-11', 2, 13000),
    ]);
  });

  test('/v3/conversions group_by=date: the 25-hour day of the November change holds its repeated hour and its last hour', async () => {
    const range = 'start_date=2026-11-01&end_date=2026-11-02&group_by=date';
    const local = await get(`/v3/conversions?${range}&${NY}`);
    assert.deepEqual(local.data.map((r: { date: string; conversions: number }) => [r.date, r.conversions]), [['2026-11-01', 3]]);
    const rows = await get(`/v3/conversions?start_date=2026-11-01&end_date=2026-11-01&${NY}`);
    assert.deepEqual([rows.pagination.start_date, rows.pagination.end_date], ['2026-11-01 04:00:00', '2026-11-02 04:59:59']);
    const utc = await get(`/v3/conversions?${range}`);
    assert.deepEqual(utc.data.map((r: { date: string; conversions: number }) => [r.date, r.conversions]), [['2026-11-01', 2], ['2026-11-02', 1]]);
  });

  test('/v3/ads: a local day reads the ads rows of its own date; a timestamp range reads the local dates it spans', async () => {
    const spendOf = (body: { data: { dt: string; spend: string }[] }) => body.data.map((r) => [r.dt, r.spend]);
    assert.deepEqual(spendOf(await get(`/v3/ads?${MARCH_10}&${NY}`)), [['2026-03-10', '3000']]);
    // 02:00 to 03:00 UTC on 11 March is 22:00 to 23:00 on 10 March in New York.
    const evening = 'start_date=2026-03-11 02:00:00&end_date=2026-03-11 03:00:00';
    assert.deepEqual(spendOf(await get(`/v3/ads?${evening}&${NY}`)), [['2026-03-10', '3000']]);
    assert.deepEqual(spendOf(await get(`/v3/ads?${evening}`)), [['2026-03-11', '4000']]);
    assert.deepEqual((await get(`/v3/ads?start_date=2026-03-08&end_date=2026-03-11&${NY}`)).totals, { total_ads: 1, total_spend: 7500, total_impressions: 300, total_clicks: 3, total_reach: 0 });
  });

  test('/v3/export/conversions and /v3/export/ads: a download covers the same local day as the rows', async () => {
    const lines = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url, headers: shop.headers });
      assert.equal(response.statusCode, 200, response.body);
      return response.body.trim().split('\n').map((line) => JSON.parse(line));
    };
    const orders = await lines(`/v3/export/conversions?${MARCH_10}&${NY}`);
    assert.deepEqual(orders.map((c: { transaction_id: string }) => c.transaction_id), ['N1', 'E1']);
    const named = await t.app.inject({ method: 'GET', url: `/v3/export/ads?start_date=2026-03-10&end_date=2026-03-11&${NY}`, headers: shop.headers });
    assert.equal(named.headers['content-disposition'], 'attachment; filename="storelens-ads-2026-03-10_2026-03-11.ndjson"');
    const ads = await lines(`/v3/export/ads?${MARCH_10}&${NY}`);
    assert.deepEqual(ads.map((r: { dt: string; spend: string }) => [r.dt, r.spend]), [['2026-03-10', '3000']]);
  });

  test('a zone name is taken in any case and read in its canonical spelling', async () => {
    const body = await get(`/v3/conversions?${MARCH_10}&timezone=america/new_york`);
    assert.deepEqual(body.data.map((c: { transaction_id: string }) => c.transaction_id), ['N1', 'E1']);
  });

  test('without dates, the range is the 7 local days before today through the end of today', async () => {
    // Kiritimati is UTC+14 all year: its days run from 10:00 UTC to 09:59:59 UTC the next day.
    const { pagination } = await get('/v3/events?timezone=Pacific/Kiritimati');
    assert.match(pagination.start_date, / 10:00:00$/);
    assert.match(pagination.end_date, / 09:59:59$/);
    const days = (Date.parse(`${pagination.end_date.replace(' ', 'T')}Z`) + 1000 - Date.parse(`${pagination.start_date.replace(' ', 'T')}Z`)) / 86_400_000;
    assert.equal(days, 8);
  });
});

describe('/v3/report in a time zone', () => {
  const report = (query: string) => get(`/v3/report?metrics=conversions,revenue,spend,sessions&${query}`);
  const dated = (body: { data: { date: string; conversions: number }[] }) => body.data.map((r) => [r.date, r.conversions]);

  test('a local day: its conversions, its sessions and the ads rows of its date', async () => {
    const body = await report(`${MARCH_10}&${NY}`);
    assert.deepEqual(body.totals, { conversions: 2, revenue: 100, spend: 30, sessions: 2 });
    assert.deepEqual([body.pagination.start_date, body.pagination.end_date], ['2026-03-10 04:00:00', '2026-03-11 03:59:59']);
    assert.deepEqual((await report(MARCH_10)).totals, { conversions: 1, revenue: 20, spend: 30, sessions: 1 });
  });

  test('interval=day: local days, the 23-hour 8 March holding both its orders', async () => {
    const body = await report(`start_date=2026-03-08&end_date=2026-03-11&interval=day&${NY}`);
    assert.deepEqual(body.data, [
      { date: '2026-03-08', conversions: 2, revenue: 21, spend: 5, sessions: 0 },
      { date: '2026-03-10', conversions: 2, revenue: 100, spend: 30, sessions: 2 },
      { date: '2026-03-11', conversions: 1, revenue: 50, spend: 40, sessions: 1 },
    ]);
    assert.deepEqual(dated(await report('start_date=2026-03-08&end_date=2026-03-11&interval=day')), [
      ['2026-03-08', 1], ['2026-03-09', 1], ['2026-03-10', 1], ['2026-03-11', 2],
    ]);
  });

  test('interval=day: the 25-hour 1 November holds its repeated hour and its last hour', async () => {
    const body = await report(`start_date=2026-11-01&end_date=2026-11-01&interval=day&${NY}`);
    assert.deepEqual(dated(body), [['2026-11-01', 3]]);
    assert.deepEqual([body.pagination.start_date, body.pagination.end_date], ['2026-11-01 04:00:00', '2026-11-02 04:59:59']);
  });

  test('/v3/export/mmm: one record per local day, with the report\'s numbers of that day', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/v3/export/mmm?start_date=2026-03-08&end_date=2026-03-11&${NY}`, headers: shop.headers });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['content-disposition'], 'attachment; filename="storelens-mmm-2026-03-08_2026-03-11.csv"');
    const [header, ...records] = response.body.trim().split('\n').map((line) => line.split(','));
    const column = (name: string) => header!.indexOf(name);
    assert.deepEqual(records.map((r) => [r[column('date')], r[column('conversions')], r[column('meta_spend')]]), [
      ['2026-03-08', '2', '5.00'], ['2026-03-09', '0', '0.00'], ['2026-03-10', '2', '30.00'], ['2026-03-11', '1', '40.00'],
    ]);
  });

  test('Sydney: April\'s 25-hour day and October\'s 23-hour day are one bucket each', async () => {
    const sydney = 'timezone=Australia/Sydney&interval=day';
    const april = await report(`start_date=2026-04-05&end_date=2026-04-05&${sydney}`);
    assert.deepEqual(dated(april), [['2026-04-05', 2]]);
    assert.deepEqual([april.pagination.start_date, april.pagination.end_date], ['2026-04-04 13:00:00', '2026-04-05 13:59:59']);
    const october = await report(`start_date=2026-10-04&end_date=2026-10-04&${sydney}`);
    assert.deepEqual(dated(october), [['2026-10-04', 2]]);
    assert.deepEqual([october.pagination.start_date, october.pagination.end_date], ['2026-10-03 14:00:00', '2026-10-04 12:59:59']);
    assert.deepEqual(dated(await report('start_date=2026-04-04&end_date=2026-04-05&interval=day')), [['2026-04-04', 1], ['2026-04-05', 1]]);
  });

  test('interval=week: weeks start on the local Monday (Sunday evening in New York is Monday in UTC)', async () => {
    const range = 'start_date=2026-03-02&end_date=2026-03-15&interval=week';
    assert.deepEqual(dated(await report(`${range}&${NY}`)), [['2026-03-02', 2], ['2026-03-09', 3]]);
    assert.deepEqual(dated(await report(range)), [['2026-03-02', 1], ['2026-03-09', 4]]);
  });

  test('interval=month: the last evening of March stays in March', async () => {
    const range = 'start_date=2026-03-01&end_date=2026-04-30&interval=month';
    assert.deepEqual(dated(await report(`${range}&${NY}`)), [['2026-03-01', 6], ['2026-04-01', 2]]);
    assert.deepEqual(dated(await report(range)), [['2026-03-01', 5], ['2026-04-01', 3]]);
  });
});

describe('a name that is no time zone', () => {
  for (const path of ['/v3/events', '/v3/sessions', '/v3/conversions', '/v3/ads', '/v3/report', '/v3/export/events', '/v3/export/ads']) {
    test(`${path} answers 400 naming timezone`, async () => {
      for (const [value, shown] of [['Mars/Olympus', 'Mars/Olympus'], ['%2B02:00', '+02:00'], ['', ''], ['Europe%2F'.repeat(12), '(too long)']]) {
        const response = await injectGet(t, `${path}?timezone=${value}`, shop.headers);
        assert.deepEqual(response, { status: 400, body: { message: `Invalid timezone: ${shown}. Use an IANA time zone name such as Europe/Berlin` } });
      }
    });
  }
});
