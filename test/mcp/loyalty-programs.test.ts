/**
 * Loyalty programs end to end: set up with the CLI (`loyalty create`), read with
 * loyalty.get-programs, whose members and points are hand-counted from the sale orders.
 * Fixture (workspace "Loyalty", UTC; days counted back from today):
 *   customer A: sale orders of 100.50 (12 days ago), 40.25 (3 days ago) and 9.99 (1 day ago);
 *   customer B: a sale order of 20.00 (20 days ago) and a cancelled one of 500.00 (2 days ago);
 *   customer C: a test order of 70.00 (2 days ago); an order without a customer of 90.00 (2 days ago).
 * "Points" starts 10 days ago at 2 points per unit: only A is a member, with 40.25 + 9.99 = 50.24
 * spent, so floor(50.24 * 2) = 100 points. "Everyone" starts 30 days ago at 1 point per unit:
 * A (150.74 -> 150) and B (20.00 -> 20) are members, 170 points over 170.74 of revenue.
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

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Loyalty');
  const order = (transaction_id: string, customer_id: string, offset: number, cents: number, status = 'sale') => ({
    store_id: ws.id, transaction_id, customer_id, dt: `${day(offset)} 12:00:00`, gross_revenue: cents, status, version: 1,
  });
  await insertRows(t.stores, 'orders', [
    order('a1', 'A', -12, 10_050), order('a2', 'A', -3, 4_025), order('a3', 'A', -1, 999),
    order('b1', 'B', -20, 2_000), order('b2', 'B', -2, 50_000, 'cancelled'),
    order('c1', 'C', -2, 7_000, 'test'), order('x1', '', -2, 9_000),
  ]);
});
after(() => t.close());

const create = (...options: string[]) => cli(t, ['loyalty', 'create', '--workspace', String(ws.id), ...options]);

describe('loyalty programs', () => {
  test('the CLI sets programs up and loyalty.get-programs counts their members and points from the sale orders', async () => {
    const outcome = await create('--name', 'Points', '--points-per-unit', '2', '--start', day(-10));
    assert.ok('result' in outcome, JSON.stringify(outcome));
    await create('--name', 'Everyone', '--points-per-unit', '1', '--start', day(-30));
    await create('--name', 'Next month', '--points-per-unit', '5', '--start', day(30));
    const { programs } = await toolOk(t.app, ws.headers, 'loyalty.get-programs', {});
    assert.deepEqual(programs.map(({ id: _, created_at: __, updated_at: ___, ...rest }: Record<string, unknown>) => rest), [
      { name: 'Points', points_per_unit: 2, start_date: day(-10), members: 1, points_earned: 100, revenue: 50.24 },
      { name: 'Everyone', points_per_unit: 1, start_date: day(-30), members: 2, points_earned: 170, revenue: 170.74 },
      { name: 'Next month', points_per_unit: 5, start_date: day(30), members: 0, points_earned: 0, revenue: 0 },
    ]);
  });

  test('the CLI refuses a rate that is not a whole number from 1 to 1000 and a malformed day', async () => {
    const refusal = async (...options: string[]) => {
      const outcome = await create('--name', 'Bad', ...options);
      return 'error' in outcome ? (outcome.error as { message: string }).message : JSON.stringify(outcome);
    };
    assert.equal(await refusal('--points-per-unit', '0', '--start', day(0)), 'points_per_unit must be a whole number from 1 to 1000');
    assert.equal(await refusal('--points-per-unit', '1.5', '--start', day(0)), 'points_per_unit must be a whole number from 1 to 1000');
    assert.equal(await refusal('--points-per-unit', '2', '--start', '2026-02-30'), 'start_date must be a calendar day YYYY-MM-DD');
  });
});
