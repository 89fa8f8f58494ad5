/**
 * The report bench's hand-written baseline applies the report's rules (bench/suites/report.ts):
 * on the bench's own seed at a small size, which has cancelled, test and pending orders, orders
 * that change status in a newer version, purchases naming their order by name, and excluded
 * transactions, the equal-rules query gives the report's rows in every last_click case, and the
 * loose query of the earlier rounds does not (the rules change the numbers on this data).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { benchSizes, seedAnalytics } from '../../bench/seed.ts';
import { baselineMismatches, benchExcludedIds, reportCases, type ReportGet } from '../../bench/suites/report.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';

let t: TestApp;
let shop: TestWorkspace;
let excluded: string[];

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  await seedAnalytics(t.stores.ch, [shop.id], benchSizes(40_000, [1], true));
  excluded = await benchExcludedIds(t.stores.ch, shop.id);
  await updateSettings(t.stores.db, shop.id, { excluded_transaction_ids: excluded });
});
after(() => t.close());

const get: ReportGet = async (query) => {
  const { status, body } = await injectGet(t, `/v3/report?${query}`, shop.headers);
  assert.equal(status, 200, JSON.stringify(body));
  return { data: body.data, pagination: body.pagination };
};

const lastClickCases = () => reportCases().filter((c) => !c.url.includes('attribution_model='));

test('the seed has orders that are no sale, status changes, purchases that name their order and excluded ids', async () => {
  const [row] = await t.stores.ch.query<Record<string, string>>('fixture', `SELECT
    (SELECT countIf(status = 'cancelled') FROM orders FINAL WHERE store_id = {s:UInt64}) AS cancelled,
    (SELECT countIf(status = 'test') FROM orders FINAL WHERE store_id = {s:UInt64}) AS test,
    (SELECT countIf(status = 'pending') FROM orders FINAL WHERE store_id = {s:UInt64}) AS pending,
    (SELECT count() FROM orders WHERE store_id = {s:UInt64} AND version = 2) AS changed,
    (SELECT count() FROM conversions WHERE store_id = {s:UInt64} AND startsWith(transaction_id, '#')) AS named`, { s: shop.id });
  for (const [what, n] of Object.entries(row!)) assert.ok(Number(n) > 0, `${what}: ${n}`);
  assert.ok(excluded.length > 0);
});

test('the equal-rules baseline gives the report rows in every last_click case', async () => {
  for (const c of lastClickCases()) {
    const { rows, problems } = await baselineMismatches(get, t.stores.ch, shop.id, c, 'equal', excluded);
    assert.ok(rows > 0, `${c.name}: no rows`);
    assert.deepEqual(problems, [], c.name);
  }
});

test('the loose baseline of the earlier rounds counts the conversions the rules leave out', async () => {
  for (const c of lastClickCases()) {
    const { problems } = await baselineMismatches(get, t.stores.ch, shop.id, c, 'loose', excluded);
    assert.notDeepEqual(problems, [], c.name);
  }
});
