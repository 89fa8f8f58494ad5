/**
 * Properties of key permissions over every read tool of the tool endpoint (taken from the tools
 * registry, so a new tool fails here until it has a check): nothing a key receives comes from a
 * channel it cannot see, and what it receives adds up: a key's numbers plus those of the key
 * holding every other channel equal the admin's, and channel-tagged answers equal the admin's
 * narrowed to the key's channels.
 * Fixture: the demo shop (src/cli/demo) for the 6 days 2026-11-15 to 2026-11-20 at 150 sessions
 * a day; on top, an A/B test "hero" (variants A and B) in sessions of google, facebook, email and
 * untagged traffic, some of them converting; daily weather for New York and London; a note, a list
 * and a creator made by the admin key. Then, in the last three days (the tools without a range read
 * the last 90 days), order path-1 of a buyer who came by google, facebook and email, buying in the
 * email session, and orders path-2 and path-3 of one-session buyers from facebook and google.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemo } from '../../src/cli/demo/seed.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { ATOMS, atomScopes, complementOf, keyModel, mayRequest, reportingSource, sees, seesAnyChannel, type KeyModel } from '../permission-model.ts';
import { callTool, toolOk } from './rpc.ts';

let t: TestApp;
let shop: TestWorkspace;
/** A survey answered on orders path-1 to path-3. */
let surveyId = '';

const DAYS = ['2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  await seedDemo(t.stores.ch, { workspaceId: shop.id, days: DAYS.length, now: new Date('2026-11-20T23:00:00Z'), sessionsPerDay: 150 });
  const tested = [['google', 'A'], ['google', 'B'], ['facebook', 'A'], ['facebook', 'B'], ['email', 'B'], ['', 'A'], ['', 'B']] as const;
  await insertRows(t.stores, 'events', tested.map(([adv_source, variant], i) => ({
    store_id: shop.id, dt: `2026-11-1${6 + (i % 3)} 10:0${i}:00.000`, name: 'pageview', session_id: 900 + i, visitor_id: 900 + i,
    adv_source, entry_meta_keys: ['ab_test', 'ab_variant'], entry_meta_values: ['hero', variant], country_code: 'US',
  })));
  await insertRows(t.stores, 'conversions', [0, 3, 4, 6].map((i) => ({
    store_id: shop.id, dt: `2026-11-1${6 + (i % 3)} 10:3${i}:00.000`, name: 'purchase', session_id: 900 + i, visitor_id: 900 + i,
    transaction_id: `ab-${i}`, transaction_gross_revenue: 1000 * (i + 1), transaction_country_code: 'US', transaction_city: 'New York',
  })));
  const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString().replace('T', ' ').replace('Z', '');
  const recent = [[950, 950, 'google', 72], [951, 950, 'facebook', 48], [952, 950, 'email', 24], [953, 953, 'facebook', 12], [954, 954, 'google', 6]] as const;
  await insertRows(t.stores, 'events', recent.map(([session_id, visitor_id, adv_source, hours]) => ({
    store_id: shop.id, dt: ago(hours), name: 'pageview', session_id, visitor_id, adv_source, country_code: 'US',
  })));
  await insertRows(t.stores, 'conversions', ([[952, 950, 'path-1', 23.5], [953, 953, 'path-2', 11.5], [954, 954, 'path-3', 5.5]] as const).map(([session_id, visitor_id, transaction_id, hours], i) => ({
    store_id: shop.id, dt: ago(hours), name: 'purchase', session_id, visitor_id, transaction_id, transaction_gross_revenue: 9000 + i * 100,
    transaction_country_code: 'US', transaction_city: 'New York',
  })));
  await insertRows(t.stores, 'weather_daily', DAYS.flatMap((dt, i) => [
    { store_id: shop.id, dt, country_code: 'US', city: 'New York', temperature_c: 5 + i, precipitation_mm: i % 2, condition: i % 2 ? 'rain' : 'clear', version: 1 },
    { store_id: shop.id, dt, country_code: 'GB', city: 'London', temperature_c: 8 - i, precipitation_mm: 2, condition: 'rain', version: 1 },
  ]));
  await toolOk(t.app, shop.headers, 'notes.save-note', { title: 'Week 47', content: 'Meta ROAS down' });
  await toolOk(t.app, shop.headers, 'lists.create', { name: 'Winners', kind: 'list' });
  await toolOk(t.app, shop.headers, 'creators.create', { name: 'Maya' });
  const { survey } = await toolOk(t.app, shop.headers, 'surveys.create', {
    title: 'Heard', questions: [{ text: 'How did you hear about us?', type: 'single_choice', options: ['Instagram', 'Google', 'Friend'] }],
  });
  surveyId = survey.id;
  await insertRows(t.stores, 'survey_responses', ([['path-1', 'Instagram'], ['path-2', 'Instagram'], ['path-3', 'Friend']] as const).map(([transaction_id, value]) => ({
    store_id: shop.id, survey_id: Number(survey.id), transaction_id, answers: JSON.stringify([{ question: 0, value }]), dt: ago(1), version: 1,
  })));
});
after(() => t.close());

type Outcome = { ok: true; value: any } | { ok: false; code: string };

const keys = new Map<string, Record<string, string>>();
async function headersOf(scopes: string[]): Promise<Record<string, string>> {
  const id = [...scopes].sort().join(',');
  if (!keys.has(id)) keys.set(id, await shop.keyHeaders(scopes));
  return keys.get(id)!;
}

async function call(headers: Record<string, string>, name: string, args: object): Promise<Outcome> {
  const reply = await callTool(t.app, headers, name, args);
  assert.ok(reply.result, `${name} ${JSON.stringify(args)} answered ${JSON.stringify(reply.error)}`);
  if (reply.result.isError) return { ok: false, code: reply.result.structuredContent.error.code };
  return { ok: true, value: reply.result.structuredContent };
}

/** The three answers a check compares: the key's, the complementary key's and the admin's. */
interface Answers {
  key: KeyModel;
  own: Outcome;
  rest: () => Promise<Outcome>;
  admin: () => Promise<Outcome>;
}

type Numbers = Map<string, number>;

/** Sums must match to the cent (each side is rounded to cents on its own). */
function assertAddsUp(own: Numbers, rest: Numbers, admin: Numbers, what: string) {
  for (const id of new Set([...own.keys(), ...rest.keys(), ...admin.keys()])) {
    const sum = (own.get(id) ?? 0) + (rest.get(id) ?? 0);
    assert.ok(Math.abs(sum - (admin.get(id) ?? 0)) <= 0.0201, `${what} ${id}: ${own.get(id) ?? 0} + ${rest.get(id) ?? 0} != ${admin.get(id) ?? 0}`);
  }
}

function numbers(entries: [string, unknown][]): Numbers {
  return new Map(entries.map(([id, v]) => [id, Number(v ?? 0)]));
}

/** Whether a key may be shown a channel, raw or as its reporting source. */
function shows(key: KeyModel, channel: string): boolean {
  return key.channels === null || [...key.channels].some((c) => reportingSource(c) === reportingSource(channel) || c === channel);
}

/** A key that sees no channel is refused; otherwise the answer is read. */
function readable(a: Answers, outcome: Outcome, key = a.key): any | null {
  if (!seesAnyChannel(key)) {
    assert.deepEqual(outcome, { ok: false, code: 'permission_denied' });
    return null;
  }
  assert.ok(outcome.ok, `refused: ${JSON.stringify(outcome)}`);
  return outcome.value;
}

/** own + rest = admin for the numbers `extract` picks out; `channel` names the channel of each entry, when entries have one. */
function additive(extract: (value: any) => [string, unknown][], channelsOf?: (value: any) => string[], needsAds = false) {
  return async (a: Answers) => {
    const restKey = keyModel(complementOf(a.key.scopes.filter((s) => ATOMS.includes(s))));
    const read = (outcome: Outcome, key: KeyModel): Numbers => {
      const seesAds = key.channels === null || [...key.channels].some((c) => !['', 'organic', 'email', 'creator', 'influencer'].includes(c));
      if (needsAds && !seesAds) {
        assert.deepEqual(outcome, { ok: false, code: 'permission_denied' });
        return new Map();
      }
      const value = needsAds ? (assert.ok(outcome.ok), (outcome as { value: any }).value) : readable(a, outcome, key);
      if (value === null) return new Map();
      for (const channel of channelsOf?.(value) ?? []) assert.ok(shows(key, channel), `${channel} shown to ${key.scopes}`);
      return numbers(extract(value));
    };
    const admin = await a.admin();
    assert.ok(admin.ok);
    assertAddsUp(read(a.own, a.key), read(await a.rest(), restKey), numbers(extract(admin.value)), 'sum');
  };
}

/** Every key sees the same workspace objects as the admin. */
async function sameAsAdmin(a: Answers) {
  assert.deepEqual(a.own, await a.admin());
}

/** Only admin keys get an answer. */
async function adminOnly(a: Answers) {
  if (a.key.admin) assert.ok(a.own.ok);
  else assert.deepEqual(a.own, { ok: false, code: 'permission_denied' });
}

const range = fc
  .tuple(fc.integer({ min: 0, max: DAYS.length - 1 }), fc.integer({ min: 0, max: 5 }))
  .map(([first, length]) => ({ date_from: DAYS[first]!, date_to: DAYS[Math.min(DAYS.length - 1, first + length)]! }));
const MODELS = ['last_click', 'first_click', 'linear', 'u_shaped', 'total_impact'] as const;
const ADDITIVE = ['spend', 'revenue', 'conversions', 'sessions', 'impressions', 'clicks', 'new_customers'];
const filters = fc.record({ date_from: fc.constant(DAYS[0]), date_to: fc.constant(DAYS.at(-1)) });
const page = fc.record({ limit: fc.integer({ min: 1, max: 500 }), offset: fc.constantFrom(0, 1) }, { requiredKeys: [] });
const byName = (rows: any[], name: string, fields: string[]) => rows.flatMap((row) => fields.map((f): [string, unknown] => [`${row[name]}/${f}`, row[f]]));

/** The orders attribution.explain is asked about, with the raw channels of their paths as the admin sees them. */
const EXPLAINED: Record<string, string[]> = {
  'path-1': ['google', 'facebook', 'email'], 'path-2': ['facebook'], 'path-3': ['google'], 'ab-0': ['google'], 'ab-3': ['facebook'], 'ab-6': [],
};

interface Check {
  args: fc.Arbitrary<object>;
  /** Runs of the property (default 6); the report tools cost a report per call. */
  runs?: number;
  /** Keys (by their atoms) and arguments always tried besides the random ones. */
  examples?: [string[], object][];
  verify(a: Answers, args: any): Promise<void>;
}

const CHECKS: Record<string, Check> = {
  'metadata.list_schema': {
    args: fc.constant({}),
    async verify(a) {
      assert.ok(a.own.ok);
      const schema = (a.own as { value: any }).value.schema;
      for (const s of schema.sources) assert.equal(s.readable, mayRequest(a.key, s.source), s.source);
      for (const m of schema.metrics) assert.equal(m.available, !m.needs_profit_access || a.key.profit, m.name);
    },
  },
  'analytics.query': {
    args: fc.record({
      filters: range,
      attribution_model: fc.constantFrom(...MODELS),
      breakdown: fc.constantFrom('source', 'campaign', 'utm_source'),
      metrics: fc.constant(ADDITIVE),
      limit: fc.constant(500),
    }),
    runs: 5,
    verify: additive(
      (v) => Object.entries(v.totals),
      (v) => v.rows.filter((row: any) => row.source !== undefined).map((row: any) => row.source),
    ),
  },
  'analytics.profit-summary': {
    args: fc.record({ filters: range, attribution_model: fc.constantFrom(...MODELS) }),
    runs: 5,
    async verify(a) {
      if (!a.key.profit) return assert.deepEqual(a.own, { ok: false, code: 'permission_denied' });
      const restKey = keyModel([...complementOf(a.key.scopes.filter((s) => ATOMS.includes(s))), 'read:profit']);
      const pick = (o: Outcome, key: KeyModel) => {
        const v = readable(a, o, key);
        return v === null ? new Map() : numbers(['revenue', 'spend', 'conversions', 'cogs', 'payment_fees', 'shipping_costs'].map((m) => [m, v.profit.totals[m]]));
      };
      const admin = await a.admin();
      assertAddsUp(pick(a.own, a.key), pick(await a.rest(), restKey), pick(admin, keyModel(['admin:admin'])), 'profit');
    },
  },
  'attribution.get-data': {
    args: fc.record({ filters, models: fc.subarray([...MODELS], { minLength: 1, maxLength: 2 }) }),
    runs: 4,
    verify: additive(
      (v) => Object.entries(v.attribution.totals).flatMap(([model, totals]: [string, any]) => ['revenue', 'conversions', 'spend'].map((m): [string, unknown] => [`${model}/${m}`, totals[m]])),
      (v) => v.attribution.channels.map((c: any) => c.source),
    ),
  },
  'attribution.explain': {
    args: fc.record({ transaction_id: fc.constantFrom(...Object.keys(EXPLAINED)), date_from: fc.constant(DAYS[0]) }),
    runs: 10,
    examples: [['read:google'], ['read:meta'], ['read:organic']].map((atoms) => [atoms, { transaction_id: 'path-1', date_from: DAYS[0] }]),
    async verify(a, args) {
      if (!seesAnyChannel(a.key)) return assert.deepEqual(a.own, { ok: false, code: 'permission_denied' });
      // The admin's path, narrowed to the key's channels, is the key's path; an order of which it sees no touch (or an organic one without read:organic) is not found.
      const admin = await a.admin();
      assert.ok(admin.ok);
      const all = admin.value.attribution;
      assert.deepEqual(all.touchpoints.map((tp: any) => tp.raw_source), EXPLAINED[args.transaction_id], 'the fixture\'s path');
      const path = all.touchpoints.filter((tp: any) => sees(a.key, tp.raw_source));
      const organic = all.touchpoints.length === 0;
      if (organic ? !sees(a.key, '') : path.length === 0) return assert.deepEqual(a.own, { ok: false, code: 'not_found' });
      assert.ok(a.own.ok, JSON.stringify(a.own));
      const own = (a.own as { value: any }).value.attribution;
      assert.deepEqual([own.transaction_id, own.dt, own.revenue, own.touchpoints], [all.transaction_id, all.dt, all.revenue, path]);
      const sources = organic ? ['organic'] : [...new Set(path.map((tp: any) => tp.source))];
      assert.equal(own.source, sources.at(-1));
      for (const [model, shares] of Object.entries(own.credit)) assert.deepEqual(Object.keys(shares as object), sources, model);
      for (const source of Object.keys(own.removal_effects)) assert.ok(shows(a.key, source), `${source} shown to ${a.key.scopes}`);
    },
  },
  'conversions.get-recent': {
    args: fc.record({ limit: fc.integer({ min: 1, max: 20 }), with_path: fc.boolean() }),
    examples: [['read:google'], ['read:email']].map((atoms) => [atoms, { limit: 3, with_path: true }]),
    async verify(a, args) {
      const value = readable(a, a.own);
      if (value === null) return;
      // The admin's newest orders whose own session the key sees, each path narrowed to the key's channels, are the key's.
      const admin = await call(shop.headers, 'conversions.get-recent', { limit: 20, with_path: true });
      assert.ok(admin.ok);
      const all = admin.value.conversions;
      assert.deepEqual(all.slice(0, 3).map((c: any) => [c.transaction_id, c.path.map((tp: any) => tp.raw_source)]),
        [['path-3', ['google']], ['path-2', ['facebook']], ['path-1', ['google', 'facebook', 'email']]]);
      const visible = all.filter((c: any) => sees(a.key, c.session_source)).map(({ path, ...c }: any) =>
        args.with_path ? { ...c, path: path.filter((tp: any) => sees(a.key, tp.raw_source)) } : c);
      const own = value.conversions;
      assert.ok(own.length <= args.limit && own.length >= Math.min(args.limit, visible.length), `${own.length} of ${visible.length}`);
      const n = Math.min(own.length, visible.length);
      assert.deepEqual(own.slice(0, n), visible.slice(0, n));
    },
  },
  'journeys.get-data': {
    args: fc.record({ date_from: fc.constantFrom(...DAYS), attribution_window: fc.constantFrom(1, 7, 28) }).map((r) => ({ ...r, date_to: DAYS.at(-1), limit: 200 })),
    async verify(a) {
      const value = readable(a, a.own);
      if (value === null) return;
      const admin = await a.admin();
      assert.ok(admin.ok);
      assert.ok(admin.value.journeys.paths.length < 200, 'the admin sees every path');
      const visible = admin.value.journeys.paths.filter((p: any) => p.path.every((c: string) => sees(a.key, c)));
      assert.deepEqual(value.journeys.paths, visible);
    },
  },
  'correlations.get-data': {
    args: range,
    verify: additive((v) => byName(v.correlations.channels, 'channel', ['spend', 'revenue']), (v) => v.correlations.channels.map((c: any) => c.channel)),
  },
  'budget.compare-channels': {
    args: range,
    verify: additive((v) => byName(v.channels, 'source', ['spend', 'revenue']), (v) => v.channels.map((c: any) => c.source)),
  },
  'hourly.get-data': { args: range, verify: additive((v) => byName(v.hourly.hours, 'hour', ['sessions', 'conversions', 'revenue'])) },
  'map.get-data': {
    args: range.map((r) => ({ ...r, limit: 500 })),
    verify: additive((v) => byName(v.map.places, 'country_code', ['sessions', 'conversions', 'revenue'])),
  },
  'weather.get-data': {
    args: range,
    verify: additive((v) => v.weather.days.flatMap((d: any) => [[`${d.date}/${d.city}/c`, d.conversions], [`${d.date}/${d.city}/r`, d.revenue]])),
  },
  'ad-fatigue.get-scores': {
    args: fc.constant({ date_from: DAYS[0], date_to: DAYS.at(-1), min_days: 2, limit: 500 }),
    verify: additive((v) => byName(v.ad_fatigue.ads, 'ad_id', ['days', 'spend']), (v) => v.ad_fatigue.ads.map((ad: any) => ad.source), true),
  },
  'geo-testing.get-candidates': {
    args: range.map((r) => ({ ...r, min_conversions: 1, limit: 200 })),
    verify: additive((v) => byName(v.geo_candidates.candidates, 'country_code', ['conversions', 'revenue'])),
  },
  'ab-testing.get-tests': { args: range, verify: additive((v) => byName(v.tests, 'test_id', ['sessions'])) },
  'ab-testing.get-results': {
    args: fc.constant({ test_id: 'hero', date_from: DAYS[0], date_to: DAYS.at(-1) }),
    async verify(a) {
      // A key may see no session of the test at all: not_found then counts as nothing.
      const pick = (o: Outcome, key: KeyModel) => {
        if (!o.ok && o.code === 'not_found') return new Map<string, number>();
        const v = readable(a, o, key);
        return v === null ? new Map<string, number>() : numbers(byName(v.results.variants, 'variant', ['sessions', 'converted_sessions', 'conversions', 'revenue']));
      };
      const restKey = keyModel(complementOf(a.key.scopes.filter((s) => ATOMS.includes(s))));
      assertAddsUp(pick(a.own, a.key), pick(await a.rest(), restKey), pick(await a.admin(), keyModel(['admin:admin'])), 'variants');
    },
  },
  'health-center.get-summary': { args: range, verify: adminOnly },
  'reconciliation.get-data': { args: range, verify: adminOnly },
  // A customer counts under the channel of its first touch only: a key and the key of every other channel split the admin's customers.
  'customers.get-ltv': {
    args: range.map((r) => ({ ...r, breakdown: 'first_source' })),
    verify: additive(
      (v) => [
        ...(['customers', 'new_customers', 'returning_customers', 'revenue'] as const).map((f): [string, unknown] => [f, v.customers.totals[f]]),
        ...byName(v.customers.rows, 'first_source', ['new_customers']),
      ],
      (v) => v.customers.rows.map((r: any) => r.first_source),
    ),
  },
  'loyalty.get-analytics': { args: range, verify: adminOnly },
  'audit-log.get-log': { args: page, verify: adminOnly },
  // Creators are creator-channel data (their ref links and coupons): a key that reads the creator
  // channel reads all of them, as the admin does; any other key is refused.
  'surveys.get-attribution-agreement': {
    args: fc.constant({}).map(() => ({ survey_id: surveyId })),
    // The answers are the workspace's; each key sees the credits of the sources it reads, the admin's cells narrowed to them.
    async verify(a) {
      const value = readable(a, a.own);
      if (value === null) return;
      const admin = await a.admin();
      assert.ok(admin.ok);
      assert.equal(admin.value.agreement.rows.reduce((sum: number, r: any) => sum + r.orders, 0), 3, 'the admin sees every order credited');
      if (a.key.channels === null) return assert.deepEqual(value, admin.value);
      // A key of some channels: the credits to them, without the answers' counts or shares (order-level figures of the whole store).
      const rows = admin.value.agreement.rows.filter((r: any) => shows(a.key, r.source)).map((r: any) => ({ ...r, share: null }));
      assert.deepEqual(value.agreement.rows, rows);
      assert.deepEqual(value.agreement.answers, [...new Set(rows.map((r: any) => r.answer))].map((answer) => ({ answer, responses: null, matched: null })));
    },
  },
  'creators.get-creators': {
    args: range,
    async verify(a) {
      if (a.key.channels === null || a.key.channels.has('creator')) assert.deepEqual(a.own, await a.admin());
      else assert.deepEqual(a.own, { ok: false, code: 'permission_denied' });
    },
  },
  'products.get-sales': {
    args: range.map((r) => ({ ...r, limit: 500 })),
    // Per product and credited source; unattributed orders are an admin's only (every channel covered).
    verify: additive(
      (v) => v.products.flatMap((p: any) => p.sources.filter((s: any) => s.source !== 'unattributed')
        .flatMap((s: any) => [[`${p.product_id}/${p.variant_id}/${s.source}/units`, s.units], [`${p.product_id}/${p.variant_id}/${s.source}/revenue`, s.revenue]])),
      (v) => v.products.flatMap((p: any) => p.sources.map((s: any) => s.source)).filter((s: string) => s !== 'unattributed'),
    ),
  },
  'library.get-assets': {
    args: range.map((r) => ({ ...r, limit: 500 })),
    verify: additive((v) => byName(v.assets, 'asset_id', ['spend', 'impressions', 'clicks', 'conversions', 'revenue']), (v) => v.assets.map((x: any) => x.source), true),
  },
  'exports.get-link': {
    args: fc.tuple(range, fc.constantFrom('events', 'conversions', 'ads')).map(([r, kind]) => ({ ...r, kind })),
    runs: 4,
    async verify(a, args) {
      // The rows a link downloads (no credentials), each of a channel the key sees; own + rest = admin, row for row.
      const rowsOf = async (outcome: Outcome, key: KeyModel): Promise<string[]> => {
        const adChannels = key.channels === null || [...key.channels].some((c) => !['', 'organic', 'email', 'creator', 'influencer'].includes(c));
        if (args.kind === 'ads' ? !adChannels : !seesAnyChannel(key)) {
          assert.deepEqual(outcome, { ok: false, code: 'permission_denied' });
          return [];
        }
        assert.ok(outcome.ok, JSON.stringify(outcome));
        const { pathname, search } = new URL((outcome as { value: any }).value.link.urls.ndjson);
        const body = (await t.app.inject({ method: 'GET', url: `${pathname}${search}` })).body;
        const rows = body.split('\n').filter(Boolean);
        for (const row of rows.map((line) => JSON.parse(line))) {
          const channel = args.kind === 'ads' ? row.source : row.adv_source;
          assert.ok(sees(key, channel) || key.channels === null, `${channel} shown to ${key.scopes}`);
        }
        return rows;
      };
      const restKey = keyModel(complementOf(a.key.scopes.filter((s) => ATOMS.includes(s))));
      const both = [...(await rowsOf(a.own, a.key)), ...(await rowsOf(await a.rest(), restKey))].sort();
      assert.deepEqual(both, (await rowsOf(await a.admin(), keyModel(['admin:admin']))).sort());
    },
  },
  'offers.get-opportunities': {
    args: range,
    verify: additive(
      (v) => [
        ...byName(v.opportunities.cart_abandonment, 'channel', ['cart_sessions', 'converted_cart_sessions']),
        ...byName(v.opportunities.coupons, 'coupon_code', ['conversions', 'revenue']),
      ],
      (v) => v.opportunities.cart_abandonment.map((c: any) => c.channel || 'organic'),
    ),
  },
};

/**
 * Outputs hold what their writer read (docs/security.md, "Outputs of stored objects"): the note the
 * admin key wrote holds the whole store, so a key of some channels reads none. Generated outputs
 * of every scope: output-scopes.test.ts.
 */
CHECKS['notes.get-notes'] = {
  args: page,
  verify: async (a) => {
    assert.deepEqual(a.own, a.key.admin ? await a.admin() : { ok: true, value: { notes: [] } });
  },
};

/** The surveys are everyone's; their response counts are order-level, shown only to a key of every channel. */
CHECKS['surveys.get-responses'] = {
  args: page,
  verify: async (a) => {
    const admin = await a.admin();
    assert.ok(admin.ok && admin.value.surveys.every((s: any) => s.responses !== null), 'the admin sees the counts');
    const counted = a.key.channels === null && seesAnyChannel(a.key);
    assert.deepEqual(a.own, counted ? admin : { ok: true, value: { surveys: admin.value.surveys.map((s: any) => ({ ...s, responses: null })) } });
  },
};

/**
 * Workspace objects (not split by channel): every key reads the same. The fixture holds no
 * workflow run and no survey: their outputs are checked in output-scopes.test.ts.
 */
for (const name of [
  'geo-testing.get-tests', 'loyalty.get-programs', 'labels.get-labels', 'lists.get-lists',
  'segments.get-segments', 'marketing-angles.get-angles', 'topics.get-topics', 'forms.get-forms', 'offers.get-offers',
  'creators.get-programs', 'ai-visibility.get-results', 'dashboards.get-dashboards', 'workflows.get-rules',
  'workflows.get-executions',
]) {
  CHECKS[name] ??= { args: page, verify: sameAsAdmin };
}

const READ_TOOLS = TOOLS.filter((tool) => tool.annotations.readOnlyHint).map((tool) => tool.name);

describe('every read tool keeps to the key\'s channels', () => {
  test('every read tool of the registry has a permission check here', () => {
    assert.deepEqual(READ_TOOLS.filter((name) => !CHECKS[name]), []);
  });

  for (const name of READ_TOOLS) {
    const check = CHECKS[name];
    if (!check) continue;
    test(name, async () => {
      await fc.assert(
        fc.asyncProperty(atomScopes, fc.boolean(), check.args, async ({ atoms, extra }, asAdmin, args) => {
          const scopes = asAdmin && check.verify === adminOnly ? ['admin:admin'] : [...atoms, ...extra];
          const key = keyModel(scopes);
          const restScopes = [...complementOf(atoms), ...extra];
          await check.verify(
            {
              key,
              own: await call(await headersOf(scopes), name, args),
              rest: async () => call(await headersOf(restScopes), name, args),
              admin: () => call(shop.headers, name, args),
            },
            args,
          );
        }),
        { numRuns: check.runs ?? 6, examples: (check.examples ?? []).map(([atoms, args]) => [{ atoms, extra: [] }, false, args]) },
      );
    });
  }
});
