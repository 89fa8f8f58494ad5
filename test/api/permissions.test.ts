/**
 * Properties of key permissions over every data endpoint: whatever known scopes a key holds and
 * whatever it asks, it receives nothing of a channel it cannot see, and what it receives is the
 * admin key's answer to the same request narrowed to its channels (the totals included).
 * Fixture: the demo shop (src/cli/demo) for the 6 days 2026-11-15 to 2026-11-20 at 150 sessions a
 * day: facebook, instagram, google, tiktok, microsoft, bing, creator, email and untagged traffic,
 * with their conversions, and ads of meta, google, tiktok, microsoft and bing. The expected
 * answers come from the admin key and the permission model of test/permission-model.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemo } from '../../src/cli/demo/seed.ts';
import {
  ATOMS,
  anyScopes,
  atomScopes,
  keyModel,
  mayRequest,
  reportingSource,
  sees,
  seesAnyChannel,
  type KeyModel,
} from '../permission-model.ts';

let t: TestApp;
let shop: TestWorkspace;

const DAYS = ['2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];
const PIXEL_SOURCES = ['meta', 'facebook', 'instagram', 'google', 'tiktok', 'microsoft', 'bing', 'creator', 'email', 'organic', 'pinterest'];
const AD_SOURCES = ['meta', 'facebook', 'google', 'tiktok', 'microsoft', 'bing', 'pinterest'];

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  await seedDemo(t.stores.ch, { workspaceId: shop.id, days: DAYS.length, now: new Date('2026-11-20T23:00:00Z'), sessionsPerDay: 150 });
});
after(() => t.close());

type Query = Record<string, string | number | undefined>;
type Reply = { status: number; body: any };

const keys = new Map<string, Record<string, string>>();
/** One key per scope set, created on first use. */
async function headersOf(scopes: string[]): Promise<Record<string, string>> {
  const id = [...scopes].sort().join(',');
  if (!keys.has(id)) keys.set(id, await shop.keyHeaders(scopes));
  return keys.get(id)!;
}

function url(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  return `${path}?${params}`;
}

async function get(path: string, query: Query, headers: Record<string, string>): Promise<Reply> {
  const response = await t.app.inject({ method: 'GET', url: url(path, query), headers });
  return { status: response.statusCode, body: response.json() };
}

const adminAnswers = new Map<string, any[]>();
/** Every row the admin key gets for the request, over all pages. */
async function adminRows(path: string, query: Query): Promise<any[]> {
  const id = url(path, { ...query, limit: undefined, offset: undefined });
  if (adminAnswers.has(id)) return adminAnswers.get(id)!;
  const rows: any[] = [];
  for (let offset = 0; ; offset += 500) {
    const { status, body } = await get(path, { ...query, limit: 500, offset }, shop.headers);
    assert.equal(status, 200, JSON.stringify(body));
    rows.push(...body.data);
    if (!body.pagination.has_more) break;
  }
  adminAnswers.set(id, rows);
  return rows;
}

/** The 403 a key must get for the request, or null when it may ask. */
function refusal(key: KeyModel, requested: string[], pixel: boolean): string | null {
  if (pixel && !seesAnyChannel(key)) return 'You do not have access to pixel data';
  if (!pixel && key.channels !== null && ![...key.channels].some((c) => AD_CHANNELS.has(c))) return 'You do not have access to ads data';
  if (requested.some((s) => !mayRequest(key, s))) return 'You do not have access to the requested sources';
  return null;
}
const AD_CHANNELS = new Set(['meta', 'facebook', 'instagram', 'messenger', 'audience_network', 'threads', 'google', 'tiktok', 'pinterest', 'snapchat', 'microsoft', 'bing', 'openai', 'outbrain', 'taboola', 'whatsapp']);

const dayRange = fc
  .tuple(fc.integer({ min: 0, max: DAYS.length - 1 }), fc.integer({ min: 0, max: 2 }))
  .map(([first, length]) => ({ start_date: DAYS[first]!, end_date: DAYS[Math.min(DAYS.length - 1, first + length)]! }));
const page = fc.record({ limit: fc.constantFrom(1, 7, 50, 500), offset: fc.constantFrom(0, 0, 3, 40, 200) });
const sourceFilter = (sources: string[]) =>
  fc.option(fc.subarray(sources, { minLength: 1, maxLength: Math.min(3, sources.length) }), { nil: undefined });
const list = (values: string[] | undefined) => values?.join(',');

/** Scopes and a source filter: mostly sources the key may name, sometimes any (a 403). */
const scopesAndSources = (scopes: fc.Arbitrary<string[]>, sources: string[]) =>
  scopes.chain((chosen) => {
    const allowed = sources.filter((s) => mayRequest(keyModel(chosen), s));
    const fitting = allowed.length ? sourceFilter(allowed) : fc.constant(undefined);
    return fc.tuple(fc.constant(chosen), fc.oneof({ weight: 4, arbitrary: fitting }, { weight: 1, arbitrary: sourceFilter(sources) }));
  });

/** Checks one paged row-level answer against the admin's rows narrowed to the key's channels. */
async function checkRows(path: string, key: KeyModel, query: Query, requested: string[], channelOf: (row: any) => string) {
  const headers = await headersOf(key.scopes);
  const reply = await get(path, query, headers);
  const refused = refusal(key, requested, true);
  if (refused) return assert.deepEqual(reply, { status: 403, body: { message: refused } });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  for (const row of reply.body.data) assert.ok(sees(key, channelOf(row)), `${path} gave a ${channelOf(row)} row to ${key.scopes}`);
  const visible = (await adminRows(path, query)).filter((row) => sees(key, channelOf(row)));
  const offset = Number(query.offset);
  const limit = Number(query.limit);
  assert.deepEqual(reply.body.data, visible.slice(offset, offset + limit));
  assert.equal(reply.body.pagination.has_more, visible.length > offset + limit);
}

const RUNS = { numRuns: 40 };

describe('a key sees only its channels', () => {
  test('/v3/events and /v3/sessions give exactly the admin rows of the visible channels, page by page', async () => {
    await fc.assert(
      fc.asyncProperty(
        scopesAndSources(anyScopes, PIXEL_SOURCES), dayRange, page, fc.constantFrom('/v3/events', '/v3/sessions'),
        fc.option(fc.constantFrom('pageview', 'add_*', '*_checkout'), { nil: undefined }),
        async ([scopes, source], range, paging, path, name) => {
          const query = { ...range, ...paging, source: list(source), ...(path === '/v3/events' ? { name } : {}) };
          await checkRows(path, keyModel(scopes), query, source ?? [], (row) => row.adv_source);
        },
      ),
      RUNS,
    );
  });

  test('/v3/conversions rows give exactly the admin rows of the visible channels', async () => {
    await fc.assert(
      fc.asyncProperty(
        scopesAndSources(anyScopes, PIXEL_SOURCES), dayRange, page, sourceFilter(PIXEL_SOURCES),
        fc.constantFrom(undefined, '0', '1'),
        async ([scopes, source], range, paging, exclude, isNew) => {
          const query = { ...range, ...paging, source: list(source), exclude_source: list(exclude), is_new_customer: isNew };
          await checkRows('/v3/conversions', keyModel(scopes), query, source ?? [], (row) => row.adv_source);
        },
      ),
      RUNS,
    );
  });

  test('grouped /v3/conversions counts equal the admin counts of the visible channels, summed', async () => {
    const DIMENSIONS = ['adv_source', 'date', 'name', 'country_code', 'utm_medium'];
    const METRICS = ['conversions', 'revenue', 'new_customers'];
    await fc.assert(
      fc.asyncProperty(scopesAndSources(anyScopes, PIXEL_SOURCES), dayRange, fc.subarray(DIMENSIONS, { minLength: 1, maxLength: 2 }), async ([scopes, source], range, dims) => {
        const key = keyModel(scopes);
        const query = { ...range, source: list(source), group_by: dims.join(','), limit: 500 };
        const reply = await get('/v3/conversions', query, await headersOf(scopes));
        const refused = refusal(key, source ?? [], true);
        if (refused) return assert.deepEqual(reply, { status: 403, body: { message: refused } });
        assert.equal(reply.status, 200);
        const withSource = [...new Set(['adv_source', ...dims])];
        const expected = new Map<string, Record<string, number>>();
        for (const row of await adminRows('/v3/conversions', { ...query, group_by: withSource.join(',') })) {
          if (!sees(key, row.adv_source)) continue;
          const id = JSON.stringify(dims.map((d) => row[d]));
          const sums = expected.get(id) ?? Object.fromEntries(METRICS.map((m) => [m, 0]));
          for (const m of METRICS) sums[m]! += row[m];
          expected.set(id, sums);
        }
        const got = new Map<string, Record<string, number>>(
          reply.body.data.map((row: any) => [JSON.stringify(dims.map((d) => row[d])), Object.fromEntries(METRICS.map((m) => [m, row[m]]))]),
        );
        assert.deepEqual(got, expected);
        if (dims.includes('adv_source')) for (const row of reply.body.data) assert.ok(sees(key, row.adv_source));
      }),
      RUNS,
    );
  });

  test('/v3/ads gives the admin rows of the visible platforms, with totals over them', async () => {
    await fc.assert(
      fc.asyncProperty(scopesAndSources(anyScopes, AD_SOURCES), dayRange, page, async ([scopes, source], range, paging) => {
        const key = keyModel(scopes);
        const query = { ...range, ...paging, source: list(source) };
        const reply = await get('/v3/ads', query, await headersOf(scopes));
        const refused = refusal(key, source ?? [], false);
        if (refused) return assert.deepEqual(reply, { status: 403, body: { message: refused } });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        const visible = (await adminRows('/v3/ads', query)).filter((row) => sees(key, row.source));
        assert.deepEqual(reply.body.data, visible.slice(paging.offset, paging.offset + paging.limit));
        const sum = (field: string) => visible.reduce((a, row) => a + Number(row[field]), 0);
        assert.deepEqual(reply.body.totals, {
          total_ads: new Set(visible.map((row) => `${row.source}/${row.ad_id}`)).size,
          total_spend: sum('spend'),
          total_impressions: sum('impressions'),
          total_clicks: sum('clicks'),
          total_reach: sum('reach'),
        });
      }),
      RUNS,
    );
  });
});

const MODELS = ['last_click', 'first_click', 'linear', 'u_shaped', 'total_impact', 'any_click'];
const ADDITIVE = ['spend', 'revenue', 'conversions', 'sessions', 'impressions', 'clicks', 'new_customers', 'add_to_carts', 'checkouts'];
const PROFIT = ['cogs', 'payment_fees', 'shipping_costs', 'gross_profit'];
const CREDITED = ['revenue', 'conversions', 'new_customers', ...PROFIT];
const BREAKDOWNS_WITH_SOURCE = ['source', 'campaign', 'adgroup', 'ad'];
const OTHER_BREAKDOWNS = ['utm_source', 'utm_medium', 'landing_page', 'city', 'coupon_code'];
const CENT = 0.0101;

function close(actual: number, expected: number, slack: number, what: string) {
  assert.ok(Math.abs(actual - expected) <= slack, `${what}: ${actual} != ${expected}`);
}

describe('report totals are the sum of what a key may see', () => {
  test('/v3/report rows and totals of a key equal the admin rows of its sources, for every model and breakdown', async () => {
    await fc.assert(
      fc.asyncProperty(
        scopesAndSources(atomScopes.map(({ atoms, extra }) => [...atoms, ...extra]), ['meta', 'google', 'tiktok', 'microsoft', 'creator', 'email', 'organic']),
        dayRange, fc.constantFrom(...MODELS), fc.constantFrom(1, 7, 28), fc.constantFrom('conversion', 'click'),
        fc.constantFrom(...BREAKDOWNS_WITH_SOURCE, ...OTHER_BREAKDOWNS, undefined), fc.subarray([...ADDITIVE, ...PROFIT], { minLength: 1, maxLength: 6 }),
        sourceFilter(['facebook', 'google', 'email']),
        async ([scopes, source], range, model, window, dateMode, breakdown, metrics, exclude) => {
          const key = keyModel(scopes);
          const common = {
            ...range, attribution_model: model, attribution_window: window, attribution_date: dateMode,
            metrics: metrics.join(','), source: list(source), exclude_source: list(exclude), limit: 500,
          };
          const reply = await get('/v3/report', { ...common, breakdown }, await headersOf(scopes));
          // Excluding a source moves its credit onto others: a key may only exclude what it may name.
          const refused = refusal(key, [...(source ?? []), ...(exclude ?? [])], true) ?? (metrics.some((m) => PROFIT.includes(m)) && !key.profit ? 'You do not have access to profit metrics' : null);
          if (refused) return assert.deepEqual(reply, { status: 403, body: { message: refused } });
          assert.equal(reply.status, 200, JSON.stringify(reply.body));
          const { body } = reply;
          assert.equal(body.pagination.has_more, false);
          const admin = await get('/v3/report', { ...common, breakdown: 'source' }, shop.headers);
          const visible = admin.body.data.filter((row: any) => key.channels === null || [...key.channels].some((c) => reportingSource(c) === row.source));
          if (breakdown && BREAKDOWNS_WITH_SOURCE.includes(breakdown)) {
            for (const row of body.data) assert.ok(visible.some((v: any) => v.source === row.source), `a ${row.source} row for ${scopes}`);
          }
          if (breakdown === 'source') {
            const bySource = (rows: any[]) => Object.fromEntries(rows.map((row) => [row.source, metrics.map((m) => row[m])]));
            assert.deepEqual(bySource(body.data), bySource(visible));
          }
          // any_click credits every platform of a path in full: its rows do not add up to the total.
          if (model === 'any_click') return;
          // Pixel-side breakdowns carry no spend, and city and coupon_code no session counts, in rows or totals.
          const compared = breakdown && OTHER_BREAKDOWNS.includes(breakdown) ? metrics.filter((m) => CREDITED.includes(m)) : metrics;
          for (const m of compared) {
            close(body.totals[m], visible.reduce((a: number, row: any) => a + row[m], 0), CENT * (visible.length + 1), `totals.${m}`);
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  test('the report totals of a key and of the key holding every other channel add up to the admin totals', async () => {
    await fc.assert(
      fc.asyncProperty(atomScopes, dayRange, fc.constantFrom(...MODELS.filter((m) => m !== 'any_click')), async ({ atoms }, range, model) => {
        const query = { ...range, attribution_model: model, metrics: ADDITIVE.join(',') };
        const own = await get('/v3/report', query, await headersOf(atoms));
        const rest = await get('/v3/report', query, await headersOf(ATOMS.filter((a) => !atoms.includes(a))));
        const admin = await get('/v3/report', query, shop.headers);
        const totals = (reply: Reply) => (reply.status === 403 ? {} : reply.body.totals);
        for (const m of ADDITIVE) close((totals(own)[m] ?? 0) + (totals(rest)[m] ?? 0), admin.body.totals[m], 2 * CENT, m);
      }),
      { numRuns: 15 },
    );
  });
});

describe('the fixture', () => {
  test('has conversions on several channels, so the properties above compare something', async () => {
    const { body } = await get('/v3/conversions', { start_date: DAYS[0], end_date: DAYS.at(-1), group_by: 'adv_source' }, shop.headers);
    assert.ok(body.data.length >= 5, JSON.stringify(body.data));
  });
});
