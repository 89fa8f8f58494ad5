/**
 * Geo tests end to end: set up with the CLI (`geo-test create`), read with geo-testing.get-tests,
 * on generated days whose lift is known by construction.
 * Fixture (workspace "Geo", UTC): the test "Free shipping" treats DE against the control FR from 14
 * days ago until 5 days ahead, compared over the 14 days before. Each day one sale in each country
 * at noon: FR 80.00; DE 100.00 plus a wobble of +10.00 on even days and -10.00 on odd days (day
 * index within its period). During the test a season adds 5.00 to both, and the treatment adds
 * 30.00 to DE: the lift per day is 30.00 by construction. A second test starts in 3 days.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { toolOk } from './rpc.ts';
import { cli } from '../dashboard/helpers.ts';

let t: TestApp;
let ws: TestWorkspace;

const DAY = 86_400_000;
const today = Date.parse(new Date().toISOString().slice(0, 10));
const day = (offset: number) => new Date(today + offset * DAY).toISOString().slice(0, 10);
const LIFT = 30, SEASON = 5, WOBBLE = 10, DAYS = 14;

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Geo');
  const sale = (offset: number, country: string, amount: number) => ({
    store_id: ws.id, dt: `${day(offset)} 12:00:00.000`, name: 'purchase', session_id: 1000 + offset * 2 + (country === 'DE' ? 0 : 1) + 100,
    visitor_id: 1, transaction_id: `${country}${offset}`, transaction_gross_revenue: Math.round(amount * 100), transaction_country_code: country,
  });
  const rows = [];
  for (let i = 0; i < DAYS; i++) {
    const wobble = i % 2 === 0 ? WOBBLE : -WOBBLE;
    rows.push(sale(-2 * DAYS + i, 'DE', 100 + wobble), sale(-2 * DAYS + i, 'FR', 80));
    rows.push(sale(-DAYS + i, 'DE', 100 + SEASON + LIFT + wobble), sale(-DAYS + i, 'FR', 80 + SEASON));
  }
  await insertRows(t.stores, 'conversions', rows);
});
after(() => t.close());

const create = (...options: string[]) => cli(t, ['geo-test', 'create', '--workspace', String(ws.id), ...options]);

describe('geo tests', () => {
  test('the CLI sets a test up and geo-testing.get-tests reads its lift with the difference-in-differences interval', async () => {
    const outcome = await create('--name', 'Free shipping', '--treatment', 'de', '--control', 'FR', '--start', day(-DAYS), '--end', day(5), '--pre-days', String(DAYS));
    assert.ok('result' in outcome, JSON.stringify(outcome));
    await create('--name', 'Later', '--treatment', 'AT', '--control', 'CH', '--start', day(3), '--end', day(10));
    const { tests } = await toolOk(t.app, ws.headers, 'geo-testing.get-tests', {});
    // Hand-derived: the daily gaps DE - FR are 20 +- 10 before and 50 +- 10 during, 7 of each sign,
    // so each period's sample variance is 14 * 10^2 / 13 and the standard error sqrt(2 * variance / 14).
    const se = Math.sqrt((2 * ((DAYS * WOBBLE ** 2) / (DAYS - 1))) / DAYS);
    const cents = (v: number) => Math.round(v * 100) / 100;
    assert.deepEqual(tests.map(({ id: _, created_at: __, updated_at: ___, ...rest }: Record<string, unknown>) => rest), [
      {
        name: 'Free shipping', level: 'country', treatment: ['DE'], control: ['FR'], start_date: day(-DAYS), end_date: day(5), pre_days: DAYS,
        status: 'running',
        results: {
          method: 'difference_in_differences', pre_days: DAYS, test_days: DAYS,
          daily_revenue: { treatment_before: 100, treatment_during: 100 + SEASON + LIFT, control_before: 80, control_during: 80 + SEASON },
          lift_per_day: LIFT,
          interval_95: [cents(LIFT - 1.959963984540054 * se), cents(LIFT + 1.959963984540054 * se)],
          lift_total: LIFT * DAYS,
          relative_lift: Math.round((LIFT / (100 + SEASON)) * 10_000) / 10_000,
        },
      },
      {
        name: 'Later', level: 'country', treatment: ['AT'], control: ['CH'], start_date: day(3), end_date: day(10), pre_days: 28,
        status: 'scheduled', results: null, note: 'Results need two complete days of the test',
      },
    ]);
  });

  test('the CLI refuses a region in both groups, a malformed country, an end before the start', async () => {
    const refusal = async (...options: string[]) => {
      const outcome = await create('--name', 'Bad', '--start', day(1), '--end', day(9), ...options);
      return 'error' in outcome ? (outcome.error as { message: string }).message : JSON.stringify(outcome);
    };
    assert.equal(await refusal('--treatment', 'DE,FR', '--control', 'fr'), 'FR is in both treatment and control');
    assert.equal(await refusal('--treatment', 'Germany', '--control', 'FR'), 'country regions are two-letter country codes, not "GERMANY"');
    assert.equal(await create('--name', 'Bad', '--treatment', 'DE', '--control', 'FR', '--start', day(9), '--end', day(1)).then((o) => ('error' in o ? (o.error as { message: string }).message : '')),
      'end_date must not be before start_date');
  });
});
