/**
 * The audit's reproductions of leaking outputs, through the public surface: what a workflow wrote
 * (executions, notes, list rows) and the survey responses are shown to a key or a dashboard member
 * only when it could read every number in them.
 *
 * Fixture: workspace "Shop" (UTC) with one ad row a day from 2026-11-11 to 2026-11-24 for a Meta ad
 * m1 (20.00 a day), a TikTok ad t1 (10.00) and a Google ad g1 (5.00), each with 1,000 impressions
 * and reach 1,000 a day; CTR halves and reach halves in the last seven days (fatigue score 100 for
 * all three). Spend on 2026-11-24: 35.00 in the store, 5.00 on Google. Workflows, run by hand at
 * 2026-11-25 06:00 UTC:
 * - "Spend above 10" (spend above 10, save_note), stored as the demo stores its workflows: by a
 *   person, no key, so it reads the whole store;
 * - "Tired ads" (ad_fatigue, save_note), drafted by the admin key;
 * - "Profit below 1" (gross_profit below 1, save_note), drafted by the admin key;
 * - "Google spend" (spend above 1, save_note), "Google tired ads" (ad_fatigue, save_note) and "Google
 *   sales" (new_conversion, save_note), drafted by a read:google + write:drafts key.
 * All enabled by a person. A survey with responses of orders T-1 and T-2.
 * Readers: the admin key, a read:google key, a write:drafts key, dashboard members owen (owner), vic
 * (viewer, every channel, no profit) and gina (viewer, read:google).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { callTool, toolOk } from '../mcp/rpc.ts';
import { createUser, signIn, type Signed } from '../dashboard/helpers.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { createObject } from '../../src/store/app/tool-objects.ts';
import { WORKFLOW_KIND } from '../../src/store/app/workflows.ts';
import { publishSurvey } from '../../src/store/app/surveys.ts';
import { createWorkflowEngine } from '../../src/workflows/engine.ts';
import { enableWorkflow } from '../../src/workflows/manage.ts';

const NOW = Date.parse('2026-11-25T06:00:00Z');
const config = { ...loadConfig({}).workflows, checkMs: 0 };

let t: TestApp;
let shop: TestWorkspace;
let google: Record<string, string>;
let drafts: Record<string, string>;
let surveyId: string;
const ids: Record<string, string> = {};
const as: Record<string, Signed> = {};

before(async () => {
  t = await startTestApp({ workflows: config });
  shop = await createTestWorkspace(t.stores, 'Shop');
  google = await shop.keyHeaders(['read:google', 'write:drafts']);
  drafts = await shop.keyHeaders(['write:drafts']);
  const rows = [];
  for (let d = 11; d <= 24; d++) {
    const late = d >= 18;
    for (const [source, ad_id, spend] of [['meta', 'm1', 2000], ['tiktok', 't1', 1000], ['google', 'g1', 500]] as const) {
      rows.push({
        store_id: shop.id, dt: `2026-11-${d}`, source, ad_id, ad_name: `Ad ${ad_id}`, campaign_name: 'Winter', version: 1,
        spend, impressions: 1000, clicks: late ? 20 : 40, reach: late ? 500 : 1000,
      });
    }
  }
  await insertRows(t.stores, 'ads', rows);

  const person = await createObject(t.stores.db, shop.id, WORKFLOW_KIND, {
    name: 'Spend above 10', trigger: { type: 'metric_threshold', metric: 'spend', operator: 'above', value: 10 }, actions: [{ type: 'save_note', target: '' }], enabled: false,
  });
  ids.whole = String(person.id);
  const draft = async (headers: Record<string, string>, name: string, trigger: object) =>
    (await toolOk(t.app, headers, 'workflows.create', { name, trigger, actions: [{ type: 'save_note' }] })).workflow.id as string;
  ids.tired = await draft(shop.headers, 'Tired ads', { type: 'ad_fatigue' });
  ids.profit = await draft(shop.headers, 'Profit below 1', { type: 'metric_threshold', metric: 'gross_profit', operator: 'below', value: 1 });
  ids.googleSpend = await draft(google, 'Google spend', { type: 'metric_threshold', metric: 'spend', operator: 'above', value: 1 });
  ids.googleTired = await draft(google, 'Google tired ads', { type: 'ad_fatigue' });
  ids.googleSales = await draft(google, 'Google sales', { type: 'new_conversion' });
  const engine = createWorkflowEngine({ stores: t.stores, config, logger: createLogger('silent') });
  try {
    for (const id of Object.values(ids)) {
      await enableWorkflow(t.stores.db, shop.id, Number(id), 'test', new Date(NOW - 3_600_000));
      await engine.runNow(shop.id, Number(id), NOW);
    }
  } finally {
    await engine.stop();
  }

  const { survey } = await toolOk(t.app, shop.headers, 'surveys.create', {
    title: 'After your order', questions: [{ text: 'How did you hear about us?', type: 'single_choice', options: ['Google', 'Friend'] }],
  });
  surveyId = survey.id;
  await publishSurvey(t.stores.db, shop.id, Number(surveyId), 'test');
  await insertRows(t.stores, 'survey_responses', ['T-1', 'T-2'].map((transaction_id, i) => ({
    store_id: shop.id, survey_id: Number(surveyId), transaction_id, answers: JSON.stringify([{ question: 0, value: i ? 'Friend' : 'Google' }]),
    dt: `2026-11-24 1${i}:00:00`, version: 1,
  })));

  await createUser(t, 'owen@example.com', shop.id);
  await createUser(t, 'vic@example.com', shop.id, ['--role', 'viewer']);
  await createUser(t, 'gina@example.com', shop.id, ['--role', 'viewer', '--scopes', 'read:google']);
  for (const name of ['owen', 'vic', 'gina']) as[name] = await signIn(t, `${name}@example.com`);
});
after(() => t.close());

const tool = (headers: Record<string, string>, name: string, args: unknown = {}) => toolOk(t.app, headers, name, args);
const names = new Map<string, string>();
const executionsOf = async (headers: Record<string, string>, args: object = {}) => {
  if (!names.size) for (const w of (await tool(shop.headers, 'workflows.get-rules')).workflows) names.set(w.id, w.name);
  return (await tool(headers, 'workflows.get-executions', args)).executions.map((e: any) => [names.get(e.workflow_id), e.status, e.outcome.values]);
};
const noteTitles = async (headers: Record<string, string>) =>
  (await tool(headers, 'notes.get-notes')).notes.map((n: { title: string }) => n.title.replace(/ \(.*\)$/, ''));

describe('workflow outputs through the tool endpoint', () => {
  test('the admin key reads every execution, the whole store\'s spend (35) among them', async () => {
    const executions = await executionsOf(shop.headers);
    assert.deepEqual(executions.map(([name, status]: string[]) => [name, status]), [
      ['Spend above 10', 'fired'], ['Tired ads', 'fired'], ['Profit below 1', 'fired'], ['Google spend', 'fired'], ['Google tired ads', 'fired'],
      ['Google sales', 'failed'],
    ]);
    assert.equal(executions[0][2].value, 35);
    assert.deepEqual(await noteTitles(shop.headers), ['Spend above 10', 'Tired ads', 'Profit below 1', 'Google spend', 'Google tired ads']);
  });

  test('a read:google key reads only what runs on Google: its spend equals that key\'s /v3/report, no whole-store figure', async () => {
    const report = await injectGet(t, '/v3/report?start_date=2026-11-24&end_date=2026-11-24&metrics=spend', google);
    assert.equal(report.status, 200, JSON.stringify(report.body));
    const executions = await executionsOf(google);
    assert.deepEqual(executions.map(([name]: string[]) => name), ['Google spend', 'Google tired ads', 'Google sales']);
    assert.deepEqual([executions[0][2].value, report.body.totals.spend], [5, 5]);
    assert.deepEqual(await executionsOf(google, { workflow_id: ids.whole }), [], 'the whole store\'s workflow is listed, its runs are not');
    const notes = await tool(google, 'notes.get-notes');
    assert.deepEqual(notes.notes.map((n: { title: string }) => n.title.replace(/ \(.*\)$/, '')), ['Google spend', 'Google tired ads']);
    const contents = notes.notes.map((n: { content: string }) => n.content).join('\n');
    assert.ok(!/\b35\b|\bm1\b|\bt1\b|meta|tiktok/.test(contents), contents);
  });

  test('ad fatigue drafted by the google key scores Google\'s ads only; the admin\'s lists meta and tiktok ads, hidden from that key', async () => {
    const adsOf = (values: { ads: { source: string; ad_id: string }[] }) => values.ads.map((a) => `${a.source}:${a.ad_id}`);
    const all = await executionsOf(shop.headers, { workflow_id: ids.tired });
    assert.deepEqual(adsOf(all[0][2]), ['meta:m1', 'tiktok:t1', 'google:g1']);
    const own = await executionsOf(google, { workflow_id: ids.googleTired });
    assert.deepEqual(adsOf(own[0][2]), ['google:g1']);
    assert.deepEqual(await executionsOf(google, { workflow_id: ids.tired }), []);
  });

  test('new conversions are orders, not split by channel: the google key\'s new-conversion workflow fails, saying so', async () => {
    const [run] = (await tool(google, 'workflows.get-executions', { workflow_id: ids.googleSales })).executions;
    assert.deepEqual([run.status, run.outcome.error], ['failed', 'You do not have access to new conversions: it needs an admin:admin key']);
  });

  test('a write:drafts key, refused by /v3, reads no execution and no note, not even one written for a narrower key', async () => {
    const report = await injectGet(t, '/v3/report?start_date=2026-11-24&end_date=2026-11-24&metrics=spend', drafts);
    assert.equal(report.status, 403);
    assert.deepEqual(await executionsOf(drafts), []);
    assert.deepEqual(await noteTitles(drafts), []);
    const hidden = (await tool(shop.headers, 'notes.get-notes')).notes.at(-1).id;
    const update = await callTool(t.app, drafts, 'notes.update', { id: hidden, content: 'overwritten' });
    assert.deepEqual(update.result?.structuredContent.error, { code: 'not_found', message: `Note ${hidden} not found` });
  });
});

describe('workflow outputs in the dashboard', () => {
  const executions = (who: string, id: string) => as[who]!.get(`/dashboard/api/workflows/${id}/executions?workspace=${shop.id}`);

  test('a google-only viewer sees no run of the whole store\'s workflow, and the runs of Google\'s', async () => {
    const whole = await executions('gina', ids.whole!);
    assert.deepEqual([whole.status, whole.body.executions, whole.body.total], [200, [], 0]);
    const own = await executions('gina', ids.googleSpend!);
    assert.deepEqual([own.body.executions.map((e: any) => e.outcome.values.value), own.body.total], [[5], 1]);
    const tired = await executions('gina', ids.tired!);
    assert.deepEqual(tired.body.executions, []);
  });

  test('a viewer of every channel without profit sees the spend runs, not the profit one; the owner sees all', async () => {
    assert.deepEqual((await executions('vic', ids.whole!)).body.executions.map((e: any) => e.outcome.values.value), [35]);
    assert.deepEqual((await executions('vic', ids.profit!)).body, { workflow: (await executions('owen', ids.profit!)).body.workflow, executions: [], total: 0 });
    assert.equal((await executions('owen', ids.profit!)).body.total, 1);
  });
});

describe('survey responses', () => {
  test('the admin key reads the responses and their count', async () => {
    const listed = await tool(shop.headers, 'surveys.get-responses');
    assert.deepEqual(listed.surveys.map((s: any) => [s.id, s.responses]), [[surveyId, 2]]);
    const read = await tool(shop.headers, 'surveys.get-responses', { survey_id: surveyId });
    assert.deepEqual(read.responses.map((r: any) => r.transaction_id), ['T-1', 'T-2']);
  });

  for (const [who, headers] of [['a read:google key', () => google], ['a write:drafts key', () => drafts]] as const) {
    test(`${who} reads neither the responses (order ids, answers, times) nor their count`, async () => {
      const listed = await tool(headers(), 'surveys.get-responses');
      assert.deepEqual(listed.surveys.map((s: any) => [s.id, s.responses]), [[surveyId, null]]);
      const refused = await callTool(t.app, headers(), 'surveys.get-responses', { survey_id: surveyId });
      assert.deepEqual(refused.result?.structuredContent.error, {
        code: 'permission_denied', message: 'You do not have access to survey responses: they need access to every channel',
      });
      assert.ok(!JSON.stringify(refused).includes('T-1'));
    });
  }

  test('a google-only viewer gets 403 for the responses and no counts in the dashboard', async () => {
    assert.equal((await as.gina!.get(`/dashboard/api/surveys/${surveyId}/responses?workspace=${shop.id}`)).status, 403);
    assert.deepEqual((await as.gina!.get(`/dashboard/api/surveys?workspace=${shop.id}`)).body.surveys.map((s: any) => s.responses), [null]);
    assert.deepEqual((await as.vic!.get(`/dashboard/api/surveys/${surveyId}/responses?workspace=${shop.id}`)).body.responses.map((r: any) => r.transaction_id), ['T-1', 'T-2']);
  });
});
