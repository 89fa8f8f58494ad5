/**
 * The workflow engine on the real stores, time driven by the clock each call is given (no waiting):
 * due times in the workspace's zone, one execution per due time across two engines and a restart,
 * each trigger's check on hand-computed data, and the actions: notes, list items, e-mail left out
 * without SMTP and sent through a local SMTP receiver (RFC 5321's replies) with it, and signed
 * webhooks to a local receiver (retries counted, private addresses refused).
 *
 * Fixture: workspace "Fixture shop" (UTC) with one ad platform row per day for two Meta ads from
 * 2026-11-11 to 2026-11-24: ad a1 (20.00 a day) had 1,000 impressions, 40 clicks and reach 1,000 on
 * each of the first seven days and 1,000 impressions, 20 clicks and reach 500 on the last seven
 * (CTR halves, frequency doubles: fatigue score 60 + 40 = 100); ad a2 (5.00 a day) delivered the
 * same every day (score 0). Spend on 2026-11-24 is 25.00. Workspace "New York shop" runs on
 * America/New_York. Workflows are created through the tool endpoint and enabled as a person would.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { bearer, callTool, toolOk } from '../mcp/rpc.ts';
import { loadConfig, type WorkflowsConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { bumpDataVersions } from '../../src/store/app/data-versions.ts';
import { ensureWebhookSecret } from '../../src/store/app/webhooks.ts';
import { listWorkflows, storedOut, type ThresholdPeriod } from '../../src/store/app/workflows.ts';
import { createWorkflowEngine } from '../../src/workflows/engine.ts';
import { disableWorkflow, enableWorkflow } from '../../src/workflows/manage.ts';
import { periodRange } from '../../src/workflows/triggers.ts';
import { rangeDays } from '../../src/kit/calendar/range.ts';

const config: WorkflowsConfig = { ...loadConfig({}).workflows, checkMs: 0, webhookRetryMs: 1000, webhookAllowPrivate: true };
let t: TestApp;
let shop: TestWorkspace;
let newYork: TestWorkspace;
let alerts: TestWorkspace;
const logger = createLogger('silent');
const waits: number[] = [];
const engine = (overrides: Partial<WorkflowsConfig> = {}) =>
  createWorkflowEngine({ stores: t.stores, config: { ...config, ...overrides }, logger, sleep: async (ms) => void waits.push(ms) });

const at = (iso: string) => Date.parse(iso);
const ok = (ws: TestWorkspace, name: string, args: unknown) => toolOk(t.app, bearer(ws.headers), name, args);

async function workflow(ws: TestWorkspace, definition: object, enabledAt = '2026-11-20T00:00:00Z'): Promise<number> {
  const { workflow } = await ok(ws, 'workflows.create', definition);
  await enableWorkflow(t.stores.db, ws.id, Number(workflow.id), 'test', new Date(enabledAt));
  return Number(workflow.id);
}

/** Only one workflow is enabled in each test: the others would fire alongside. */
async function disableAll(): Promise<void> {
  for (const ws of [shop, newYork, alerts]) {
    for (const w of await listWorkflows(t.stores.db, ws.id, { limit: 500, offset: 0 })) await disableWorkflow(t.stores.db, ws.id, w.id, 'test', new Date());
  }
}

const summary = (executions: { data: { workflow_id: string; due: string; status: string } }[]) =>
  executions.map((e) => [e.data.workflow_id, e.data.due, e.data.status]);

before(async () => {
  t = await startTestApp({ workflows: config });
  shop = await createTestWorkspace(t.stores, 'Fixture shop');
  newYork = await createTestWorkspace(t.stores, 'New York shop');
  await updateSettings(t.stores.db, newYork.id, { timezone: 'America/New_York' });
  alerts = await createTestWorkspace(t.stores, 'Alert shop');
  const rows = [];
  for (let d = 11; d <= 24; d++) {
    const late = d >= 18;
    const day = { store_id: shop.id, dt: `2026-11-${d}`, source: 'meta', campaign_name: 'Winter', version: 1 };
    rows.push({ ...day, ad_id: 'a1', ad_name: 'Ad a1', spend: 2000, impressions: 1000, clicks: late ? 20 : 40, reach: late ? 500 : 1000 });
    rows.push({ ...day, ad_id: 'a2', ad_name: 'Ad a2', spend: 500, impressions: 1000, clicks: 30, reach: 900 });
  }
  await insertRows(t.stores, 'ads', rows);
});
after(() => t.close());
beforeEach(async () => {
  await disableAll();
  waits.length = 0;
});

describe('schedules', () => {
  test('a daily schedule fires once at 08:00 workspace time, whether two engines race for it or one restarts', async () => {
    const id = await workflow(newYork, { name: 'Morning note', trigger: { type: 'daily_schedule' }, actions: [{ type: 'save_note' }, { type: 'notify_email', target: 'team@shop.example' }] }, '2026-11-24T00:00:00Z');
    // 07:59 in New York: the day's due time is still ahead, and the one before came before the workflow was enabled.
    assert.deepEqual(await engine().evaluateDue(at('2026-11-24T12:59:00Z')), []);
    const [a, b] = await Promise.all([engine().evaluateDue(at('2026-11-24T13:00:00Z')), engine().evaluateDue(at('2026-11-24T13:00:00Z'))]);
    assert.deepEqual(summary([...a, ...b]), [[String(id), 'daily:2026-11-24', 'fired']]);
    const [fired] = [...a, ...b];
    assert.deepEqual(fired!.data.outcome!.actions, [
      { type: 'save_note', status: 'done', detail: fired!.data.outcome!.actions[0]!.detail },
      { type: 'notify_email', status: 'skipped', detail: 'e-mail is not configured (STORELENS_SMTP_URL)' },
    ]);
    assert.deepEqual(await engine().evaluateDue(at('2026-11-24T22:00:00Z')), []);
    const restarted = engine();
    assert.deepEqual(summary(await restarted.evaluateDue(at('2026-11-25T13:30:00Z'))), [[String(id), 'daily:2026-11-25', 'fired']]);
    assert.deepEqual(await restarted.evaluateDue(at('2026-11-25T13:31:00Z')), []);
    const { notes } = await ok(newYork, 'notes.get-notes', {});
    assert.deepEqual(notes.map((n: any) => n.title), ['Morning note (2026-11-24T13:00:00.000Z)', 'Morning note (2026-11-25T13:30:00.000Z)']);
    const { executions } = await ok(newYork, 'workflows.get-executions', { workflow_id: String(id) });
    assert.deepEqual(executions.map((e: any) => [e.workflow_id, e.due, e.status, e.started_at]), [
      [String(id), 'daily:2026-11-24', 'fired', '2026-11-24T13:00:00.000Z'],
      [String(id), 'daily:2026-11-25', 'fired', '2026-11-25T13:30:00.000Z'],
    ]);
  });

  test('a weekly schedule is due on Mondays at 08:00: Wednesday catches up the Monday it missed, once', async () => {
    const id = await workflow(shop, { name: 'Weekly note', trigger: { type: 'weekly_schedule' }, actions: [{ type: 'save_note' }] }, '2026-11-20T00:00:00Z');
    assert.deepEqual(summary(await engine().evaluateDue(at('2026-11-25T09:00:00Z'))), [[String(id), 'weekly:2026-11-23', 'fired']]);
    assert.deepEqual(await engine().evaluateDue(at('2026-11-29T23:00:00Z')), []);
    assert.deepEqual(summary(await engine().evaluateDue(at('2026-11-30T08:00:00Z'))), [[String(id), 'weekly:2026-11-30', 'fired']]);
  });
});

describe('triggers', () => {
  test('a metric threshold compares the report metric over the last complete day, every 15 minutes', async () => {
    const above = await workflow(shop, { name: 'Spend above 24', trigger: { type: 'metric_threshold', metric: 'spend', operator: 'above', value: 24 }, actions: [{ type: 'save_note' }] });
    const below = await workflow(shop, { name: 'Spend below 24', trigger: { type: 'metric_threshold', metric: 'spend', operator: 'below', value: 24 }, actions: [{ type: 'save_note' }] });
    const executions = await engine().evaluateDue(at('2026-11-25T09:10:00Z'));
    assert.deepEqual(summary(executions), [
      [String(above), 'threshold:2026-11-25T09:00:00.000Z', 'fired'],
      [String(below), 'threshold:2026-11-25T09:00:00.000Z', 'not_fired'],
    ]);
    assert.deepEqual(executions.map((e) => e.data.outcome!.values), [
      { metric: 'spend', value: 25, operator: 'above', threshold: 24, period: 'yesterday', start_date: '2026-11-24', end_date: '2026-11-24', breached: true, conversion_names: ['*'] },
      { metric: 'spend', value: 25, operator: 'below', threshold: 24, period: 'yesterday', start_date: '2026-11-24', end_date: '2026-11-24', breached: false, conversion_names: ['*'] },
    ]);
    assert.deepEqual(await engine().evaluateDue(at('2026-11-25T09:14:59Z')), []);
    // Evaluated again 15 minutes later, still above over the same day: recorded, not fired again.
    assert.deepEqual(summary(await engine().evaluateDue(at('2026-11-25T09:15:00Z'))), [
      [String(above), 'threshold:2026-11-25T09:15:00.000Z', 'not_fired'],
      [String(below), 'threshold:2026-11-25T09:15:00.000Z', 'not_fired'],
    ]);
  });

  /**
   * "Alert shop" (UTC), 2026-11-26: Meta spent 25.00 (campaign mc1) and sold 40.00 through a
   * facebook click of mc1; Google spent 10.00 and sold 100.00. Meta's ROAS is 40 / 25 = 1.6, the
   * whole shop's (40 + 100) / 35 = 4: only the source's own report can breach "below 2".
   */
  test('a threshold on one source fires once per period, not on the next evaluation, and again after recovery', async () => {
    const session = (id: number, dt: string, channel: string, campaign: string) =>
      ({ store_id: alerts.id, session_id: id, visitor_id: id, dt, name: 'pageview', adv_source: channel, adv_campaign_id: campaign, pathname: '/' });
    const sale = (id: number, dt: string, cents: number) =>
      ({ store_id: alerts.id, session_id: id, visitor_id: id, dt, name: 'purchase', transaction_id: `A${id}`, transaction_gross_revenue: cents, transaction_currency: 'USD' });
    const ad = (dt: string, source: string, campaign: string, adId: string, cents: number) =>
      ({ store_id: alerts.id, dt, source, campaign_id: campaign, ad_id: adId, spend: cents, impressions: 100, clicks: 5, version: 1 });
    await insertRows(t.stores, 'events', [session(1, '2026-11-26 10:00:00', 'facebook', 'mc1'), session(2, '2026-11-26 11:00:00', 'google', 'gc1')]);
    await insertRows(t.stores, 'conversions', [sale(1, '2026-11-26 10:10:00', 4_000), sale(2, '2026-11-26 11:10:00', 10_000)]);
    await insertRows(t.stores, 'ads', [ad('2026-11-26', 'meta', 'mc1', 'm1', 2_500), ad('2026-11-26', 'google', 'gc1', 'g1', 1_000)]);
    await bumpDataVersions(t.stores.db, [alerts.id]);
    const metaRoas = await workflow(alerts, { name: 'Meta ROAS below 2 yesterday', trigger: { type: 'metric_threshold', metric: 'roas', operator: 'below', value: 2, source: 'meta', period: 'yesterday' }, actions: [{ type: 'save_note' }] });
    const shopRoas = await workflow(alerts, { name: 'ROAS below 2 yesterday', trigger: { type: 'metric_threshold', metric: 'roas', operator: 'below', value: 2 }, actions: [{ type: 'save_note' }] });
    const mc1Roas = await workflow(alerts, { name: 'mc1 ROAS below 2', trigger: { type: 'metric_threshold', metric: 'roas', operator: 'below', value: 2, source: 'meta', campaign: 'mc1' }, actions: [{ type: 'save_note' }] });
    const statuses = async (iso: string) => (await engine().evaluateDue(at(iso))).map((e) => [e.data.workflow_id, e.data.status, e.data.outcome!.values.value]);

    const first = await engine().evaluateDue(at('2026-11-27T09:00:00Z'));
    assert.deepEqual(first.map((e) => [e.data.workflow_id, e.data.status]), [[String(metaRoas), 'fired'], [String(shopRoas), 'not_fired'], [String(mc1Roas), 'fired']]);
    assert.deepEqual(first[0]!.data.outcome!.values, {
      metric: 'roas', value: 1.6, operator: 'below', threshold: 2, period: 'yesterday', start_date: '2026-11-26', end_date: '2026-11-26', source: 'meta', breached: true, conversion_names: ['*'],
    });
    assert.equal(first[1]!.data.outcome!.values.value, 4);
    // The figure is the report's for that source and day.
    const report = await injectGet(t, '/v3/report?start_date=2026-11-26&end_date=2026-11-26&source=meta&metrics=roas', alerts.headers);
    assert.equal(report.body.totals.roas, first[0]!.data.outcome!.values.value);

    // 15 minutes later the same day is still breached: nothing new to say.
    assert.deepEqual(await statuses('2026-11-27T09:15:00Z'), [[String(metaRoas), 'not_fired', 1.6], [String(shopRoas), 'not_fired', 4], [String(mc1Roas), 'not_fired', 1.6]]);

    // A late Meta sale of 30.00 lifts it to 70 / 25 = 2.8: recovered.
    await insertRows(t.stores, 'events', [session(3, '2026-11-26 12:00:00', 'facebook', 'mc1')]);
    await insertRows(t.stores, 'conversions', [sale(3, '2026-11-26 12:10:00', 3_000)]);
    await bumpDataVersions(t.stores.db, [alerts.id]);
    assert.deepEqual(await statuses('2026-11-27T09:30:00Z'), [[String(metaRoas), 'not_fired', 2.8], [String(shopRoas), 'not_fired', 4.8571], [String(mc1Roas), 'not_fired', 2.8]]);

    // Late spend of 15.00 on another Meta campaign drops the source to 70 / 40 = 1.75: a new breach fires; campaign mc1 stays at 2.8.
    await insertRows(t.stores, 'ads', [ad('2026-11-26', 'meta', 'mc2', 'm2', 1_500)]);
    await bumpDataVersions(t.stores.db, [alerts.id]);
    assert.deepEqual(await statuses('2026-11-27T09:45:00Z'), [[String(metaRoas), 'fired', 1.75], [String(shopRoas), 'not_fired', 3.4], [String(mc1Roas), 'not_fired', 2.8]]);
    assert.deepEqual(await statuses('2026-11-27T10:00:00Z'), [[String(metaRoas), 'not_fired', 1.75], [String(shopRoas), 'not_fired', 3.4], [String(mc1Roas), 'not_fired', 2.8]]);

    // A new period, still breached (Meta spent and sold nothing on 2026-11-27: ROAS 0): fires once for that day.
    await insertRows(t.stores, 'ads', [ad('2026-11-27', 'meta', 'mc2', 'm2', 1_000)]);
    await bumpDataVersions(t.stores.db, [alerts.id]);
    const next = await engine().evaluateDue(at('2026-11-28T00:00:00Z'));
    assert.deepEqual(next.map((e) => [e.data.workflow_id, e.data.status, e.data.outcome!.values.end_date]), [
      [String(metaRoas), 'fired', '2026-11-27'], [String(shopRoas), 'fired', '2026-11-27'], [String(mc1Roas), 'not_fired', '2026-11-27'],
    ]);

    // A run by hand fires on a breach whatever the state.
    assert.equal((await engine().runNow(alerts.id, metaRoas, at('2026-11-28T00:05:00Z'))).data.status, 'fired');
    const { notes } = await ok(alerts, 'notes.get-notes', {});
    assert.ok(notes.some((n: any) => n.content.includes('meta roas on 2026-11-26 was 1.6; the threshold is below 2')), JSON.stringify(notes.map((n: any) => n.content)));
  });

  test('periods: today is the calendar day so far, last_7_days the seven complete days before it', () => {
    const now = at('2026-11-28T03:00:00Z');
    const days = (period: ThresholdPeriod, zone: string) => rangeDays(periodRange(period, now, zone));
    assert.deepEqual(days('today', 'UTC'), { day_start: '2026-11-28', day_end: '2026-11-28' });
    assert.deepEqual(days('yesterday', 'UTC'), { day_start: '2026-11-27', day_end: '2026-11-27' });
    assert.deepEqual(days('last_7_days', 'UTC'), { day_start: '2026-11-21', day_end: '2026-11-27' });
    // 22:00 on 2026-11-27 in New York.
    assert.deepEqual(days('today', 'America/New_York'), { day_start: '2026-11-27', day_end: '2026-11-27' });
  });

  test('ad fatigue fires on the ads scoring at least the threshold over the last 14 complete days', async () => {
    const id = await workflow(shop, { name: 'Tired ads', trigger: { type: 'ad_fatigue' }, actions: [{ type: 'save_note' }] });
    const [execution] = await engine().evaluateDue(at('2026-11-25T08:00:00Z'));
    assert.deepEqual([execution!.data.workflow_id, execution!.data.due, execution!.data.status], [String(id), 'fatigue:2026-11-25', 'fired']);
    assert.deepEqual(execution!.data.outcome!.values, {
      threshold: 60,
      start_date: '2026-11-11',
      end_date: '2026-11-24',
      fatigued_ads: 1,
      ads: [{ source: 'meta', ad_id: 'a1', ad_name: 'Ad a1', score: 100 }],
    });
  });

  test('new conversions fire once per newest sale conversion, counted after the newest one the previous evaluation saw', async () => {
    const { list } = await ok(shop, 'lists.create', { name: 'Sales pings', kind: 'list' });
    await ok(shop, 'lists.add-column', { list_id: list.id, name: 'summary', type: 'text' });
    await ok(shop, 'lists.add-column', { list_id: list.id, name: 'workflow', type: 'text' });
    const id = await workflow(shop, { name: 'New sale', trigger: { type: 'new_conversion' }, actions: [{ type: 'add_to_list', target: list.id }] }, '2026-11-25T00:00:00Z');
    const sale = (session: number, dt: string, transaction_id: string, cents: number) =>
      ({ store_id: shop.id, dt, name: 'purchase', session_id: session, visitor_id: session, transaction_id, transaction_gross_revenue: cents });
    await insertRows(t.stores, 'conversions', [
      sale(1, '2026-11-24 23:00:00.000', 'before', 9_900),
      sale(2, '2026-11-25 10:00:00.000', 't1', 8_000),
      sale(3, '2026-11-25 10:05:00.000', 't2', 5_000),
    ]);
    await bumpDataVersions(t.stores.db, [shop.id]);
    const [first] = await engine().evaluateDue(at('2026-11-25T11:00:00Z'));
    assert.deepEqual([first!.data.workflow_id, first!.data.due, first!.data.status, first!.data.outcome!.values], [
      String(id),
      'conversions:2026-11-25T10:05:00.000Z',
      'fired',
      { conversions: 2, revenue: 130, since: '2026-11-25T00:00:00.000Z', through: '2026-11-25T10:05:00.000Z', conversion_names: ['*'] },
    ]);
    await bumpDataVersions(t.stores.db, [shop.id]);
    assert.deepEqual(await engine().evaluateDue(at('2026-11-25T11:01:00Z')), [], 'new data without a new conversion is nothing to evaluate');
    await insertRows(t.stores, 'conversions', [sale(4, '2026-11-25 11:30:00.000', 't3', 2_500)]);
    await bumpDataVersions(t.stores.db, [shop.id]);
    const [second] = await engine().evaluateDue(at('2026-11-25T12:00:00Z'));
    assert.deepEqual([second!.data.due, second!.data.status, second!.data.outcome!.values], [
      'conversions:2026-11-25T11:30:00.000Z',
      'fired',
      { conversions: 1, revenue: 25, since: '2026-11-25T10:05:00.000Z', through: '2026-11-25T11:30:00.000Z', conversion_names: ['*'] },
    ]);
    // A workspace that counts purchases only: a new lead is due, but no new conversion it counts.
    await updateSettings(t.stores.db, shop.id, { conversion_names: ['purchase'] });
    try {
      await insertRows(t.stores, 'conversions', [{ store_id: shop.id, dt: '2026-11-25 12:30:00.000', name: 'lead', session_id: 5, visitor_id: 5 }]);
      const [lead] = await engine().evaluateDue(at('2026-11-25T13:00:00Z'));
      assert.deepEqual([lead!.data.due, lead!.data.status, lead!.data.outcome!.values], [
        'conversions:2026-11-25T12:30:00.000Z',
        'not_fired',
        { conversions: 0, revenue: 0, since: '2026-11-25T11:30:00.000Z', through: '2026-11-25T11:30:00.000Z', conversion_names: ['purchase'] },
      ]);
    } finally {
      await updateSettings(t.stores.db, shop.id, { conversion_names: ['*'] });
    }
    const { items } = await ok(shop, 'lists.get-lists', { list_id: list.id });
    assert.deepEqual(items.map((i: any) => i.values), [
      { summary: '2 new conversion(s), 130 in revenue, since 2026-11-25T00:00:00.000Z', workflow: 'New sale' },
      { summary: '1 new conversion(s), 25 in revenue, since 2026-11-25T10:05:00.000Z', workflow: 'New sale' },
    ]);
  });
});

describe('webhooks', () => {
  let server: http.Server;
  let url: string;
  const received: { body: string; signature: string }[] = [];
  let answers: number[] = [];
  before(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push({ body, signature: String(request.headers['x-storelens-signature']) });
        response.statusCode = answers.shift() ?? 200;
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    received.length = 0;
  });

  test('posts the signed firing, retrying 5xx answers after 1 s then 2 s', async () => {
    answers = [503, 500, 200];
    const id = await workflow(shop, { name: 'Ping', trigger: { type: 'daily_schedule' }, actions: [{ type: 'notify_webhook', target: url }] });
    const execution = await engine().runNow(shop.id, id, at('2026-11-25T10:00:00Z'));
    assert.deepEqual([execution.data.status, execution.data.outcome!.actions], ['fired', [{ type: 'notify_webhook', status: 'done', detail: 'answered 200 after 3 tries' }]]);
    assert.deepEqual(waits, [1000, 2000]);
    assert.equal(received.length, 3);
    const secret = await ensureWebhookSecret(t.stores.db, t.stores.secrets, shop.id);
    for (const delivery of received) {
      assert.equal(delivery.signature, crypto.createHmac('sha256', secret).update(delivery.body).digest('hex'));
      assert.deepEqual(JSON.parse(delivery.body), {
        workflow: { id: String(id), name: 'Ping' },
        trigger: { type: 'daily_schedule' },
        values: {},
        fired_at: '2026-11-25T10:00:00.000Z',
      });
    }
  });

  test('gives up after 3 tries and records the execution as failed', async () => {
    answers = [500, 500, 500];
    const id = await workflow(shop, { name: 'Ping down', trigger: { type: 'daily_schedule' }, actions: [{ type: 'notify_webhook', target: url }, { type: 'save_note' }] });
    const execution = await engine().runNow(shop.id, id, at('2026-11-25T10:00:00Z'));
    assert.equal(execution.data.status, 'failed');
    assert.deepEqual(execution.data.outcome!.actions.map((a) => [a.type, a.status]), [['notify_webhook', 'failed'], ['save_note', 'done']]);
    assert.equal(execution.data.outcome!.actions[0]!.detail, 'answered 500 after 3 tries');
    assert.equal(received.length, 3);
  });

  test('a receiver that never answers is cut off at the time limit and tried 3 times', async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`;
      const id = await workflow(shop, { name: 'Ping silent', trigger: { type: 'daily_schedule' }, actions: [{ type: 'notify_webhook', target }] });
      const execution = await engine({ webhookTimeoutMs: 50 }).runNow(shop.id, id, at('2026-11-25T10:00:00Z'));
      assert.deepEqual(execution.data.outcome!.actions, [{ type: 'notify_webhook', status: 'failed', detail: 'no complete answer within 50 ms after 3 tries' }]);
      assert.deepEqual(waits, [1000, 2000]);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  test('a receiver that answers one byte at a time is cut at the deadline of the whole call, not held while it trickles', async () => {
    // Never silent for 100 ms, so a limit on silence would let it hold each try for 100 s.
    let bytesSent = 0;
    const dribbler = http.createServer((_request, response) => {
      response.writeHead(200);
      const timer = setInterval(() => {
        if (response.destroyed) return clearInterval(timer);
        response.write('.');
        if (++bytesSent % 1000 === 0) response.end();
      }, 100);
      response.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => dribbler.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(dribbler.address() as AddressInfo).port}/hook`;
      const id = await workflow(shop, { name: 'Ping dribble', trigger: { type: 'daily_schedule' }, actions: [{ type: 'notify_webhook', target }] });
      const execution = await engine({ webhookTimeoutMs: 500 }).runNow(shop.id, id, at('2026-11-25T10:00:00Z'));
      assert.deepEqual(execution.data.outcome!.actions, [{ type: 'notify_webhook', status: 'failed', detail: 'no complete answer within 500 ms after 3 tries' }]);
      assert.ok(bytesSent < 1000, `each try ended before the receiver finished its answer (${bytesSent} bytes sent)`);
    } finally {
      dribbler.closeAllConnections();
      await new Promise<void>((resolve) => dribbler.close(() => resolve()));
    }
  });

  test('refuses loopback targets, by address or by name, unless private addresses are allowed', async () => {
    const byName = url.replace('127.0.0.1', 'localhost');
    // Loopback through NAT64, through the IPv4-compatible ::/96, and a documentation address.
    const carried = ['[64:ff9b::7f00:1]', '[::7f00:1]', '[2001:db8::1]'].map((host) => url.replace('127.0.0.1', host));
    const targets = [url, byName, ...carried].map((target) => ({ type: 'notify_webhook', target }));
    const id = await workflow(shop, { name: 'Ping inside', trigger: { type: 'daily_schedule' }, actions: targets });
    const execution = await engine({ webhookAllowPrivate: false }).runNow(shop.id, id, at('2026-11-25T10:00:00Z'));
    const details = execution.data.outcome!.actions.map((a) => [a.status, a.detail]);
    assert.deepEqual(details[0], ['failed', 'refused: 127.0.0.1 is not a public address']);
    assert.match(String(details[1]![1]), /^refused: localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/);
    assert.deepEqual(details.slice(2), ['64:ff9b::7f00:1', '::7f00:1', '2001:db8::1'].map((host) => ['failed', `refused: ${host} is not a public address`]));
    assert.equal(received.length, 0);
  });
});

describe('e-mail', () => {
  /** The replies of RFC 5321 to a client that sends EHLO, MAIL, RCPT, DATA and QUIT; keeps what it was sent. */
  let smtp: net.Server;
  let transcript = '';
  before(async () => {
    smtp = net.createServer((socket) => {
      let inData = false;
      socket.write('220 receiver.test ESMTP\r\n');
      socket.on('data', (chunk) => {
        transcript += chunk;
        for (const line of String(chunk).split('\r\n')) {
          if (inData) {
            if (line === '.') {
              inData = false;
              socket.write('250 2.0.0 queued as 1\r\n');
            }
            continue;
          }
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === 'EHLO' || verb === 'HELO') socket.write('250 receiver.test\r\n');
          else if (verb === 'MAIL' || verb === 'RCPT' || verb === 'RSET' || verb === 'NOOP') socket.write('250 2.1.0 ok\r\n');
          else if (verb === 'DATA') {
            inData = true;
            socket.write('354 end with .\r\n');
          } else if (verb === 'QUIT') socket.end('221 2.0.0 bye\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  });
  after(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  test('notify_email sends through the SMTP server of STORELENS_SMTP_URL', async () => {
    const id = await workflow(shop, { name: 'Mail me', trigger: { type: 'daily_schedule' }, actions: [{ type: 'notify_email', target: 'team@shop.example' }] });
    const smtpUrl = `smtp://127.0.0.1:${(smtp.address() as AddressInfo).port}`;
    const execution = await engine({ smtpUrl, smtpFrom: 'Storelens <alerts@shop.example>' }).runNow(shop.id, id, at('2026-11-25T10:00:00Z'));
    assert.deepEqual([execution.data.status, execution.data.outcome!.actions], ['fired', [{ type: 'notify_email', status: 'done', detail: 'sent to team@shop.example (250 2.0.0 queued as 1)' }]]);
    assert.match(transcript, /MAIL FROM:<alerts@shop\.example>/);
    assert.match(transcript, /RCPT TO:<team@shop\.example>/);
    assert.match(transcript, /Subject: Storelens workflow fired: Mail me/);
  });
});

describe('runs by hand and validation', () => {
  test('a disabled workflow is refused; an unknown one is not found', async () => {
    const { workflow: draft } = await ok(shop, 'workflows.create', { name: 'Draft', trigger: { type: 'daily_schedule' }, actions: [{ type: 'save_note' }] });
    await assert.rejects(engine().runNow(shop.id, Number(draft.id), Date.now()), { message: `Workflow ${draft.id} is disabled: enable it first` });
    await assert.rejects(engine().runNow(shop.id, 999, Date.now()), { message: 'Workflow 999 not found' });
  });

  test('workflows.create names the field a trigger or an action is missing', async () => {
    const invalid = async (definition: object) => (await callTool(t.app, bearer(shop.headers), 'workflows.create', definition)).error;
    assert.deepEqual(await invalid({ name: 'x', trigger: { type: 'metric_threshold', metric: 'roas', operator: 'below' }, actions: [{ type: 'save_note' }] }), {
      code: -32602,
      message: 'Invalid arguments for tool workflows.create: trigger.value: value is required for a metric_threshold trigger',
      data: { issues: [{ path: 'trigger.value', message: 'value is required for a metric_threshold trigger' }] },
    });
    const messages = async (definition: object) => (await invalid(definition))?.message;
    assert.equal(
      await messages({ name: 'x', trigger: { type: 'daily_schedule', metric: 'roas' }, actions: [{ type: 'notify_webhook', target: 'ftp://x.example' }] }),
      'Invalid arguments for tool workflows.create: trigger.metric: a daily_schedule trigger takes no metric; actions.0.target: a notify_webhook target is an http(s) URL',
    );
    assert.equal(
      await messages({ name: 'x', trigger: { type: 'metric_threshold', metric: 'likes', operator: 'above', value: 1 }, actions: [{ type: 'notify_email', target: 'nobody' }] }),
      `Invalid arguments for tool workflows.create: trigger.metric: unknown metric likes; one of ${(await import('../../src/analytics/metrics.ts')).METRIC_NAMES.join(', ')}; actions.0.target: a notify_email target is an e-mail address`,
    );
    assert.equal(
      await messages({ name: 'x', trigger: { type: 'daily_schedule' }, actions: [{ type: 'add_to_list', target: '4040' }] }),
      'Invalid arguments: actions.0.target: list 4040 not found',
    );
    assert.equal(
      await messages({ name: 'x', trigger: { type: 'daily_schedule', source: 'meta', period: 'today' }, actions: [{ type: 'save_note' }] }),
      'Invalid arguments for tool workflows.create: trigger.source: a daily_schedule trigger takes no source; trigger.period: a daily_schedule trigger takes no period',
    );
    const threshold = { type: 'metric_threshold', metric: 'roas', operator: 'below', value: 2 };
    assert.equal(
      await messages({ name: 'x', trigger: { ...threshold, source: 'myspace' }, actions: [{ type: 'save_note' }] }),
      `Invalid arguments for tool workflows.create: trigger.source: unknown source myspace; one of ${(await import('../../src/analytics/sources.ts')).PIXEL_SOURCES.join(', ')}`,
    );
    assert.equal(
      await messages({ name: 'x', trigger: { ...threshold, period: 'last_year' }, actions: [{ type: 'save_note' }] }),
      'Invalid arguments for tool workflows.create: trigger.period: Invalid option: expected one of "yesterday"|"today"|"last_7_days"',
    );
  });

  test('executions read through the tool carry the fields of the contract', async () => {
    const id = await workflow(shop, { name: 'Shape', trigger: { type: 'daily_schedule' }, actions: [{ type: 'save_note' }] });
    const execution = storedOut(await engine().runNow(shop.id, id, at('2026-11-25T10:00:00Z')));
    const { executions } = await ok(shop, 'workflows.get-executions', { workflow_id: String(id) });
    assert.deepEqual(executions, [execution]);
    assert.deepEqual(Object.keys(execution), ['id', 'workflow_id', 'due', 'started_at', 'finished_at', 'status', 'outcome', 'created_at', 'updated_at']);
  });
});

describe('enabling', () => {
  test('a stored workflow that is not complete cannot be enabled; the message names the field', async () => {
    const { createObject } = await import('../../src/store/app/tool-objects.ts');
    const old = await createObject(t.stores.db, shop.id, 'workflow', { name: 'Old', trigger: { type: 'metric_threshold', metric: 'roas' }, actions: [{ type: 'save_note', target: '' }], enabled: false });
    await assert.rejects(enableWorkflow(t.stores.db, shop.id, old.id, 'test', new Date()), {
      message: 'Workflow is incomplete: trigger.operator: operator is required for a metric_threshold trigger',
    });
  });
});

describe('retention', () => {
  test('executions past STORELENS_WORKFLOW_EXECUTION_DAYS go, but every workflow keeps its newest 100', async () => {
    const id = await workflow(shop, { name: 'Daily for months', trigger: { type: 'daily_schedule' }, actions: [{ type: 'save_note' }] }, '2026-01-01T00:00:00Z');
    const longRunning = engine({ executionDays: 90 });
    const day = (i: number) => new Date(at('2026-01-01T08:00:00Z') + i * 86_400_000).toISOString().slice(0, 10);
    // 120 days: after the last, the executions of days 0-28 are older than 90 days, and days 0-19
    // are also past the newest 100, so those twenty go.
    for (let i = 0; i < 120; i++) await longRunning.evaluateDue(at(`${day(i)}T08:00:00Z`));
    const { executions } = await ok(shop, 'workflows.get-executions', { workflow_id: String(id), limit: 500 });
    assert.equal(executions.length, 100);
    assert.deepEqual([executions[0].due, executions.at(-1).due], [`daily:${day(20)}`, `daily:${day(119)}`]);
    // A due time that is gone is not claimed again.
    assert.deepEqual(await longRunning.evaluateDue(at(`${day(119)}T09:00:00Z`)), []);
  });
});
