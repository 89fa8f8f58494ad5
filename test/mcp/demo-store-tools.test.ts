/**
 * Every read tool answers on the demo store: the workspace is seeded by the function `npm start`
 * runs on a new data dir (two weeks of the demo shop here), and each read tool of the registry is
 * called through POST /mcp with an admin key, as the printed demo key is (hasData says when an
 * answer has data). Only
 * tools whose data come from an import or a tag the demo shop does not carry may answer without
 * data, and then they must say where their data would come from in a note (or, asked about one
 * A/B test, answer that it is not found).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemoStore } from '../../src/cli/demo/demo-store.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { callTool, toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

/** Read tools whose data come only from an import (weather) or from landing tags the demo does not set (A/B tests). */
const NOT_IN_THE_DEMO = new Set(['weather.get-data', 'ab-testing.get-tests', 'ab-testing.get-results']);

/** Arguments of the read tools that need some; every other read tool is called with none. */
const ARGS: Record<string, (ids: { transaction: string }) => Record<string, unknown>> = {
  'attribution.explain': (ids) => ({ transaction_id: ids.transaction }),
  'ab-testing.get-results': () => ({ test_id: 'hero' }),
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

/** The `note` members of an answer, at any depth. */
function notes(answer: unknown): string[] {
  if (answer === null || typeof answer !== 'object') return [];
  return Object.entries(answer).flatMap(([key, value]) => (key === 'note' && typeof value === 'string' ? [value] : notes(value)));
}

test('every read tool answers with data on the demo store, or says in a note that its data come from elsewhere', async () => {
  assert.deepEqual(Object.keys(ARGS).filter((name) => !READ_TOOLS.includes(name)), [], 'arguments only for read tools of the registry');
  const { conversions } = await toolOk(t.app, ws.headers, 'conversions.get-recent', { limit: 20 });
  const ids = { transaction: conversions.find((c: { transaction_id: string }) => c.transaction_id !== '').transaction_id as string };
  const empty: string[] = [];
  for (const name of READ_TOOLS) {
    const reply = await callTool(t.app, ws.headers, name, ARGS[name]?.(ids) ?? {});
    const answer = reply.result?.structuredContent;
    // A test the demo has no sessions of is not found, as any unknown test is.
    if (NOT_IN_THE_DEMO.has(name) && reply.result?.isError && answer.error.code === 'not_found') continue;
    assert.ok(reply.result && !reply.result.isError, `${name}: ${JSON.stringify(reply)}`);
    if (hasData(answer)) continue;
    empty.push(name);
    if (NOT_IN_THE_DEMO.has(name)) assert.ok(notes(answer).length > 0, `${name} answers no data and no note: ${JSON.stringify(answer)}`);
  }
  assert.deepEqual(empty.filter((name) => !NOT_IN_THE_DEMO.has(name)), [], 'read tools without data on the demo store');
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
