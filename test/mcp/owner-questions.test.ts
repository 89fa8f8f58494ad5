/**
 * The ten questions of a store owner, each answered with at most two tool calls (POST /mcp, counted)
 * on the demo store as `npm start` seeds it (src/cli/demo/demo-store.ts: 150 sessions a day from the
 * first of last month up to today, its creators linked to their codes and their program applied,
 * its workflows run once by the engine, its survey answered on the five newest orders, only
 * purchases counted as conversions), each answer's figures checked against the data API
 * (/v3/report, /v3/conversions, /v3/reconciliation, /v3/customers, /v3/attribution) for the same
 * range, zone and settings.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemoStore } from '../../src/cli/demo/demo-store.ts';
import { toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

const DAY_MS = 86_400_000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
const NOW = new Date();
const LAST_MONTH = {
  date_from: new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth() - 1, 1)).toISOString().slice(0, 10),
  date_to: new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth(), 0)).toISOString().slice(0, 10),
};
/** From the first of last month up to today. */
const SEED_DAYS = NOW.getUTCDate() + new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth(), 0)).getUTCDate();
const THIS_WEEK = { date_from: day(6), date_to: day(0) };
const LAST_WEEK = { date_from: day(13), date_to: day(7) };
const TWO_WEEKS = { date_from: day(13), date_to: day(0) };
const FOUR_WEEKS = { date_from: day(28), date_to: day(1) };
const PAID_SOCIAL = ['meta', 'tiktok', 'pinterest', 'snapchat'];

type Row = Record<string, any>;

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Demo store');
  await seedDemoStore(t.stores, ws.id, { days: SEED_DAYS, sessionsPerDay: 150, workflows: t.config.workflows, logger: { warn() {}, error() {} } });
});
after(() => t.close());

let calls = 0;
/** One tool call of an answer: counted, at most two per question. */
const ask = (name: string, args: Record<string, unknown>) => {
  calls++;
  return toolOk(t.app, ws.headers, name, args);
};
/** A question: its answer takes at most two tool calls. */
function question(title: string, answer: () => Promise<void>) {
  test(title, async () => {
    calls = 0;
    await answer();
    assert.ok(calls >= 1 && calls <= 2, `${calls} tool calls`);
  });
}
async function api(path: string): Promise<Row> {
  const { status, body } = await injectGet(t, path, ws.headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}
const range = (r: { date_from: string; date_to: string; timezone?: string }) =>
  `start_date=${r.date_from}&end_date=${r.date_to}${r.timezone ? `&timezone=${encodeURIComponent(r.timezone)}` : ''}`;

question('1. which campaign had the best net ROAS last month', async () => {
  const answer = await ask('analytics.query', { filters: LAST_MONTH, breakdown: 'campaign', metrics: ['net_roas'], sort_by: 'net_roas', limit: 1 });
  const report = await api(`/v3/report?${range(LAST_MONTH)}&breakdown=campaign&metrics=net_roas&limit=500`);
  const best = Math.max(...report.data.map((r: Row) => r.net_roas).filter((v: number | null) => v !== null));
  assert.equal(answer.rows.length, 1);
  assert.equal(answer.rows[0].net_roas, best);
  assert.deepEqual(answer.rows[0], report.data.find((r: Row) => r.campaign === answer.rows[0].campaign && r.source === answer.rows[0].source));
});

question('2. what changed this week against last week, by channel', async () => {
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

question('3. what led to my last three orders', async () => {
  const answer = await ask('conversions.get-recent', { limit: 3, name: 'purchase', with_path: true });
  assert.deepEqual(answer.settings_applied.conversion_names, ['purchase']);
  const orders = answer.conversions as Row[];
  assert.equal(orders.length, 3);
  const rows = (await api(`/v3/conversions?start_date=${day(3)}&end_date=${day(0)}&name=purchase&limit=500`)).data as Row[];
  // The three are the newest: the same ids, times and amounts through the API, none of its purchases newer.
  const oldestOfThree = orders.map((o) => o.dt).sort()[0];
  assert.ok(rows.every((r) => r.dt <= oldestOfThree || orders.some((o) => o.transaction_id === r.transaction_id)));
  for (const order of orders) {
    const row = rows.find((r) => r.transaction_id === order.transaction_id)!;
    assert.deepEqual([order.dt, order.revenue], [row.dt, Number(row.transaction_gross_revenue) / 100], order.transaction_id);
    // Each path ends in the session the order was placed in, or is empty for an untagged one.
    if (order.path.length > 0) assert.equal(order.path.at(-1).raw_source, row.adv_source, order.transaction_id);
    else assert.equal(row.adv_source, 'organic', order.transaction_id);
  }
});

question('4. which products do paid-social customers buy', async () => {
  const answer = await ask('products.get-sales', { ...FOUR_WEEKS, source: ['paid_social'], limit: 10 });
  const report = await api(`/v3/report?${range(FOUR_WEEKS)}&source=${PAID_SOCIAL.join(',')}&metrics=conversions&name=purchase`);
  assert.ok(answer.products.length >= 5);
  assert.ok(answer.products.every((p: Row) => p.sources.every((s: Row) => PAID_SOCIAL.includes(s.source))));
  // Each credited order with lines counted once: the report's purchases credited to paid social.
  assert.equal(answer.totals.orders, report.totals.conversions);
  assert.deepEqual(answer.products.map((p: Row) => p.revenue), [...answer.products.map((p: Row) => p.revenue)].sort((a, b) => b - a));
});

question('5. should I move budget from Google to Meta', async () => {
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

question('6. do my numbers match Shopify last week', async () => {
  const { reconciliation } = await ask('reconciliation.get-data', LAST_WEEK);
  assert.deepEqual(reconciliation.settings_applied.conversion_names, ['purchase']);
  const books = await api(`/v3/reconciliation?${range(reconciliation)}`);
  assert.equal(reconciliation.days.length, 7);
  assert.deepEqual({ days: reconciliation.days, totals: reconciliation.totals }, { days: books.data, totals: books.totals });
  assert.ok(reconciliation.totals.shop_orders > 0, 'the demo shop sent its orders');
  // The report's side is the report's purchases of the same days.
  const report = await api(`/v3/report?${range(reconciliation)}&metrics=conversions,revenue&name=purchase`);
  assert.deepEqual([reconciliation.totals.report_conversions, reconciliation.totals.report_revenue], [report.totals.conversions, report.totals.revenue]);
});

question('7. which customers came back, and from which first channel', async () => {
  const { customers } = await ask('customers.get-ltv', { ...TWO_WEEKS, breakdown: 'first_source' });
  assert.deepEqual(customers.conversion_names, ['purchase']);
  const api7 = await api(`/v3/customers?${range(customers)}&breakdown=first_source&attribution_window=${customers.attribution_window}`);
  assert.deepEqual({ rows: customers.rows, totals: customers.totals }, { rows: api7.data, totals: api7.totals });
  assert.ok(customers.totals.returning_customers > 0, 'some came back');
  assert.ok(customers.rows.some((r: Row) => r.repeat_rate > 0), 'some of the new ones came back');
  assert.equal(customers.totals.new_customers, customers.rows.reduce((sum: number, r: Row) => sum + r.new_customers, 0));
});

question('8. what the Instagram creators brought and what I owe them', async () => {
  const answer = await ask('creators.get-creators', TWO_WEEKS);
  assert.deepEqual(answer.creators.map((c: Row) => c.creator?.name ?? null).sort(), ['Jonas', 'Lena', 'Maya', 'Theo']);
  assert.ok(answer.creators.filter((c: Row) => c.orders > 0).length >= 1, 'the demo\'s creators sold through their codes');
  for (const c of answer.creators) {
    assert.ok(c.sessions > 0, `${c.creator.name}'s links brought visits to ${c.codes.join(', ')}`);
    // Their program: 10 % of revenue.
    assert.equal(c.commission, Math.round(Math.round(c.revenue * 100) / 10) / 100, c.creator.name);
  }
  const report = await api(`/v3/report?start_date=${TWO_WEEKS.date_from}&end_date=${TWO_WEEKS.date_to}&source=creator&metrics=revenue`);
  assert.equal(answer.revenue_basis.report_revenue, report.totals.revenue);
  assert.equal(answer.revenue_basis.revenue, Math.round(answer.creators.reduce((sum: number, c: Row) => sum + c.revenue * 100, 0)) / 100);
  assert.match(answer.revenue_basis.reason, /basis of commission/);
});

question('9. alert me when Meta\'s ROAS drops below 2: the demo\'s workflow, its evaluation the report\'s Meta ROAS of yesterday', async () => {
  const { workflows } = await ask('workflows.get-rules', {});
  const alert = workflows.find((w: Row) => w.name === 'Meta ROAS below 2 yesterday');
  assert.deepEqual(alert.trigger, { type: 'metric_threshold', metric: 'roas', operator: 'below', value: 2, source: 'meta', period: 'yesterday' });
  const { executions } = await ask('workflows.get-executions', { workflow_id: alert.id });
  const values = executions[0].outcome.values;
  const report = await api(`/v3/report?start_date=${values.start_date}&end_date=${values.end_date}&source=meta&metrics=roas`);
  assert.equal(values.value, report.totals.roas);
  assert.equal(values.breached, report.totals.roas !== null && report.totals.roas < 2);
  assert.equal(executions[0].status, values.breached ? 'fired' : 'not_fired');
});

question('10. what the survey says against attribution: each cell the sum of /v3/attribution\'s credit of the orders that gave the answer', async () => {
  const { surveys } = await ask('surveys.get-responses', {});
  const { agreement } = await ask('surveys.get-attribution-agreement', { survey_id: surveys[0].id });
  assert.equal(agreement.question_text, 'How did you hear about us?');
  // Which orders gave which answer (a look-up for the check, not part of the answer).
  const { responses } = await toolOk(t.app, ws.headers, 'surveys.get-responses', { survey_id: surveys[0].id });
  assert.equal(responses.length, 5);
  const model = agreement.attribution.model;
  const expected = new Map<string, number>();
  for (const response of responses) {
    const heard = response.answers.find((a: Row) => a.question === 0).value;
    const { data } = await api(`/v3/attribution?transaction_id=${response.transaction_id}&start_date=${agreement.date_from}&end_date=${agreement.date_to}`);
    for (const [source, share] of Object.entries(data.credit[model] as Record<string, number>)) {
      if (share > 0) expected.set(`${heard}|${source}`, (expected.get(`${heard}|${source}`) ?? 0) + share);
    }
  }
  const cells = new Map(agreement.rows.map((r: Row) => [`${r.answer}|${r.source}`, r.orders]));
  assert.deepEqual(new Map([...cells].sort()), new Map([...expected].sort()));
  for (const r of agreement.rows) {
    const matched = agreement.answers.find((a: Row) => a.answer === r.answer).matched;
    assert.equal(r.share, Math.round((r.orders / matched) * 10_000) / 10_000);
  }
});
