/**
 * One rule for the default zone, across the surfaces: the data API reads UTC days when no
 * `timezone` is given; the tools, the dashboard and the workflows read the workspace's zone; a
 * `timezone` given wins. Every answer names the zone it used.
 * Fixture: a New York workspace (America/New_York) and its local "yesterday" D (read with Intl,
 * independently of the service's code):
 *   order Y of 100.00 at D 22:30 EST (23:30 in summer time) = D+1 03:30Z: New York's yesterday, UTC's next day
 *   order P of 30.00 at D-1 22:30 EST = D 03:30Z: New York's day before, UTC's day D
 * Both in the city of New York, whose weather rows are imported for D-1 and D.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { bearer, toolOk } from './rpc.ts';
import { createUser, signIn, type Signed } from '../dashboard/helpers.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { createWorkflowEngine } from '../../src/workflows/engine.ts';
import { enableWorkflow } from '../../src/workflows/manage.ts';

const NY = 'America/New_York';
let t: TestApp;
let ws: TestWorkspace;
let owner: Signed;
let D: string;
let dayBefore: string;

/** The New York date `n` days from today. */
function nyDay(n: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: NY }).format(Date.now());
  return new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** 22:30 New York standard time of a date, as the API's UTC timestamp. */
const lateEvening = (date: string) => new Date(Date.parse(`${date}T22:30:00-05:00`)).toISOString().slice(0, 19).replace('T', ' ');

before(async () => {
  t = await startTestApp({ workflows: { ...loadConfig({}).workflows, checkMs: 0 } });
  ws = await createTestWorkspace(t.stores, 'New York shop');
  await updateSettings(t.stores.db, ws.id, { timezone: NY });
  D = nyDay(-1);
  dayBefore = nyDay(-2);
  const order = (transaction_id: string, session_id: number, dt: string, cents: number) => ({
    store_id: ws.id, dt, name: 'purchase', session_id, visitor_id: session_id, transaction_id, transaction_gross_revenue: cents,
    transaction_currency: 'USD', transaction_country_code: 'US', transaction_city: 'New York',
  });
  await insertRows(t.stores, 'conversions', [order('Y', 1, lateEvening(D), 10_000), order('P', 2, lateEvening(dayBefore), 3_000)]);
  const weather = (dt: string) => ({ store_id: ws.id, dt, country_code: 'US', city: 'New York', temperature_c: 5, precipitation_mm: 0, condition: 'clear', version: 1 });
  await insertRows(t.stores, 'weather_daily', [weather(dayBefore), weather(D)]);
  await createUser(t, 'ada@example.com', ws.id);
  owner = await signIn(t, 'ada@example.com');
});
after(() => t.close());

const ok = (name: string, args: object) => toolOk(t.app, ws.headers, name, args);
const yesterday = () => ({ date_from: D, date_to: D });

describe('the tools, the dashboard and the workflows read the workspace\'s yesterday', () => {
  test('analytics.query, reconciliation.get-data and weather.get-data count order Y on D and name New York', async () => {
    const query = await ok('analytics.query', { metrics: ['revenue', 'conversions'], filters: yesterday() });
    assert.deepEqual([query.totals.revenue, query.totals.conversions, query.settings_applied.timezone], [100, 1, NY]);
    const { reconciliation } = await ok('reconciliation.get-data', yesterday());
    assert.deepEqual([reconciliation.timezone, reconciliation.days.map((d: { date: string; report_revenue: number }) => [d.date, d.report_revenue])], [NY, [[D, 100]]]);
    const { weather } = await ok('weather.get-data', yesterday());
    assert.deepEqual([weather.timezone, weather.days.map((d: { date: string; conversions: number }) => [d.date, d.conversions])], [NY, [[D, 1]]]);
  });

  test('a timezone argument wins in the tools', async () => {
    const query = await ok('analytics.query', { metrics: ['revenue'], filters: { ...yesterday(), timezone: 'UTC' } });
    assert.deepEqual([query.totals.revenue, query.settings_applied.timezone], [30, 'UTC']);
    const { reconciliation } = await ok('reconciliation.get-data', { ...yesterday(), timezone: 'UTC' });
    assert.deepEqual([reconciliation.timezone, reconciliation.days.map((d: { report_revenue: number }) => d.report_revenue)], ['UTC', [30]]);
  });

  test('the dashboard overview of D reads New York\'s D', async () => {
    const { status, body } = await owner.get(`/dashboard/api/overview?workspace=${ws.id}&start_date=${D}&end_date=${D}`);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual([body.totals.revenue, body.settings_applied.timezone], [100, NY]);
  });

  test('a metric threshold on yesterday reads New York\'s D', async () => {
    const { workflow } = await toolOk(t.app, bearer(ws.headers), 'workflows.create', {
      name: 'Revenue above 50 yesterday', trigger: { type: 'metric_threshold', metric: 'revenue', operator: 'above', value: 50 }, actions: [{ type: 'save_note' }],
    });
    await enableWorkflow(t.stores.db, ws.id, Number(workflow.id), 'test', new Date(Date.now() - 3_600_000));
    const engine = createWorkflowEngine({ stores: t.stores, config: { ...loadConfig({}).workflows, checkMs: 0 }, logger: createLogger('silent'), sleep: async () => {} });
    const [execution] = await engine.evaluateDue(Date.now());
    const values = execution!.data.outcome!.values!;
    assert.deepEqual([values.start_date, values.end_date, values.value, values.breached], [D, D, 100, true]);
  });
});

describe('the data API reads UTC days unless told otherwise', () => {
  test('/v3/report without timezone reads the UTC day D, with timezone New York\'s', async () => {
    const utc = await injectGet(t, `/v3/report?start_date=${D}&end_date=${D}&metrics=revenue`, ws.headers);
    assert.deepEqual([utc.status, utc.body.totals.revenue, utc.body.settings_applied.timezone], [200, 30, 'UTC']);
    const local = await injectGet(t, `/v3/report?start_date=${D}&end_date=${D}&metrics=revenue&timezone=${NY}`, ws.headers);
    assert.deepEqual([local.status, local.body.totals.revenue, local.body.settings_applied.timezone], [200, 100, NY]);
  });
});
