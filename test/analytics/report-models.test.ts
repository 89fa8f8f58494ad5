/**
 * Several models in one statement (runReportModels) answer exactly what one report run per model
 * answers: through the dashboard's models view against /v3/report, and through the
 * attribution.get-data tool against analytics.query. Data: the report bench's seed at a small
 * size (bench/seed.ts: ads, sessions over 90 days, purchases naming their order by id or name,
 * cancelled, test and pending orders, orders changing status), two orders without a pixel
 * purchase, the unattributed setting on and an excluded-transaction list.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { createUser, signIn, type Signed } from '../dashboard/helpers.ts';
import { toolOk } from '../mcp/rpc.ts';
import { benchSizes, seedAnalytics } from '../../bench/seed.ts';
import { benchExcludedIds } from '../../bench/suites/report.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { ATTRIBUTION_MODELS } from '../../src/analytics/attribution/index.ts';
import { formatDay } from '../../src/kit/calendar/days.ts';

let t: TestApp;
let shop: TestWorkspace;
const as: Record<string, Signed> = {};
const keys: Record<string, Record<string, string>> = {};
const DAY_MS = 86_400_000;
const today = Date.now() - (Date.now() % DAY_MS);
const RANGE = `start_date=${formatDay(today - 29 * DAY_MS)}&end_date=${formatDay(today)}`;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  await seedAnalytics(t.stores.ch, [shop.id], benchSizes(40_000, [1], true));
  const recent = new Date(today - 2 * DAY_MS).toISOString().slice(0, 19).replace('T', ' ');
  await insertRows(t.stores, 'orders', ['U1', 'U2'].map((id, i) =>
    ({ store_id: shop.id, transaction_id: id, order_name: `#U${i}`, dt: recent, gross_revenue: 5000 + i, cogs: 1200, status: 'sale', version: 1 })));
  await updateSettings(t.stores.db, shop.id, { include_unattributed: true, excluded_transaction_ids: await benchExcludedIds(t.stores.ch, shop.id) });
  await createUser(t, 'owen@example.com', shop.id);
  await createUser(t, 'mia@example.com', shop.id, ['--role', 'viewer', '--scopes', 'read:meta']);
  as.owen = await signIn(t, 'owen@example.com');
  as.mia = await signIn(t, 'mia@example.com');
  keys.owen = shop.headers;
  keys.mia = await shop.keyHeaders(['read:meta']);
});
after(() => t.close());

const CASES = [
  `${RANGE}&breakdown=source`,
  `${RANGE}&breakdown=campaign&attribution_window=28&limit=5&offset=3`,
  `${RANGE}&interval=day&attribution_date=click`,
  `${RANGE}&breakdown=source&metrics=revenue,conversions,spend,roas,cpa`,
  `${RANGE}&breakdown=source&exclude_source=meta`,
  `${RANGE}&breakdown=source&offset=500`,
  `start_date=2020-01-01&end_date=2020-01-31&breakdown=source`,
];

test("the models view's rows and totals are each model's /v3/report answer, per member", async () => {
  // Profit metrics are the owner's only.
  const asked = { owen: [...CASES, `${RANGE}&breakdown=source&metrics=revenue,net_profit,gross_margin,net_roas`], mia: CASES };
  for (const [who, queries] of Object.entries(asked)) {
    for (const query of queries) {
      const compare = await as[who]!.get(`/dashboard/api/compare?workspace=${shop.id}&${query}`);
      assert.equal(compare.status, 200, JSON.stringify(compare.body));
      assert.deepEqual(compare.body.models.map((m: { model: string }) => m.model), [...ATTRIBUTION_MODELS]);
      for (const m of compare.body.models) {
        const alone = await injectGet(t, `/v3/report?${query}&attribution_model=${m.model}`, keys[who]!);
        assert.equal(alone.status, 200, JSON.stringify(alone.body));
        assert.deepEqual({ data: m.data, totals: m.totals }, { data: alone.body.data, totals: alone.body.totals }, `${who} ${query} ${m.model}`);
      }
    }
  }
});

test('the data has rows for every model: the comparison is of real numbers', async () => {
  const compare = await as.owen!.get(`/dashboard/api/compare?workspace=${shop.id}&${CASES[0]}`);
  for (const m of compare.body.models) assert.ok(m.data.length > 1 && m.totals.revenue > 0, m.model);
  const rows = new Set(compare.body.models.map((m: { data: unknown[] }) => JSON.stringify(m.data)));
  assert.equal(rows.size, ATTRIBUTION_MODELS.length, 'every model credits the sources differently');
});

test('attribution.get-data gives every model the numbers analytics.query gives it alone', async () => {
  const filters = { date_from: formatDay(today - 29 * DAY_MS), date_to: formatDay(today) };
  const { attribution } = await toolOk(t.app, shop.headers, 'attribution.get-data', { filters, attribution_window: 28 });
  assert.deepEqual(attribution.models, [...ATTRIBUTION_MODELS]);
  for (const model of ATTRIBUTION_MODELS) {
    const q = await toolOk(t.app, shop.headers, 'analytics.query', {
      filters, breakdown: 'source', metrics: ['revenue', 'conversions', 'spend', 'roas', 'cpa'], attribution_model: model, attribution_window: 28, limit: 500,
    });
    assert.deepEqual(attribution.totals[model], q.totals, model);
    for (const row of q.rows) {
      const entry = attribution.channels.find((c: { source: string }) => c.source === row.source);
      assert.deepEqual(entry[model], { revenue: row.revenue, conversions: row.conversions, spend: row.spend, roas: row.roas, cpa: row.cpa }, `${model} ${row.source}`);
    }
  }
});
