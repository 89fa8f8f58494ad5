/**
 * The saved reports view's endpoints over HTTP: what dashboards.create-report saved, listed and run
 * through the report core for the member.
 * Fixture (workspace "Shop", UTC, 2026-03-10): visitor 1 lands from google (s11) and buys T-1 for
 * 100.00; visitor 2 lands from facebook (s21) and buys T-2 for 50.00; visitor 3 comes untagged
 * (s31) and buys T-3 for 30.00 on 2026-03-11. Saved: "By source" (revenue and conversions by
 * source, 2026-03-10 only, last click), "Meta daily" (revenue per day, source meta).
 * Personas: owen (owner), gia (viewer with read:google).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { toolOk } from '../mcp/rpc.ts';
import { createUser, signIn, type Signed } from './helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let bySource: string;
let metaDaily: string;
const as: Record<string, Signed> = {};

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  const ev = (session: number, day: string, adv_source = '') =>
    ({ store_id: shop.id, dt: `${day} 09:00:00`, name: 'pageview', session_id: session, visitor_id: session, pathname: '/', adv_source });
  await insertRows(t.stores, 'events', [ev(11, '2026-03-10', 'google'), ev(21, '2026-03-10', 'facebook'), ev(31, '2026-03-11')]);
  const buy = (session: number, day: string, tx: string, cents: number) =>
    ({ store_id: shop.id, dt: `${day} 09:30:00`, name: 'purchase', session_id: session, visitor_id: session, transaction_id: tx, transaction_gross_revenue: cents });
  await insertRows(t.stores, 'conversions', [buy(11, '2026-03-10', 'T-1', 10_000), buy(21, '2026-03-10', 'T-2', 5_000), buy(31, '2026-03-11', 'T-3', 3_000)]);
  bySource = (await toolOk(t.app, shop.headers, 'dashboards.create-report', {
    name: 'By source', metrics: ['revenue', 'conversions'], breakdown: 'source',
    filters: { date_from: '2026-03-10', date_to: '2026-03-10' }, attribution_model: 'last_click',
  })).report.id;
  metaDaily = (await toolOk(t.app, shop.headers, 'dashboards.create-report', {
    name: 'Meta daily', metrics: ['revenue'], interval: 'day', filters: { source: ['meta'] },
  })).report.id;
  await createUser(t, 'owen@example.com', shop.id);
  await createUser(t, 'gia@example.com', shop.id, ['--role', 'viewer', '--scopes', 'read:google']);
  for (const name of ['owen', 'gia']) as[name] = await signIn(t, `${name}@example.com`);
});
after(() => t.close());

const list = (who: string) => as[who]!.get(`/dashboard/api/saved-reports?workspace=${shop.id}`);
const run = (who: string, id: string, query = '') => as[who]!.get(`/dashboard/api/saved-reports/${id}?workspace=${shop.id}${query}`);

test('lists the saved reports a member may see; one filtered on a hidden source is left out', async () => {
  const owner = await list('owen');
  assert.equal(owner.status, 200);
  assert.deepEqual(owner.body.reports.map((r: any) => [r.id, r.name, r.metrics, r.breakdown, r.interval]), [
    [bySource, 'By source', ['revenue', 'conversions'], 'source', null],
    [metaDaily, 'Meta daily', ['revenue'], null, 'day'],
  ]);
  assert.deepEqual((await list('gia')).body.reports.map((r: any) => r.name), ['By source']);
});

test('runs a saved report on its own saved dates and attribution', async () => {
  const { status, body } = await run('owen', bySource);
  assert.equal(status, 200);
  assert.equal(body.report.name, 'By source');
  assert.deepEqual(body.data.map((r: any) => [r.source, r.revenue, r.conversions]), [['google', 100, 1], ['meta', 50, 1]]);
  assert.deepEqual([body.totals.revenue, body.totals.conversions], [150, 2]);
  assert.equal(body.settings_applied.attribution_model, 'last_click');
});

test("the view's dates take precedence over the saved ones", async () => {
  const { body } = await run('owen', bySource, '&start_date=2026-03-10&end_date=2026-03-11');
  assert.deepEqual(body.data.map((r: any) => [r.source, r.revenue]), [['google', 100], ['meta', 50], ['organic', 30]]);
  assert.equal(body.totals.revenue, 180);
});

test('a saved source filter and interval give a row per day of that source that has any', async () => {
  const { body } = await run('owen', metaDaily, '&start_date=2026-03-10&end_date=2026-03-11');
  assert.deepEqual(body.data.map((r: any) => [r.date, r.revenue]), [['2026-03-10', 50]]);
});

test('a restricted member reads a saved report within its channels; a hidden or unknown one is 404, a bad id 400', async () => {
  const { body } = await run('gia', bySource);
  assert.deepEqual(body.data.map((r: any) => [r.source, r.revenue]), [['google', 100]]);
  assert.deepEqual(await run('gia', metaDaily), { status: 404, body: { message: `Saved report ${metaDaily} not found` } });
  assert.deepEqual(await run('owen', '999999'), { status: 404, body: { message: 'Saved report 999999 not found' } });
  assert.deepEqual(await run('owen', 'abc'), { status: 400, body: { message: 'Report id must be numeric' } });
});

test('needs a signed-in member', async () => {
  const response = await t.app.inject({ method: 'GET', url: `/dashboard/api/saved-reports?workspace=${shop.id}` });
  assert.equal(response.statusCode, 401);
});
