/**
 * The five questions of a store owner, each answered with at most two tool calls on the demo store
 * (the seed `npm start` loads, 42 days up to today, 150 sessions a day), and each answer checked
 * against the data API for the same arguments: /v3/report, or the row endpoint /v3/conversions.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemo } from '../../src/cli/demo/seed.ts';
import { toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

const DAY_MS = 86_400_000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
const LAST_MONTH = (() => {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { date_from: first.toISOString().slice(0, 10), date_to: last.toISOString().slice(0, 10) };
})();
const THIS_WEEK = { date_from: day(6), date_to: day(0) };
const LAST_WEEK = { date_from: day(13), date_to: day(7) };
const FOUR_WEEKS = { date_from: day(28), date_to: day(1) };
const PAID_SOCIAL = 'meta,tiktok,pinterest,snapchat';

type Row = Record<string, any>;

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Demo store');
  await seedDemo(t.stores.ch, { workspaceId: ws.id, days: 42, sessionsPerDay: 150 });
});
after(() => t.close());

const ask = (name: string, args: Record<string, unknown>) => toolOk(t.app, ws.headers, name, args);
async function api(path: string): Promise<Row> {
  const { status, body } = await injectGet(t, path, ws.headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}
const range = (r: { date_from: string; date_to: string }) => `start_date=${r.date_from}&end_date=${r.date_to}`;

test('1. which campaign had the best net ROAS last month: one call', async () => {
  const answer = await ask('analytics.query', { filters: LAST_MONTH, breakdown: 'campaign', metrics: ['net_roas'], sort_by: 'net_roas', limit: 1 });
  const report = await api(`/v3/report?${range(LAST_MONTH)}&breakdown=campaign&metrics=net_roas&limit=500`);
  const best = Math.max(...report.data.map((r: Row) => r.net_roas).filter((v: number | null) => v !== null));
  assert.equal(answer.rows.length, 1);
  assert.equal(answer.rows[0].net_roas, best);
  assert.deepEqual(answer.rows[0], report.data.find((r: Row) => r.campaign === answer.rows[0].campaign && r.source === answer.rows[0].source));
});

test('2. what changed this week against last week, by channel: one call', async () => {
  const answer = await ask('analytics.query', { filters: THIS_WEEK, breakdown: 'source', metrics: ['spend', 'revenue', 'roas', 'conversions'], compare_to: 'previous_period' });
  const now = await api(`/v3/report?${range(THIS_WEEK)}&breakdown=source&metrics=spend,revenue,roas,conversions`);
  const before = await api(`/v3/report?${range(LAST_WEEK)}&breakdown=source&metrics=spend,revenue,roas,conversions`);
  assert.ok(now.data.length >= 4);
  assert.deepEqual(answer.rows.map(({ previous, change, ...row }: Row) => row), now.data);
  for (const row of answer.rows) {
    const earlier = before.data.find((r: Row) => r.source === row.source);
    if (earlier) assert.deepEqual(row.previous, { spend: earlier.spend, revenue: earlier.revenue, roas: earlier.roas, conversions: earlier.conversions }, row.source);
    const change = earlier && earlier.revenue !== 0 ? Math.round(((row.revenue - earlier.revenue) / Math.abs(earlier.revenue)) * 10_000) / 10_000 : null;
    assert.equal(row.change.revenue, change, row.source);
  }
});

test('3. what led to my last three orders: one call', async () => {
  // The newest conversions include leads and sign-ups: the orders are the purchases among them.
  const answer = await ask('conversions.get-recent', { limit: 20, with_path: true });
  const orders = answer.conversions.filter((c: Row) => c.name === 'purchase').slice(0, 3);
  assert.equal(orders.length, 3);
  const rows = (await api(`/v3/conversions?start_date=${day(3)}&end_date=${day(0)}&name=purchase&limit=500`)).data as Row[];
  const newest = [...rows].sort((a, b) => b.dt.localeCompare(a.dt));
  assert.deepEqual(orders.map((c: Row) => [c.transaction_id, c.dt, c.revenue]), newest.slice(0, 3).map((r) => [r.transaction_id, r.dt, Number(r.transaction_gross_revenue) / 100]));
  // Each path ends in the session the order was placed in, or is empty for an untagged one.
  for (const order of orders) {
    const row = rows.find((r) => r.transaction_id === order.transaction_id)!;
    if (order.path.length > 0) assert.equal(order.path.at(-1).raw_source, row.adv_source, order.transaction_id);
    else assert.equal(row.adv_source, 'organic', order.transaction_id);
  }
});

test('4. which products do paid-social customers buy: one call', async () => {
  const answer = await ask('products.get-sales', { ...FOUR_WEEKS, source: ['paid_social'], limit: 10 });
  const report = await api(`/v3/report?${range(FOUR_WEEKS)}&source=${PAID_SOCIAL}&metrics=conversions&name=purchase`);
  assert.ok(answer.products.length >= 5);
  assert.ok(answer.products.every((p: Row) => p.sources.every((s: Row) => ['meta', 'tiktok', 'pinterest', 'snapchat'].includes(s.source))));
  // Each credited order with lines counted once: the report's purchases credited to paid social.
  assert.equal(answer.totals.orders, report.totals.conversions);
  assert.deepEqual(answer.products.map((p: Row) => p.revenue), [...answer.products.map((p: Row) => p.revenue)].sort((a, b) => b - a));
});

test('5. should I move budget from Google to Meta: one call', async () => {
  const answer = await ask('budget.compare-channels', FOUR_WEEKS);
  const report = await api(`/v3/report?${range(FOUR_WEEKS)}&breakdown=source&metrics=spend,revenue`);
  for (const source of ['google', 'meta']) {
    const channel = answer.channels.find((c: Row) => c.source === source);
    const row = report.data.find((r: Row) => r.source === source);
    assert.deepEqual([channel.spend, channel.revenue], [row.spend, row.revenue], source);
    assert.equal(typeof channel.marginal_roas, 'number', source);
    assert.ok(['low', 'medium', 'high'].includes(channel.confidence));
    assert.ok(answer.ranking.includes(source));
  }
});
