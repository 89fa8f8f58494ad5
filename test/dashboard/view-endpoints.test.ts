/**
 * The dashboard's read endpoints over HTTP, against the data API for the same parameters.
 * Fixtures: workspace "shop" with 5 days of the demo shop (every channel, ads, orders, expenses);
 * workspace "paths" by hand: visitors 3 and 4 share customer bob, s31 2026-02-27 12:00 tiktok
 * (visitor 3, campaign tt1, which the ad rows name "Spring on TikTok" in their newer import) and s41
 * 2026-03-05 12:00 untagged (visitor 4; its id, S41, above 2^53 as the pixel makes them: the
 * session's minute above random bits), purchase T3 2026-03-05 12:05 in s41, 200.00; workspace
 * "other" with a purchase OTHER-1 that no shop user may ever see.
 * Personas: owen (owner of shop and paths), vic (viewer of shop), mia (viewer of shop with
 * read:meta), pia (viewer of shop with read:profit), oz (owner of other only).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemo } from '../../src/cli/demo/seed.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { createUser, signIn, type Signed } from './helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let paths: TestWorkspace;
let other: TestWorkspace;
const as: Record<string, Signed> = {};

const today = new Date().toISOString().slice(0, 10);
const fourDaysAgo = new Date(Date.now() - 4 * 86_400_000).toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const RANGE = `start_date=${fourDaysAgo}&end_date=${today}`;
const S41 = '8121322736241868841';

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  paths = await createTestWorkspace(t.stores, 'Paths');
  other = await createTestWorkspace(t.stores, 'Other');
  await seedDemo(t.stores.ch, { workspaceId: shop.id, days: 5, sessionsPerDay: 300 });
  const ev = (session: number | string, visitor: number, dt: string, extra: object) =>
    ({ store_id: paths.id, dt, name: 'pageview', session_id: session, visitor_id: visitor, pathname: '/', ...extra });
  await insertRows(t.stores, 'events', [
    ev(31, 3, '2026-02-27 12:00:00', { adv_source: 'tiktok', adv_campaign_id: 'tt1', customer_id: 'bob' }),
    ev(S41, 4, '2026-03-05 12:00:00', { customer_id: 'bob' }),
    { ...ev(91, 9, `${today} 00:00:01`, {}), store_id: other.id },
  ]);
  await insertRows(t.stores, 'conversions', [
    { store_id: paths.id, dt: '2026-03-05 12:05:00', name: 'purchase', session_id: S41, visitor_id: 4, customer_id: 'bob', transaction_id: 'T3', transaction_gross_revenue: 20000, transaction_currency: 'USD' },
    { store_id: other.id, dt: `${today} 00:00:02`, name: 'purchase', session_id: 91, visitor_id: 9, transaction_id: 'OTHER-1', transaction_gross_revenue: 99999, transaction_currency: 'USD' },
  ]);
  // The campaign's name as the ad rows carry it; the newer import's name wins.
  await insertRows(t.stores, 'ads', [
    { store_id: paths.id, dt: '2026-02-27', source: 'tiktok', campaign_id: 'tt1', campaign_name: 'Spring', ad_id: 'ta1', spend: 100, version: 1 },
    { store_id: paths.id, dt: '2026-02-27', source: 'tiktok', campaign_id: 'tt1', campaign_name: 'Spring on TikTok', ad_id: 'ta1', spend: 100, version: 2 },
  ]);
  await createUser(t, 'owen@example.com', shop.id);
  await createUser(t, 'owen@example.com', paths.id);
  await createUser(t, 'vic@example.com', shop.id, ['--role', 'viewer']);
  await createUser(t, 'mia@example.com', shop.id, ['--role', 'viewer', '--scopes', 'read:meta']);
  await createUser(t, 'pia@example.com', shop.id, ['--role', 'viewer', '--scopes', 'read:profit']);
  await createUser(t, 'oz@example.com', other.id);
  for (const name of ['owen', 'vic', 'mia', 'pia', 'oz']) as[name] = await signIn(t, `${name}@example.com`);
});
after(() => t.close());

async function api(url: string, headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'GET', url, headers });
  return { status: response.statusCode, body: response.json() };
}

const REPORT_CASES = [
  `${RANGE}&breakdown=source`,
  `${RANGE}&breakdown=campaign&source=meta&attribution_model=linear&attribution_window=28`,
  `${RANGE}&breakdown=adgroup&source=meta&attribution_model=u_shaped&metrics=revenue,conversions,spend,roas,cr`,
  `${RANGE}&interval=day&attribution_date=click&exclude_source=email,organic`,
  `${RANGE}&breakdown=source&attribution_model=any_click&metrics=revenue,net_profit,gross_margin,net_roas`,
  `${RANGE}&breakdown=utm_campaign&limit=3&offset=2`,
];

test("the attribution view's numbers equal /v3/report's for the same parameters, per role", async () => {
  const keys = {
    owen: shop.headers,
    mia: await shop.keyHeaders(['read:meta']),
    // A viewer with read:profit alone sees every channel with profit: what an admin key sees.
    pia: shop.headers,
  };
  for (const query of REPORT_CASES) {
    for (const [name, headers] of Object.entries(keys)) {
      const viaApi = await api(`/v3/report?${query}`, headers);
      const viaDashboard = await as[name]!.get(`/dashboard/api/report?workspace=${shop.id}&${query}`);
      assert.equal(viaDashboard.status, viaApi.status, `${name} ${query}`);
      if (viaApi.status !== 200) {
        assert.deepEqual(viaDashboard.body, viaApi.body, `${name} ${query}`);
        continue;
      }
      assert.ok(viaApi.body.data.length > 0, `the fixture has rows for ${query}`);
      const { data, totals, pagination, settings_applied } = viaDashboard.body;
      assert.deepEqual({ data, totals, pagination, settings_applied }, viaApi.body, `${name} ${query}`);
    }
  }
});

test('a viewer sees every channel but no profit; --scopes narrow channels or add profit (the API permission code decides)', async () => {
  const sources = async (who: string) =>
    (await as[who]!.get(`/dashboard/api/report?workspace=${shop.id}&${RANGE}&breakdown=source`)).body.data.map((r: { source: string }) => r.source).sort();
  const owner = await sources('owen');
  assert.ok(owner.length >= 5, owner.join());
  assert.deepEqual(await sources('vic'), owner);
  assert.deepEqual(await sources('mia'), ['meta']);
  const profit = `/dashboard/api/report?workspace=${shop.id}&${RANGE}&metrics=net_profit`;
  assert.deepEqual(await as.vic!.get(profit), { status: 403, body: { message: 'You do not have access to profit metrics' } });
  assert.deepEqual(await as.mia!.get(`/dashboard/api/profit?workspace=${shop.id}&${RANGE}`), { status: 403, body: { message: 'You do not have access to profit metrics' } });
  assert.equal((await as.pia!.get(profit)).status, 200);
  assert.deepEqual(await as.mia!.get(`/dashboard/api/report?workspace=${shop.id}&${RANGE}&source=google`), { status: 403, body: { message: 'You do not have access to the requested sources' } });
  // Excluding a channel moves its credit onto others: a narrowed viewer may only exclude what it sees.
  for (const view of ['report', 'compare', 'overview', 'profit', 'conversions/path', 'conversions/why']) {
    // The path and why endpoints alone read a conversion's key; the others refuse it as unknown parameters.
    const key = { 'conversions/path': `&session_id=1&dt=${today}%2000:00:00&name=purchase`, 'conversions/why': '&transaction_id=T1' }[view] ?? '';
    const excluded = await as.mia!.get(`/dashboard/api/${view}?workspace=${shop.id}&${RANGE}&exclude_source=google${key}`);
    assert.deepEqual(excluded.status === 403 ? excluded.body.message : excluded, 'You do not have access to the requested sources', view);
  }
  const overview = await as.vic!.get(`/dashboard/api/overview?workspace=${shop.id}&${RANGE}`);
  assert.deepEqual(overview.body.metrics, ['spend', 'revenue', 'roas', 'conversions', 'sessions', 'cr'], 'no net profit for a plain viewer');
  const owned = await as.owen!.get(`/dashboard/api/overview?workspace=${shop.id}&${RANGE}`);
  assert.deepEqual(owned.body.metrics, ['spend', 'revenue', 'roas', 'conversions', 'sessions', 'cr', 'net_profit']);
});

test('the overview is two report runs: the range by day and the days of the same number before it', async () => {
  const metrics = 'spend,revenue,roas,conversions,sessions,cr,net_profit';
  const complete = `start_date=${fourDaysAgo}&end_date=${yesterday}`;
  const overview = await as.owen!.get(`/dashboard/api/overview?workspace=${shop.id}&${complete}&attribution_model=linear`);
  assert.equal(overview.status, 200);
  const current = await api(`/v3/report?${complete}&attribution_model=linear&interval=day&metrics=${metrics}`, shop.headers);
  assert.deepEqual([overview.body.interval, overview.body.totals, overview.body.series], ['day', current.body.totals, current.body.data]);
  const startMs = Date.parse(`${fourDaysAgo}T00:00:00Z`);
  const previous = await api(
    `/v3/report?start_date=${new Date(startMs - 4 * 86_400_000).toISOString()}&end_date=${new Date(startMs - 1).toISOString()}&attribution_model=linear&metrics=${metrics}`,
    shop.headers,
  );
  assert.equal(overview.body.partial, false);
  assert.deepEqual(overview.body.previous, previous.body.totals);
  assert.deepEqual(overview.body.previous_range, { start_date: previous.body.pagination.start_date, end_date: previous.body.pagination.end_date });
  const long = await as.owen!.get(`/dashboard/api/overview?workspace=${shop.id}&start_date=2026-01-01&end_date=2026-06-30`);
  assert.equal(long.body.interval, 'week');
});

test('a view reads the range it resolved, not its text again: 1 January 1970 of a zone ahead of UTC begins before 1970 in UTC', async () => {
  const tokyo = await createTestWorkspace(t.stores, 'Tokyo');
  await updateSettings(t.stores.db, tokyo.id, { timezone: 'Asia/Tokyo' });
  await createUser(t, 'owen@example.com', tokyo.id);
  // 09:00 on 1970-01-01 in Tokyo (UTC+9), whose day began at 1969-12-31 15:00 UTC.
  await insertRows(t.stores, 'conversions', [
    { store_id: tokyo.id, dt: '1970-01-01 00:00:00', name: 'purchase', session_id: 1, visitor_id: 1, transaction_id: 'K1', transaction_gross_revenue: 5000, transaction_currency: 'USD' },
  ]);
  const day = 'start_date=1970-01-01&end_date=1970-01-01';
  const viaApi = await api(`/v3/report?${day}&timezone=Asia/Tokyo&breakdown=source`, tokyo.headers);
  const viaDashboard = await as.owen!.get(`/dashboard/api/report?workspace=${tokyo.id}&${day}&breakdown=source`);
  assert.equal(viaDashboard.status, 200, JSON.stringify(viaDashboard.body));
  const { data, totals, pagination, settings_applied } = viaDashboard.body;
  assert.deepEqual({ data, totals, pagination, settings_applied }, viaApi.body);
  assert.deepEqual([pagination.start_date, totals.revenue], ['1969-12-31 15:00:00', 50]);
  // The day before it is no day a bound may name: the overview refuses to compare with it rather
  // than read another period's rows.
  assert.deepEqual(await as.owen!.get(`/dashboard/api/overview?workspace=${tokyo.id}&${day}`), {
    status: 400, body: { message: 'Invalid start_date or end_date parameter', detail: 'start_date must be in the years 1970 to 2299 (got 1969-12-31)' },
  });
});

test('the model comparison holds each model\'s /v3/report rows; profit holds the report by source and over time', async () => {
  const compare = await as.owen!.get(`/dashboard/api/compare?workspace=${shop.id}&${RANGE}&breakdown=source&metrics=revenue,conversions`);
  assert.deepEqual(compare.body.models.map((m: { model: string }) => m.model), ['last_click', 'first_click', 'linear', 'u_shaped', 'total_impact', 'any_click', 'markov', 'data_driven']);
  for (const m of compare.body.models) {
    const viaApi = await api(`/v3/report?${RANGE}&breakdown=source&metrics=revenue,conversions&attribution_model=${m.model}`, shop.headers);
    assert.deepEqual({ data: m.data, totals: m.totals }, { data: viaApi.body.data, totals: viaApi.body.totals }, m.model);
  }
  const profit = await as.owen!.get(`/dashboard/api/profit?workspace=${shop.id}&${RANGE}`);
  const metrics = profit.body.metrics.join(',');
  const bySource = await api(`/v3/report?${RANGE}&breakdown=source&metrics=${metrics}&limit=500`, shop.headers);
  const overTime = await api(`/v3/report?${RANGE}&interval=day&metrics=${metrics}&limit=500`, shop.headers);
  assert.deepEqual([profit.body.by_source, profit.body.totals, profit.body.series], [bySource.body.data, bySource.body.totals, overTime.body.data]);
});

test('conversions are /v3/conversions rows, newest first; the path shows why a conversion was credited where it was, campaigns named', async () => {
  const rows = await as.owen!.get(`/dashboard/api/conversions?workspace=${shop.id}&${RANGE}&source=meta&limit=5&offset=2`);
  const viaApi = await api(`/v3/conversions?${RANGE}&source=meta&limit=500`, shop.headers);
  assert.ok(viaApi.body.data.length > 7 && !viaApi.body.pagination.has_more);
  assert.deepEqual(rows.body.data, viaApi.body.data.reverse().slice(2, 7), 'the same rows, newest first');
  assert.equal(rows.body.pagination.next_offset, 7);

  const path = (q: string) => as.owen!.get(`/dashboard/api/conversions/path?workspace=${paths.id}&session_id=${S41}&dt=2026-03-05%2012:05:00&name=purchase&transaction_id=T3${q}`);
  const lastClick = await path('');
  assert.equal(lastClick.status, 200, JSON.stringify(lastClick.body));
  assert.deepEqual(lastClick.body, {
    dt: '2026-03-05 12:05:00',
    touches: [
      { started: '2026-02-27 12:00:00', session_id: '31', channel: 'tiktok', source: 'tiktok', campaign: 'tt1', adgroup: '', ad: '', utm_campaign: '', weight: 1, campaign_name: 'Spring on TikTok', adgroup_name: '', ad_name: '' },
      { started: '2026-03-05 12:00:00', session_id: S41, channel: '', source: 'organic', campaign: '', adgroup: '', ad: '', utm_campaign: '', weight: null, campaign_name: '', adgroup_name: '', ad_name: '' },
    ],
    organic_weight: 0,
    attribution_model: 'last_click',
    attribution_window: 7,
    exclude_source: [],
  });
  // The report books it the same way: T3 is tiktok's under last click.
  const report = await api('/v3/report?start_date=2026-03-05&end_date=2026-03-05&breakdown=source&metrics=revenue', (await paths.keyHeaders(['admin:admin'])));
  assert.deepEqual(report.body.data, [{ source: 'tiktok', revenue: 200 }, { source: 'organic', revenue: 0 }]);
  const shortWindow = await path('&attribution_window=1');
  assert.deepEqual([shortWindow.body.touches.map((x: { weight: number | null }) => x.weight), shortWindow.body.organic_weight], [[null], 1], 'tiktok falls outside a 1-day window');
  const excluded = await path('&exclude_source=tiktok');
  assert.deepEqual([excluded.body.touches.map((x: { weight: number | null }) => x.weight), excluded.body.organic_weight], [[null, null], 1]);
  for (const model of ['markov', 'data_driven']) {
    const learned = await path(`&attribution_model=${model}&start_date=2026-03-01&end_date=2026-03-07`);
    assert.equal(learned.status, 200, JSON.stringify(learned.body));
    assert.deepEqual([learned.body.touches.map((x: { weight: number | null }) => x.weight), learned.body.attribution_model], [[1, null], model]);
  }
  assert.deepEqual((await path('&attribution_model=nope')).body, { message: 'Invalid attribution_model: nope. Accepted values: last_click, first_click, linear, u_shaped, total_impact, any_click, markov, data_driven' });
  const missing = await as.owen!.get(`/dashboard/api/conversions/path?workspace=${paths.id}&session_id=${S41}&dt=2026-03-05%2012:05:01&name=purchase&transaction_id=T3`);
  assert.deepEqual(missing, { status: 404, body: { message: 'Conversion not found' } });
  const foreign = await as.owen!.get(`/dashboard/api/conversions/path?workspace=${shop.id}&session_id=91&dt=${today}%2000:00:02&name=purchase&transaction_id=OTHER-1`);
  assert.deepEqual(foreign, { status: 404, body: { message: 'Conversion not found' } });
});

test('a drill-down below a campaign answers the names its breadcrumbs show: the campaign\'s from the newest ad-row import', async () => {
  const drilled = await as.owen!.get(`/dashboard/api/report?workspace=${paths.id}&start_date=2026-02-27&end_date=2026-03-05&breakdown=adgroup&source=tiktok&campaign=tt1&adgroup=nope`);
  assert.equal(drilled.status, 200, JSON.stringify(drilled.body));
  assert.deepEqual(drilled.body.drill_names, { campaign: 'Spring on TikTok', adgroup: '' });
  const top = await as.owen!.get(`/dashboard/api/report?workspace=${paths.id}&start_date=2026-02-27&end_date=2026-03-05`);
  assert.deepEqual(top.body.drill_names, {});
});

test('why: an order under every model with the chain of the view\'s range, as /v3/attribution answers it; other workspaces\' orders are not found', async () => {
  const why = await as.owen!.get(`/dashboard/api/conversions/why?workspace=${paths.id}&start_date=2026-03-01&end_date=2026-03-07&transaction_id=T3`);
  assert.equal(why.status, 200, JSON.stringify(why.body));
  // T3's path is bob's tiktok click (visitor 3) six days before: every model gives it tiktok; the
  // chain has one journey, tiktok -> conversion, and no buyer without a conversion.
  const all = (source: string) => Object.fromEntries(
    ['last_click', 'first_click', 'linear', 'u_shaped', 'total_impact', 'any_click', 'markov', 'data_driven'].map((m) => [m, { [source]: 1 }]),
  );
  const { lifts, calibrated_sources, baseline, fit, incremental_revenue, ...rest } = why.body;
  assert.deepEqual(rest, {
    transaction_id: 'T3', dt: '2026-03-05 12:05:00', revenue: 200, source: 'tiktok',
    touchpoints: [{
      session_id: '31', started_at: '2026-02-27 12:00:00', source: 'tiktok', raw_source: 'tiktok', campaign: 'tt1', adgroup: '', ad: '',
      campaign_name: 'Spring on TikTok', adgroup_name: '', ad_name: '',
    }],
    credit: all('tiktok'), removal_effects: { tiktok: 1 }, paths: { converting: 1, non_converting: 0 },
  });
  // A handful of visitors: data_driven falls back to linear, with no lift to show and the whole order on tiktok.
  assert.deepEqual([Object.values(lifts).every((l) => l === 0), calibrated_sources, baseline, fit.method, incremental_revenue], [true, [], 0, 'linear_fallback', { tiktok: 200 }]);
  const viaApi = await api('/v3/attribution?transaction_id=T3&start_date=2026-03-01&end_date=2026-03-07', await paths.keyHeaders(['admin:admin']));
  assert.deepEqual(why.body, viaApi.body.data);
  const excluded = await as.owen!.get(`/dashboard/api/conversions/why?workspace=${paths.id}&start_date=2026-03-01&end_date=2026-03-07&transaction_id=T3&exclude_source=tiktok`);
  assert.deepEqual([excluded.body.touchpoints, excluded.body.credit, excluded.body.paths], [[], all('organic'), { converting: 0, non_converting: 0 }]);
  assert.deepEqual(await as.owen!.get(`/dashboard/api/conversions/why?workspace=${shop.id}&transaction_id=OTHER-1`), { status: 404, body: { message: 'Not found' } });
  assert.deepEqual(await as.owen!.get(`/dashboard/api/conversions/why?workspace=${paths.id}`), { status: 400, body: { message: 'transaction_id is required' } });
});

test('live shows what arrived in the last 30 minutes, and only from the own workspace', async () => {
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
  await insertRows(t.stores, 'events', [
    { store_id: shop.id, dt: now, name: 'pageview', session_id: 555, visitor_id: 556, adv_source: 'google', pathname: '/live-test' },
    { store_id: other.id, dt: now, name: 'pageview', session_id: 557, visitor_id: 558, pathname: '/other-shop' },
  ]);
  const live = await as.owen!.get(`/dashboard/api/live?workspace=${shop.id}`);
  assert.equal(live.status, 200);
  assert.ok(live.body.recent.some((r: { pathname: string; source: string }) => r.pathname === '/live-test' && r.source === 'google'));
  assert.ok(!live.body.recent.some((r: { pathname: string }) => r.pathname === '/other-shop'));
  assert.ok(live.body.minutes.reduce((n: number, m: { pageviews: number }) => n + m.pageviews, 0) >= 1);
  const mia = await as.mia!.get(`/dashboard/api/live?workspace=${shop.id}`);
  assert.ok(!mia.body.recent.some((r: { pathname: string }) => r.pathname === '/live-test'), 'a meta-only viewer does not see google traffic');
});

const VIEW_ENDPOINTS = ['overview', 'report', 'compare', 'profit', 'conversions', 'live'];
const OWNER_ENDPOINTS = ['settings', 'keys', 'install', 'storefront', 'members'];

test('a workspace that is not the user\'s is refused alike, existing or not, on every endpoint', async () => {
  for (const endpoint of [...VIEW_ENDPOINTS, ...OWNER_ENDPOINTS]) {
    for (const workspace of [String(shop.id), '999', '0', '000']) {
      const response = await as.oz!.get(`/dashboard/api/${endpoint}?workspace=${encodeURIComponent(workspace)}&${RANGE}`);
      assert.deepEqual(response, { status: 403, body: { message: 'You do not have access to this workspace' } }, `${endpoint} ${workspace}`);
    }
    const own = await as.oz!.get(`/dashboard/api/${endpoint}?${RANGE}`);
    assert.equal(own.status, 200, `${endpoint} defaults to the user's own workspace`);
  }
  const report = await as.oz!.get(`/dashboard/api/report?${RANGE}`);
  assert.deepEqual(report.body.totals.revenue, 999.99, "only the own workspace's purchase");
  const conversions = await as.oz!.get(`/dashboard/api/conversions?${RANGE}`);
  assert.deepEqual(conversions.body.data.map((c: { transaction_id: string }) => c.transaction_id), ['OTHER-1']);
});

test('a workspace parameter that is not one id is 400 on every endpoint, never the first workspace', async () => {
  for (const endpoint of [...VIEW_ENDPOINTS, ...OWNER_ENDPOINTS]) {
    const malformed = [`workspace[]=${shop.id}`, `workspace[0]=${shop.id}`, `workspace=${shop.id}&workspace=${shop.id}`, 'workspace=-1', 'workspace=abc',
      'workspace=1e3', 'workspace=%201', `workspace=${shop.id}.0`, 'workspace=1234567890123456', 'workspace=__proto__'];
    for (const query of malformed) {
      const response = await as.owen!.get(`/dashboard/api/${endpoint}?${query}&${RANGE}`);
      assert.deepEqual(response, { status: 400, body: { message: 'workspace must be one workspace id (digits)' } }, `${endpoint} ${query}`);
    }
  }
});

test('a viewer calling an owner endpoint gets 403 and changes nothing', async () => {
  for (const endpoint of OWNER_ENDPOINTS) {
    assert.deepEqual(await as.vic!.get(`/dashboard/api/${endpoint}?workspace=${shop.id}`), { status: 403, body: { message: 'Only owners of this workspace can do this' } }, endpoint);
  }
  const writes: [('POST' | 'PUT' | 'DELETE'), string, unknown][] = [
    ['PUT', 'settings', { refund_netting: true }],
    ['POST', 'keys', { scopes: ['admin:admin'] }],
    ['DELETE', 'keys/1', undefined],
    ['PUT', 'storefront', { origins: ['https://evil.example'], consent_version: 'v1', marketing_version: 'v1', session_attempts: 1, daily_attempts: 1 }],
  ];
  for (const [method, path, body] of writes) {
    assert.deepEqual(await as.vic!.send(method, `/dashboard/api/${path}?workspace=${shop.id}`, body), { status: 403, body: { message: 'Only owners of this workspace can do this' } });
  }
  const settings = await as.owen!.get(`/dashboard/api/settings?workspace=${shop.id}`);
  assert.equal(settings.body.settings.refund_netting, false);
});

const GARBAGE = ['', 'x', '-1', '0', '1e9', '99999999999999999999999', '2026-02-30', 'null', '%00', '../..', "'; DROP TABLE events --", 'a'.repeat(3000), '[]', '{}', 'meta,,google', 'é'];
const PARAMS = ['start_date', 'end_date', 'breakdown', 'attribution_model', 'attribution_window', 'attribution_date', 'metrics', 'interval', 'source',
  'exclude_source', 'limit', 'offset', 'name', 'campaign', 'adgroup', 'transaction_id', 'customer_id', 'is_new_customer', 'session_id', 'dt'];

test('garbage in every query parameter of every view gets a clear 400 or a normal answer, never a 500', async () => {
  for (const endpoint of [...VIEW_ENDPOINTS, 'conversions/path']) {
    for (const param of PARAMS) {
      for (const value of [...GARBAGE.map((g) => encodeURIComponent(g)), 'a&' + param + '=b']) {
        const response = await as.owen!.get(`/dashboard/api/${endpoint}?workspace=${shop.id}&${param}=${value}`);
        assert.ok([200, 400, 403, 404].includes(response.status), `${endpoint} ${param}=${value.slice(0, 40)}: ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
        if (response.status !== 200) assert.equal(typeof response.body.message, 'string');
        assert.ok(!JSON.stringify(response.body).includes('OTHER-1'), 'never another workspace\'s data');
      }
    }
  }
  assert.deepEqual(await as.owen!.get(`/dashboard/api/report?workspace=${shop.id}&breakdown=nope`), {
    status: 400,
    body: { message: 'Invalid breakdown: nope. Accepted values: source, campaign, adgroup, ad, utm_source, utm_campaign, utm_medium, utm_term, utm_content, referrer, landing_page, city, coupon_code' },
  });
});

test('an unknown parameter on a view endpoint is a 400 naming it and the nearest known one, like the data API', async () => {
  const get = (url: string) => as.owen!.get(`/dashboard/api/${url}`);
  const unknown = (message: string) => ({ status: 400, body: { message } });
  for (const endpoint of ['overview', 'report', 'compare', 'profit']) {
    assert.deepEqual(await get(`${endpoint}?workspace=${shop.id}&breakdwon=campaign`), unknown('Unknown parameter: breakdwon. Did you mean breakdown?'), endpoint);
  }
  assert.deepEqual(await get(`conversions?workspace=${shop.id}&transaction=T1`), unknown('Unknown parameter: transaction. Did you mean transaction_id?'));
  // The rows endpoint takes the data API's conversions parameters: attribution shapes the path only.
  assert.deepEqual(await get(`conversions?workspace=${shop.id}&attribution_model=linear`), unknown('Unknown parameter: attribution_model'));
  assert.deepEqual(await get(`conversions/path?workspace=${paths.id}&session=41`), unknown('Unknown parameter: session. Did you mean session_id?'));
  assert.equal((await get(`report?workspace=${shop.id}&from=${fourDaysAgo}&sources=meta&exclude_sources=google`)).status, 200);
});
