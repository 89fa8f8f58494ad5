/**
 * Every read tool answers with data on the demo store: the workspace is seeded by the function
 * `npm start` runs on a new data dir (two weeks of the demo shop here), and each read tool of the
 * registry is called through POST /mcp with an admin key, as the printed demo key is (hasData says
 * when an answer has data). That includes the tools fed by an import (weather) or by landing tags
 * (A/B tests): the demo imports its city's weather and tags a home-page test.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemoStore } from '../../src/cli/demo/demo-store.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { callTool, toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

/** Arguments of the read tools that need some; every other read tool is called with none. */
const ARGS: Record<string, (ids: { transaction: string; abTest: string; survey: string }) => Record<string, unknown>> = {
  'attribution.explain': (ids) => ({ transaction_id: ids.transaction }),
  'surveys.get-attribution-agreement': (ids) => ({ survey_id: ids.survey }),
  'ab-testing.get-results': (ids) => ({ test_id: ids.abTest }),
  'exports.get-link': () => ({ kind: 'conversions' }),
};

const READ_TOOLS = TOOLS.filter((tool) => tool.annotations.readOnlyHint).map((tool) => tool.name);

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Demo Store');
  await seedDemoStore(t.stores, ws.id, { days: 14, sessionsPerDay: 300, workflows: t.config.workflows, logger: { warn() {}, error() {} } });
});
after(() => t.close());

/**
 * Whether an answer carries data: an item in one of its lists or a number other than zero; an
 * answer with neither lists nor numbers (a link) when one of its values is set.
 */
function hasData(answer: unknown): boolean {
  const lists: unknown[][] = [];
  const scalars: unknown[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) lists.push(value);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
    else scalars.push(value);
  };
  walk(answer);
  const numbers = scalars.filter((v) => typeof v === 'number');
  if (lists.some((list) => list.length > 0) || numbers.some((n) => n !== 0)) return true;
  return lists.length === 0 && numbers.length === 0 && scalars.some((v) => v !== null && v !== '' && v !== false);
}

test('every read tool answers with data on the demo store', async () => {
  assert.deepEqual(Object.keys(ARGS).filter((name) => !READ_TOOLS.includes(name)), [], 'arguments only for read tools of the registry');
  const { conversions } = await toolOk(t.app, ws.headers, 'conversions.get-recent', { limit: 20 });
  const { tests } = await toolOk(t.app, ws.headers, 'ab-testing.get-tests', {});
  const { surveys } = await toolOk(t.app, ws.headers, 'surveys.get-responses', {});
  const ids = {
    transaction: conversions.find((c: { transaction_id: string }) => c.transaction_id !== '').transaction_id as string,
    abTest: tests[0]?.test_id ?? 'none',
    survey: surveys[0]?.id ?? '0',
  };
  const empty: string[] = [];
  for (const name of READ_TOOLS) {
    const reply = await callTool(t.app, ws.headers, name, ARGS[name]?.(ids) ?? {});
    assert.ok(reply.result && !reply.result.isError, `${name}: ${JSON.stringify(reply)}`);
    if (!hasData(reply.result.structuredContent)) empty.push(name);
  }
  assert.deepEqual(empty, [], 'read tools without data on the demo store');
});

test("the demo's imported weather sits beside its city's orders, and its home-page A/B test has both variants with orders", async () => {
  const demoDays = { date_from: new Date(Date.now() - 13 * 86_400_000).toISOString().slice(0, 10) };
  const { weather } = await toolOk(t.app, ws.headers, 'weather.get-data', demoDays);
  assert.equal(weather.note, undefined);
  assert.deepEqual([...new Set(weather.days.map((d: { city: string; country_code: string }) => `${d.city}, ${d.country_code}`))], ['New York, US']);
  assert.equal(weather.days.length, 14, 'each demo day has its weather');
  assert.ok(weather.days.some((d: { conversions: number }) => d.conversions > 0), JSON.stringify(weather.days));
  assert.ok(weather.by_condition.length > 1, JSON.stringify(weather.by_condition));
  const { tests } = await toolOk(t.app, ws.headers, 'ab-testing.get-tests', demoDays);
  assert.deepEqual(tests.map((x: { test_id: string; variants: string[] }) => [x.test_id, x.variants]), [['home-hero-photo', ['control', 'lifestyle']]]);
  const { results } = await toolOk(t.app, ws.headers, 'ab-testing.get-results', { test_id: 'home-hero-photo', ...demoDays });
  assert.equal(results.control_variant, 'control');
  for (const v of results.variants) assert.ok(v.sessions > 100 && v.converted_sessions > 0 && v.revenue > 0, JSON.stringify(v));
  assert.equal(results.variants[0].sessions + results.variants[1].sessions, tests[0].sessions);
});

test('the families the demo fills through the tools, the collector and the engine each show what went in', async () => {
  const { surveys } = await toolOk(t.app, ws.headers, 'surveys.get-responses', {});
  assert.deepEqual(surveys.map((s: { title: string; status: string }) => [s.title, s.status]), [['How did you hear about us?', 'live']]);
  const { responses } = await toolOk(t.app, ws.headers, 'surveys.get-responses', { survey_id: surveys[0].id });
  assert.equal(responses.length, surveys[0].responses);
  assert.ok(responses.length > 0);
  // The answers are the newest orders'.
  const { conversions } = await toolOk(t.app, ws.headers, 'conversions.get-recent', { limit: 20 });
  const orders = new Set(conversions.map((c: { transaction_id: string }) => c.transaction_id));
  assert.deepEqual(responses.filter((r: { transaction_id: string }) => !orders.has(r.transaction_id)), []);
  const { forms } = await toolOk(t.app, ws.headers, 'forms.get-forms', {});
  assert.ok(forms[0].submissions > 0);
  const { executions } = await toolOk(t.app, ws.headers, 'workflows.get-executions', {});
  assert.ok(executions.length > 0);
  const { entries } = await toolOk(t.app, ws.headers, 'audit-log.get-log', { limit: 100 });
  const demoActions = new Set(entries.filter((e: { actor: string }) => e.actor === 'demo').map((e: { action: string }) => e.action));
  for (const action of ['labels.label-asset', 'marketing-angles.create', 'topics.add', 'offers.create', 'creators.create', 'ai-visibility.create-prompt', 'surveys.create', 'survey.publish']) {
    assert.ok(demoActions.has(action), `${action} in the audit log: ${[...demoActions].join(', ')}`);
  }
});

test("a demo segment narrows the report to its customers' orders", async () => {
  const { segments } = await toolOk(t.app, ws.headers, 'segments.get-segments', {});
  const repeat = segments.find((s: { name: string }) => s.name === 'Repeat buyers');
  const metrics = ['revenue', 'conversions', 'spend'];
  const whole = await toolOk(t.app, ws.headers, 'analytics.query', { metrics });
  const narrowed = await toolOk(t.app, ws.headers, 'analytics.query', { metrics, filters: { segment_id: repeat.id } });
  assert.ok(narrowed.totals.conversions > 0 && narrowed.totals.conversions < whole.totals.conversions, JSON.stringify([narrowed.totals, whole.totals]));
  assert.equal(narrowed.totals.spend, whole.totals.spend);
});
