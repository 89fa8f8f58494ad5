/**
 * GET /v3/reconciliation, `reconciliation.get-data` and the dashboard's "Storelens vs shop" view
 * (in Chromium): per local day, the shop's orders beside the
 * report, every difference named, unexplained_revenue 0 when the books agree.
 * Fixture (workspace "Books" in America/New_York, UTC-4 in May; unattributed orders included;
 * excluded_transaction_ids [E1]), stored orders and the pixel purchases that name them, times UTC:
 *   05-10 (New York):
 *     S1 sale 100.00 at 14:00, refunded 10.00; purchase S1 100.00 (matched)
 *     S2 sale 50.00 named #2002 at 05-11 02:00 (22:00 on 05-10 in New York); purchase #2002 of
 *        45.00 (matched by name; the pixel saw 5.00 less than the shop)
 *     U1 sale 40.00 at 15:00, no purchase (unmatched, an unattributed row)
 *     C1 cancelled 30.00 at 15:30; purchase C1 30.00 (no sale: the report leaves both out)
 *     X1 test 20.00 at 16:00
 *     E1 sale 25.00 at 16:30, excluded; purchase E1 25.00
 *   05-11 (New York): U2 sale 60.00 at 18:00, no purchase; a purchase N1 15.00 at 19:00 that
 *     names no stored order (pixel-only)
 *   and conversions that are no orders: a lead at 05-10 17:00 (no transaction id) and a subscribe
 *   SU-1 of 5.00 at 05-11 19:30 (naming no order): in no figure of the reconciliation
 * Hand-computed, New York days:
 *   05-10: shop 5 orders (S1, S2, U1, C1, E1) and 215.00 (C1 left out), cancelled 1 / 30.00,
 *          test 1, refunds 10.00, matched 2 / 150.00, unmatched 1 / 40.00, excluded 1; the report
 *          3 conversions, 185.00 (100 + 45 + 40); expected 190.00, so unexplained -5.00
 *   05-11: shop 1 / 60.00, unmatched 1 / 60.00, pixel-only 1 / 15.00; the report 2, 75.00
 * Dashboard members: ada owns the workspace, mel views it with read:meta only.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { toolOk } from '../mcp/rpc.ts';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { createUser, signIn, signedInPage } from '../dashboard/helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
const ZONE = 'America/New_York';
const RANGE = `start_date=2026-05-10&end_date=2026-05-11&timezone=${ZONE}`;

const zero = {
  shop_orders: 0, shop_revenue: 0, cancelled_orders: 0, cancelled_revenue: 0, test_orders: 0, refunds: 0, matched_orders: 0,
  matched_revenue: 0, unmatched_orders: 0, unmatched_revenue: 0, pixel_only_conversions: 0, pixel_only_revenue: 0,
  excluded_orders: 0, report_conversions: 0, report_revenue: 0, unexplained_revenue: 0,
};
const MAY_10 = {
  ...zero, shop_orders: 5, shop_revenue: 215, cancelled_orders: 1, cancelled_revenue: 30, test_orders: 1, refunds: 10,
  matched_orders: 2, matched_revenue: 150, unmatched_orders: 1, unmatched_revenue: 40, excluded_orders: 1,
  report_conversions: 3, report_revenue: 185, unexplained_revenue: -5,
};
const MAY_11 = {
  ...zero, shop_orders: 1, shop_revenue: 60, unmatched_orders: 1, unmatched_revenue: 60, pixel_only_conversions: 1, pixel_only_revenue: 15,
  report_conversions: 2, report_revenue: 75,
};
const TOTALS = {
  shop_orders: 6, shop_revenue: 275, cancelled_orders: 1, cancelled_revenue: 30, test_orders: 1, refunds: 10, matched_orders: 2,
  matched_revenue: 150, unmatched_orders: 2, unmatched_revenue: 100, pixel_only_conversions: 1, pixel_only_revenue: 15,
  excluded_orders: 1, report_conversions: 5, report_revenue: 260, unexplained_revenue: -5,
};

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Books');
  await updateSettings(t.stores.db, shop.id, { include_unattributed: true, excluded_transaction_ids: ['E1'], timezone: ZONE });
  const order = (transaction_id: string, dt: string, cents: number, status: string, extra: object = {}) => ({
    store_id: shop.id, transaction_id, dt, gross_revenue: cents, currency: 'USD', status, version: 1, ...extra,
  });
  await insertRows(t.stores, 'orders', [
    order('S1', '2026-05-10 14:00:00', 10_000, 'sale', { refunds: [{ dt: '2026-05-12 09:00:00', amount: 1_000 }] }),
    order('S2', '2026-05-11 02:00:00', 5_000, 'sale', { order_name: '#2002' }),
    order('U1', '2026-05-10 15:00:00', 4_000, 'sale'),
    order('C1', '2026-05-10 15:30:00', 3_000, 'cancelled'),
    order('X1', '2026-05-10 16:00:00', 2_000, 'test'),
    order('E1', '2026-05-10 16:30:00', 2_500, 'sale'),
    order('U2', '2026-05-11 18:00:00', 6_000, 'sale'),
  ]);
  const purchases: [string, string, number][] = [
    ['S1', '2026-05-10 14:00:30', 10_000], ['#2002', '2026-05-11 02:00:30', 4_500], ['C1', '2026-05-10 15:30:30', 3_000],
    ['E1', '2026-05-10 16:30:30', 2_500], ['N1', '2026-05-11 19:00:00', 1_500],
  ];
  await insertRows(t.stores, 'conversions', purchases.map(([id, dt, cents], i) => ({
    store_id: shop.id, dt, name: 'purchase', session_id: 500 + i, visitor_id: 500 + i, transaction_id: id,
    transaction_gross_revenue: cents, transaction_currency: 'USD',
  })));
  await insertRows(t.stores, 'conversions', [
    { store_id: shop.id, dt: '2026-05-10 17:00:00', name: 'lead', session_id: 600, visitor_id: 600 },
    { store_id: shop.id, dt: '2026-05-11 19:30:00', name: 'subscribe', session_id: 601, visitor_id: 601, transaction_id: 'SU-1', transaction_gross_revenue: 500 },
  ]);
});
after(async () => {
  await browser?.close();
  await t.close();
});
let browser: Browser | undefined;

const get = (query: string, headers = shop.headers) => injectGet(t, `/v3/reconciliation?${query}`, headers);

describe('GET /v3/reconciliation', () => {
  test('per New York day: the shop, the report and every difference, hand-computed', async () => {
    const { status, body } = await get(RANGE);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body, { data: [{ date: '2026-05-10', ...MAY_10 }, { date: '2026-05-11', ...MAY_11 }], totals: TOTALS });
  });

  test('report_* equal /v3/report\'s totals of purchases for the day; the lead and the subscribe count in the report, never as pixel-only orders', async () => {
    const everything = await injectGet(t, `/v3/report?${RANGE}&metrics=conversions,revenue`, shop.headers);
    assert.deepEqual(everything.body.totals, { conversions: TOTALS.report_conversions + 2, revenue: TOTALS.report_revenue + 5 });
    for (const [day, want] of [['2026-05-10', MAY_10], ['2026-05-11', MAY_11]] as const) {
      const report = await injectGet(t, `/v3/report?start_date=${day}&end_date=${day}&timezone=${ZONE}&metrics=conversions,revenue&name=purchase`, shop.headers);
      assert.deepEqual(report.body.totals, { conversions: want.report_conversions, revenue: want.report_revenue }, day);
    }
  });

  test('in UTC the order S2 placed at 02:00 falls on 05-11, and a day with nothing is a row of zeros', async () => {
    const { body } = await get('start_date=2026-05-09&end_date=2026-05-11');
    assert.deepEqual(body.data.map((d: { date: string; shop_orders: number; matched_orders: number }) => [d.date, d.shop_orders, d.matched_orders]),
      [['2026-05-09', 0, 0], ['2026-05-10', 4, 1], ['2026-05-11', 2, 1]]);
    assert.deepEqual(body.data[0], { date: '2026-05-09', ...zero });
  });

  test('with refunds netted the report and what it should be both drop by the refund', async () => {
    await updateSettings(t.stores.db, shop.id, { refund_netting: true });
    try {
      const { body } = await get(RANGE);
      assert.deepEqual([body.data[0].report_revenue, body.data[0].unexplained_revenue], [175, -5]);
    } finally {
      await updateSettings(t.stores.db, shop.id, { refund_netting: false });
    }
  });

  test('refusals: a key that does not see every channel, an unknown zone, a range past 366 days, an unknown parameter', async () => {
    const meta = await get(RANGE, await shop.keyHeaders(['read:meta']));
    assert.deepEqual([meta.status, meta.body], [403, { message: 'You do not have access to the reconciliation: it needs an admin:admin key' }]);
    const cases: [string, string][] = [
      ['start_date=2026-05-10&end_date=2026-05-11&timezone=Mars/Base', (await injectGet(t, '/v3/report?timezone=Mars/Base', shop.headers)).body.message],
      ['start_date=2025-01-01&end_date=2026-01-02', 'The reconciliation covers at most 366 days: narrow start_date and end_date'],
      ['start_date=2026-05-11&end_date=2026-05-10', 'start_date must be before end_date'],
      [`${RANGE}&breakdown=source`, 'Unknown parameter: breakdown'],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await get(query);
      assert.deepEqual([status, body], [400, { message }], query);
    }
  });
});

describe('health-center.get-summary', () => {
  test('its match rate: the sale orders the report counts that a pixel purchase names (2 of S1, S2, U1, U2); the newest conversion is the subscribe', async () => {
    const { health } = await toolOk(t.app, shop.headers, 'health-center.get-summary', { date_from: '2026-05-10', date_to: '2026-05-11', timezone: ZONE });
    assert.deepEqual(health.conversion_matching, {
      status: 'warning', orders: 4, orders_with_purchase: 2, match_rate: 0.5, last_conversion_at: '2026-05-11 19:30:00',
    });
  });
});

describe('reconciliation.get-data', () => {
  test('the same figures, on the workspace\'s calendar by default', async () => {
    const result = await toolOk(t.app, shop.headers, 'reconciliation.get-data', { date_from: '2026-05-10', date_to: '2026-05-11' });
    assert.deepEqual(result, {
      reconciliation: {
        date_from: '2026-05-10', date_to: '2026-05-11', timezone: ZONE, currency: 'USD',
        days: [{ date: '2026-05-10', ...MAY_10 }, { date: '2026-05-11', ...MAY_11 }], totals: TOTALS,
        settings_applied: { conversion_names: ['purchase'] },
      },
    });
  });
});

describe('the dashboard\'s "Storelens vs shop" view', () => {
  test('its endpoint answers the same figures on the workspace\'s calendar; a member limited to some channels is refused', async () => {
    await createUser(t, 'ada@example.com', shop.id);
    await createUser(t, 'mel@example.com', shop.id, ['--role', 'viewer', '--scopes', 'read:meta']);
    const ada = await signIn(t, 'ada@example.com');
    const { status, body } = await ada.get(`/dashboard/api/reconciliation?workspace=${shop.id}&start_date=2026-05-10&end_date=2026-05-11`);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body, {
      data: [{ date: '2026-05-10', ...MAY_10 }, { date: '2026-05-11', ...MAY_11 }], totals: TOTALS, range: { start_date: '2026-05-10', end_date: '2026-05-11', timezone: ZONE },
      settings_applied: { conversion_names: ['purchase'] },
    });
    const mel = await signIn(t, 'mel@example.com');
    const refused = await mel.get(`/dashboard/api/reconciliation?workspace=${shop.id}&start_date=2026-05-10&end_date=2026-05-11`);
    assert.deepEqual([refused.status, refused.body], [403, { message: 'You do not have access to the reconciliation: it needs an admin:admin key' }]);
  });

  test('in Chromium: one row per New York day, every difference named, the unexplained 5.00 said, the zone shown', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    const errors: string[] = [];
    const page = await signedInPage(browser, `${base}/books?workspace=${shop.id}&start_date=2026-05-10&end_date=2026-05-11`, 'ada@example.com', errors);
    await page.waitForSelector('tbody tr');
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Storelens vs shop');
    assert.equal(await page.getByTestId('time-zone').textContent(), `Time zone: ${ZONE}`);
    const cells = async (selector: string) => (await page.locator(selector).allInnerTexts()).map((row) => row.split('\t').map((c) => c.trim()));
    assert.deepEqual((await cells('thead tr'))[0], [
      'Day', 'Shop orders', 'Shop revenue', 'Cancelled', 'Cancelled revenue', 'Test orders', 'Refunds', 'Matched', 'Matched revenue', 'Unmatched',
      'Unmatched revenue', 'Pixel only', 'Pixel-only revenue', 'Excluded ids', 'Storelens conversions', 'Storelens revenue', 'Unexplained',
    ]);
    assert.deepEqual(await cells('tbody tr'), [
      ['2026-05-10', '5', '$215.00', '1', '$30.00', '1', '$10.00', '2', '$150.00', '1', '$40.00', '0', '$0.00', '1', '3', '$185.00', '-$5.00'],
      ['2026-05-11', '1', '$60.00', '0', '$0.00', '0', '$0.00', '0', '$0.00', '1', '$60.00', '1', '$15.00', '0', '2', '$75.00', '$0.00'],
    ]);
    assert.deepEqual(await cells('tfoot tr'), [
      ['Total', '6', '$275.00', '1', '$30.00', '1', '$10.00', '2', '$150.00', '2', '$100.00', '1', '$15.00', '1', '5', '$260.00', '-$5.00'],
    ]);
    assert.equal(await page.getByTestId('books-verdict').textContent(),
      '-$5.00 of Storelens revenue from 2026-05-10 to 2026-05-11 is not explained by the named differences.');
    assert.equal(await page.getByTestId('counted-names').textContent(), 'Conversions counted: purchase');
    assert.deepEqual(errors, []);
  });
});
