/**
 * GET /v3/customers, `customers.get-ltv` and the dashboard's Customers view (in Chromium), against
 * a hand-computed fixture. Lifetime values depend on now, so the fixture sits at whole days from
 * it: D is the first day (UTC) of the month four months before this one, the range is D to D+9
 * and now is 119 to 153 days after D (every first order is 90 to 180 days old: ltv_30/60/90 are
 * known, ltv_180/365 null). Times are D + days and hours, UTC; window 7 days unless asked.
 *   Ann (customer id ann, visitors 1 and 2): meta session 101 (visitor 1, campaign spring) at +1d 10:00,
 *     google session 102 (visitor 2, campaign brand) at +2d 10:00; orders A1 100.00 at +2d 10:30
 *     (visitor 2, no customer id on it: one customer through the visitor), A2 50.00 at +12d 10:30,
 *     A3 30.00 at +40d 10:30 (month 1). First click: meta/spring; second order after 10 days.
 *   Ben (visitor 3): untagged session, B1 80.00 at +3d 09:20. Organic, one order.
 *   Cara (cara, visitor 4): a cancelled order C0 500.00 at -5d (no sale: she is new, not returning),
 *     google session (brand) at +4d 12:00, C1 120.00 at +4d 12:30, C2 60.00 at +74d 12:30 (month 2).
 *   Dan (dan, visitor 5): tiktok session at -30d 07:00, D1 40.00 at -30d 08:00; D2 70.00 at +5d
 *     08:00. Returning.
 *   Eve (visitor 7): tiktok session at +6d 10:00, E1 90.00 at +6d 10:10.
 *   Fay (visitor 8): meta session (campaign autumn) at +7d 15:00, F1 40.00 at +7d 15:30.
 *   Gus (visitor 9): G1 200.00 at 20 days before today, 12:00, no session (outside the range).
 * Hand-computed, range D..D+9 (cohort Ann, Ben, Cara, Eve, Fay; Dan returning):
 *   customers 6, new 5, returning 1, revenue 100+80+120+70+90+40 = 500; repeat 2/5 = 0.4;
 *   days to second: Ann 10, Cara 70 -> 40; ltv_30: Ann 150, Ben 80, Cara 120, Eve 90, Fay 40 -> 96;
 *   ltv_60: Ann 180 -> 102; ltv_90: Cara 180 -> 114.
 * A key with read:meta, read:google, read:organic does not see Eve's and Dan's tiktok first touch.
 * The workspace's zone is Asia/Tokyo (UTC+9; the data API still defaults to UTC): the range's days
 * are the same there except that Fay's order falls on D+8 at 00:30.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { DAY_MS, formatTimestamp } from '../../src/kit/calendar/days.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { callTool, toolOk } from '../mcp/rpc.ts';
import { launchChromium } from '../support/chromium.ts';
import { visibilityOf } from '../../src/analytics/permissions.ts';
import { prepareReport } from '../../src/analytics/report/run.ts';
import { resolveRange } from '../../src/kit/calendar/range.ts';
import { customerCohorts } from '../../src/analytics/queries/customers/customer-cohorts.ts';
import { createUser, signIn, signedInPage } from '../dashboard/helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let browser: Browser | undefined;
const ZONE = 'Asia/Tokyo';

const today = new Date();
/** D: the first day of the month four months before this one (UTC). */
const D = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 4, 1);
const HOUR_MS = 3_600_000;
const at = (days: number, hours = 0, minutes = 0) => formatTimestamp(D + days * DAY_MS + hours * HOUR_MS + minutes * 60_000);
const day = (days: number) => at(days).slice(0, 10);
const RANGE = `start_date=${day(0)}&end_date=${day(9)}`;

const nulls = { ltv_180: null, ltv_365: null };
const ANN = { new_customers: 1, repeat_rate: 1, avg_days_to_second_order: 10, ltv_30: 150, ltv_60: 180, ltv_90: 180, ...nulls };
const BEN = { new_customers: 1, repeat_rate: 0, avg_days_to_second_order: null, ltv_30: 80, ltv_60: 80, ltv_90: 80, ...nulls };
const CARA = { new_customers: 1, repeat_rate: 1, avg_days_to_second_order: 70, ltv_30: 120, ltv_60: 120, ltv_90: 180, ...nulls };
const EVE = { new_customers: 1, repeat_rate: 0, avg_days_to_second_order: null, ltv_30: 90, ltv_60: 90, ltv_90: 90, ...nulls };
const FAY = { new_customers: 1, repeat_rate: 0, avg_days_to_second_order: null, ltv_30: 40, ltv_60: 40, ltv_90: 40, ...nulls };
const COHORT = { new_customers: 5, repeat_rate: 0.4, avg_days_to_second_order: 40, ltv_30: 96, ltv_60: 102, ltv_90: 114, ...nulls };
const TOTALS = { customers: 6, returning_customers: 1, revenue: 500, ...COHORT };

function event(session: number, visitor: number, dt: string, extra: object = {}) {
  return { store_id: shop.id, dt, name: 'pageview', session_id: session, visitor_id: visitor, pathname: '/', ...extra };
}

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Cohorts');
  await updateSettings(t.stores.db, shop.id, { timezone: ZONE });
  const meta = (campaign: string) => ({ adv_source: 'facebook', adv_campaign_id: campaign });
  const google = { adv_source: 'google', adv_campaign_id: 'brand' };
  await insertRows(t.stores, 'events', [
    event(101, 1, at(1, 10), { ...meta('spring'), customer_id: 'ann' }),
    event(102, 2, at(2, 10), { ...google, customer_id: 'ann' }),
    event(103, 3, at(3, 9)),
    event(104, 4, at(4, 12), { ...google, customer_id: 'cara' }),
    event(105, 5, at(-30, 7), { adv_source: 'tiktok', customer_id: 'dan' }),
    event(106, 5, at(5, 7, 50), { customer_id: 'dan' }),
    event(107, 7, at(6, 10), { adv_source: 'tiktok' }),
    event(108, 8, at(7, 15), meta('autumn')),
  ]);
  const gus = formatTimestamp(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - 20 * DAY_MS + 12 * HOUR_MS);
  const orders: [string, string, number, number, string, number][] = [
    ['A1', at(2, 10, 30), 2, 102, '', 10_000],
    ['A2', at(12, 10, 30), 1, 0, 'ann', 5_000],
    ['A3', at(40, 10, 30), 1, 0, 'ann', 3_000],
    ['B1', at(3, 9, 20), 3, 103, '', 8_000],
    ['C0', at(-5, 12), 4, 0, 'cara', 50_000],
    ['C1', at(4, 12, 30), 4, 104, 'cara', 12_000],
    ['C2', at(74, 12, 30), 4, 0, 'cara', 6_000],
    ['D1', at(-30, 8), 5, 105, 'dan', 4_000],
    ['D2', at(5, 8), 5, 106, 'dan', 7_000],
    ['E1', at(6, 10, 10), 7, 107, '', 9_000],
    ['F1', at(7, 15, 30), 8, 108, '', 4_000],
    ['G1', gus, 9, 0, '', 20_000],
  ];
  await insertRows(t.stores, 'conversions', orders.map(([id, dt, visitor, session, customer, cents]) => ({
    store_id: shop.id, dt, name: 'purchase', session_id: session, visitor_id: visitor, customer_id: customer, transaction_id: id,
    transaction_gross_revenue: cents, transaction_currency: 'USD',
  })));
  await insertRows(t.stores, 'orders', [
    { store_id: shop.id, transaction_id: 'C0', dt: at(-5, 12), customer_id: 'cara', gross_revenue: 50_000, currency: 'USD', status: 'cancelled', version: 1 },
  ]);
});

after(async () => {
  await browser?.close();
  await t.close();
});

const get = (query: string, headers = shop.headers) => injectGet(t, `/v3/customers?${query}`, headers);

describe('GET /v3/customers', () => {
  test('without breakdown: one row, the cohort; the totals add the returning customer and the range\'s revenue', async () => {
    const { status, body } = await get(RANGE);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body, { data: [COHORT], totals: TOTALS });
  });

  test('by first source: Ann and Fay under meta, her second visitor joined; the cancelled order makes no returning customer of Cara', async () => {
    const { body } = await get(`${RANGE}&breakdown=first_source`);
    const meta = { new_customers: 2, repeat_rate: 0.5, avg_days_to_second_order: 10, ltv_30: 95, ltv_60: 110, ltv_90: 110, ...nulls };
    assert.deepEqual(body, {
      data: [
        { first_source: 'meta', ...meta },
        { first_source: 'google', ...CARA },
        { first_source: 'organic', ...BEN },
        { first_source: 'tiktok', ...EVE },
      ],
      totals: TOTALS,
    });
  });

  test('by first campaign, each with its source', async () => {
    const { body } = await get(`${RANGE}&breakdown=first_campaign`);
    assert.deepEqual(body.data, [
      { first_campaign: 'brand', first_source: 'google', ...CARA },
      { first_campaign: 'autumn', first_source: 'meta', ...FAY },
      { first_campaign: 'spring', first_source: 'meta', ...ANN },
      { first_campaign: '', first_source: 'organic', ...BEN },
      { first_campaign: '', first_source: 'tiktok', ...EVE },
    ]);
  });

  test('a one-day window: Ann\'s meta click 24.5 hours before her first order is out, her google click credited', async () => {
    const { body } = await get(`${RANGE}&breakdown=first_source&attribution_window=1`);
    const google = { new_customers: 2, repeat_rate: 1, avg_days_to_second_order: 40, ltv_30: 135, ltv_60: 150, ltv_90: 180, ...nulls };
    assert.deepEqual(body.data.map((r: { first_source: string }) => r.first_source), ['google', 'meta', 'organic', 'tiktok']);
    assert.deepEqual(body.data[0], { first_source: 'google', ...google });
  });

  test('by cohort month: revenue per customer for each month since the first order, up to this month', async () => {
    // Month 0: A1 A2 B1 C1 E1 F1 = 480 over 5; month 1: A3 30; month 2: C2 60; months 3 and 4 (this one) nothing.
    // Should the month turn during the run, the answer has one month more: the moment it was computed decides.
    const months = (ms: number) => new Date(ms).getUTCMonth() - new Date(D).getUTCMonth() + 12 * (new Date(ms).getUTCFullYear() - new Date(D).getUTCFullYear()) + 1;
    const upTo = (ms: number) => [96, 6, 12, ...new Array(months(ms) - 3).fill(0)];
    const asked = Date.now();
    const { body } = await get(`${RANGE}&breakdown=cohort_month`);
    const answered = Date.now();
    const row = { cohort_month: at(0).slice(0, 7), ...COHORT };
    assert.ok([upTo(asked), upTo(answered)].some((byMonth) => JSON.stringify(body.data) === JSON.stringify([{ ...row, revenue_by_month: byMonth }])), JSON.stringify(body.data));
  });

  test('from D to today: Gus (20 days old) is new but too young for any horizon', async () => {
    const { body } = await get(`start_date=${day(0)}&end_date=${formatTimestamp(Date.now()).slice(0, 10)}`);
    // Every order of the six plus D2: 100+50+30+80+120+60+70+90+40+200.
    assert.deepEqual(body.totals, {
      customers: 7, new_customers: 6, returning_customers: 1, revenue: 840,
      repeat_rate: 0.3333, avg_days_to_second_order: 40, ltv_30: 96, ltv_60: 102, ltv_90: 114, ...nulls,
    });
  });

  test('a key limited to meta, google and organic: Eve and Dan, first touched by tiktok, count nowhere', async () => {
    const headers = await shop.keyHeaders(['read:meta', 'read:google', 'read:organic']);
    const { status, body } = await get(`${RANGE}&breakdown=first_source`, headers);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.data.map((r: { first_source: string }) => r.first_source), ['meta', 'google', 'organic']);
    assert.deepEqual(body.totals, {
      customers: 4, new_customers: 4, returning_customers: 0, revenue: 340,
      repeat_rate: 0.5, avg_days_to_second_order: 40, ltv_30: 97.5, ltv_60: 105, ltv_90: 120, ...nulls,
    });
  });
});

describe('GET /v3/customers: refusals', () => {
  test('a bad breakdown, window, range or parameter is a 400 with the contract\'s message; a key without pixel data a 403; POST a 405', async () => {
    const badDate = await injectGet(t, '/v3/report?start_date=2026-13-01', shop.headers);
    const cases: [string, string][] = [
      [`${RANGE}&breakdown=source`, 'Invalid breakdown: source. Accepted values: first_source, first_campaign, cohort_month'],
      [`${RANGE}&attribution_window=5`, 'Invalid attribution_window: 5. Accepted values: 1, 7, 28, 90, 180, 365'],
      [`start_date=${day(9)}&end_date=${day(0)}`, 'start_date must be before end_date'],
      [`${RANGE}&metrics=revenue`, 'Unknown parameter: metrics'],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await get(query);
      assert.deepEqual([status, body], [400, { message }], query);
    }
    assert.deepEqual(await get('start_date=2026-13-01'), { status: 400, body: badDate.body });
    const zone = await get(`${RANGE}&timezone=Mars/Base`);
    assert.deepEqual(zone, { status: 400, body: (await injectGet(t, '/v3/report?timezone=Mars/Base', shop.headers)).body });
    const profitOnly = await get(RANGE, await shop.keyHeaders(['read:profit']));
    assert.deepEqual(profitOnly, { status: 403, body: { message: 'You do not have access to pixel data' } });
    const post = await t.app.inject({ method: 'POST', url: `/v3/customers?${RANGE}`, headers: shop.headers });
    assert.equal(post.statusCode, 405);
  });
});

describe('customers.get-ltv', () => {
  test('the same rows and totals as /v3/customers in the workspace\'s zone, which it reads by default', async () => {
    for (const breakdown of [undefined, 'first_source', 'first_campaign', 'cohort_month'] as const) {
      const args = { date_from: day(0), date_to: day(7), ...(breakdown ? { breakdown } : {}) };
      const { customers } = await toolOk(t.app, shop.headers, 'customers.get-ltv', args);
      const http = await get(`start_date=${day(0)}&end_date=${day(7)}&timezone=${ZONE}${breakdown ? `&breakdown=${breakdown}` : ''}`);
      assert.deepEqual([customers.rows, customers.totals], [http.body.data, http.body.totals], breakdown);
      assert.deepEqual({ ...customers, rows: undefined, totals: undefined }, {
        date_from: day(0), date_to: day(7), timezone: ZONE, currency: 'USD', breakdown: breakdown ?? null, attribution_window: 7,
        conversion_names: ['*'], rows: undefined, totals: undefined,
      });
    }
  });

  test('Tokyo\'s D to D+7 leaves Fay out (her order is at 00:30 on D+8 there); in UTC she is in', async () => {
    const tokyo = await toolOk(t.app, shop.headers, 'customers.get-ltv', { date_from: day(0), date_to: day(7) });
    const utc = await toolOk(t.app, shop.headers, 'customers.get-ltv', { date_from: day(0), date_to: day(7), timezone: 'UTC' });
    assert.deepEqual([tokyo.customers.totals.new_customers, utc.customers.totals.new_customers], [4, 5]);
  });

  test('arguments outside the schema are -32602', async () => {
    for (const args of [{ breakdown: 'source' }, { attribution_window: 5 }, { date_from: 'May 1' }, { limit: 5 }]) {
      assert.equal((await callTool(t.app, shop.headers, 'customers.get-ltv', args)).error?.code, -32602, JSON.stringify(args));
    }
  });
});

describe('the dashboard\'s Customers view', () => {
  test('its endpoint answers /v3/customers\'s numbers on the workspace\'s calendar', async () => {
    await createUser(t, 'ada@example.com', shop.id);
    const ada = await signIn(t, 'ada@example.com');
    const { status, body } = await ada.get(`/dashboard/api/customers?workspace=${shop.id}&start_date=${day(0)}&end_date=${day(7)}&breakdown=first_source`);
    assert.equal(status, 200, JSON.stringify(body));
    const http = await get(`start_date=${day(0)}&end_date=${day(7)}&timezone=${ZONE}&breakdown=first_source`);
    assert.deepEqual(body, {
      data: http.body.data, totals: http.body.totals, breakdown: 'first_source', attribution_window: 7, conversion_names: ['*'],
      range: { start_date: day(0), end_date: day(7), timezone: ZONE },
    });
  });

  test('in Chromium: the cohort heat map by first source with the numbers of /v3/customers, the darkest cell the largest', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    const errors: string[] = [];
    const page = await signedInPage(browser, `${base}/customers?workspace=${shop.id}&${RANGE}&breakdown=first_source`, 'ada@example.com', errors);
    await page.waitForSelector('[data-testid="cohort-table"] tbody tr');
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Customers');
    const cells = async (selector: string) => (await page.locator(selector).allInnerTexts()).map((row) => row.split('\t').map((c) => c.trim()));
    assert.deepEqual((await cells('[data-testid="cohort-table"] thead tr'))[0], [
      'First source', 'New customers', 'Repeat rate', 'Days to 2nd order', 'LTV 30 d', 'LTV 60 d', 'LTV 90 d', 'LTV 180 d', 'LTV 365 d',
    ]);
    assert.deepEqual(await cells('[data-testid="cohort-table"] tbody tr'), [
      ['meta', '2', '50.00 %', '10', '$95.00', '$110.00', '$110.00', '–', '–'],
      ['google', '1', '100.00 %', '70', '$120.00', '$120.00', '$180.00', '–', '–'],
      ['organic', '1', '0.00 %', '–', '$80.00', '$80.00', '$80.00', '–', '–'],
      ['tiktok', '1', '0.00 %', '–', '$90.00', '$90.00', '$90.00', '–', '–'],
    ]);
    assert.deepEqual(await cells('[data-testid="cohort-table"] tfoot tr'), [
      ['All new customers', '5', '40.00 %', '40', '$96.00', '$102.00', '$114.00', '–', '–'],
    ]);
    // LTV 90 d: Google's 180.00 is the column's largest, organic's 80.00 is shaded less, an unknown value not at all.
    const shade = (row: number, column: number) => page.locator(`[data-testid="cohort-table"] tbody tr:nth-child(${row}) td:nth-of-type(${column})`).getAttribute('style');
    assert.match((await shade(2, 6))!, /color-mix\(in srgb, var\(--accent\) 55%/);
    assert.match((await shade(3, 6))!, /color-mix\(in srgb, var\(--accent\) 24%/);
    assert.equal(await shade(1, 7), null);
    assert.deepEqual(
      (await page.locator('.kpi .kpi-value').allInnerTexts()),
      ['6', '5', '1', '$500.00'],
    );
    assert.equal(await page.getByTestId('counted-names').textContent(), 'Orders are the sales among the conversions named * (every name).');
    assert.deepEqual(errors, []);
  });
});

describe('the counted conversion names (the query\'s parameter)', () => {
  test('only orders of a matching name count: a lead before the purchase makes no repeat buyer, and `_` is no wildcard', async () => {
    const names = await createTestWorkspace(t.stores, 'Names');
    const conversion = (visitor: number, name: string, dt: string, cents: number) => ({
      store_id: names.id, dt, name, session_id: visitor, visitor_id: visitor, transaction_id: `${name}-${visitor}`, transaction_gross_revenue: cents,
    });
    await insertRows(t.stores, 'conversions', [
      conversion(1, 'lead', at(1, 9), 0), conversion(1, 'purchase', at(3, 9), 5_000),
      conversion(2, 'order_paid', at(2, 9), 2_000), conversion(3, 'orderXpaid', at(2, 9), 3_000),
    ]);
    const { plan } = await prepareReport(t.stores, { workspaceId: names.id, visibility: visibilityOf(['admin:admin']) },
      resolveRange({ start_date: day(0), end_date: day(9) }), { attribution_model: 'first_click' });
    const cohort = async (countedNames: string[]) => {
      const [group] = await customerCohorts(t.stores.ch, { plan, breakdown: null, countedNames, nowMs: Date.now() });
      return [group!.customers, group!.repeaters, group!.range_cents];
    };
    assert.deepEqual(await cohort(['*']), [3, 1, 10_000]);
    assert.deepEqual(await cohort(['purchase', 'order_*']), [2, 0, 7_000]);
  });
});

describe('the counted conversion names (the workspace\'s setting)', () => {
  test('/v3/customers and customers.get-ltv count the names conversion_names counts: every name by default, then purchases only', async () => {
    const names = await createTestWorkspace(t.stores, 'Counted names');
    const conversion = (name: string, dt: string, cents: number) => ({
      store_id: names.id, dt, name, session_id: 1, visitor_id: 1, transaction_id: `${name}-1`, transaction_gross_revenue: cents,
    });
    await insertRows(t.stores, 'conversions', [conversion('lead', at(1, 9), 0), conversion('purchase', at(3, 9), 5_000)]);
    const ask = async () => {
      const { status, body } = await get(RANGE, names.headers);
      assert.equal(status, 200, JSON.stringify(body));
      const { customers } = await toolOk(t.app, names.headers, 'customers.get-ltv', { date_from: day(0), date_to: day(9), timezone: 'UTC' });
      assert.deepEqual({ rows: customers.rows, totals: customers.totals }, { rows: body.data, totals: body.totals });
      return { names: customers.conversion_names, repeat: body.totals.repeat_rate, days: body.totals.avg_days_to_second_order, revenue: body.totals.revenue };
    };
    // The lead is the first order of every name; the purchase two days later its second.
    assert.deepEqual(await ask(), { names: ['*'], repeat: 1, days: 2, revenue: 50 });
    await updateSettings(t.stores.db, names.id, { conversion_names: ['purchase'] });
    assert.deepEqual(await ask(), { names: ['purchase'], repeat: 0, days: null, revenue: 50 });
  });
});
