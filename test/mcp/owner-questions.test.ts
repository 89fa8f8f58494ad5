/**
 * Three more questions of a store owner, each answered with at most two tool calls on the demo
 * store as `npm start` seeds it (src/cli/demo/demo-store.ts: 14 days, 150 sessions a day, its
 * creators linked to their codes and their program applied, its workflows run once by the engine,
 * its survey answered on the five newest orders), each answer checked against the data API.
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
const TWO_WEEKS = { date_from: day(13), date_to: day(0) };

type Row = Record<string, any>;

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Demo store');
  await seedDemoStore(t.stores, ws.id, { days: 14, sessionsPerDay: 150, workflows: t.config.workflows, logger: { warn() {}, error() {} } });
});
after(() => t.close());

const ask = (name: string, args: Record<string, unknown>) => toolOk(t.app, ws.headers, name, args);
async function api(path: string): Promise<Row> {
  const { status, body } = await injectGet(t, path, ws.headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

test('8. what the Instagram creators brought and what I owe them: one call', async () => {
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

test('9. alert me when Meta\'s ROAS drops below 2: the demo\'s workflow, its evaluation the report\'s Meta ROAS of yesterday', async () => {
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

test('10. what the survey says against attribution: two calls, each cell the sum of /v3/attribution\'s credit of the orders that gave the answer', async () => {
  const { surveys } = await ask('surveys.get-responses', {});
  const { agreement } = await ask('surveys.get-attribution-agreement', { survey_id: surveys[0].id });
  assert.equal(agreement.question_text, 'How did you hear about us?');
  const { responses } = await ask('surveys.get-responses', { survey_id: surveys[0].id });
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
