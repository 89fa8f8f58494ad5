/**
 * The `timezone` argument of every tool that takes a date range: the range's days are that zone's
 * calendar days, each result names the zone, and a name that is no zone is refused (-32602).
 * Fixture: a New York store (workspace time zone America/New_York), New York times, UTC in the rows:
 *   session 1 (facebook, ad m1, US, A/B test hero variant A) 2026-03-10 23:10 EDT = 03-11 03:10Z, order E1
 *     80.00 (New York) at 23:30 EDT
 *   session 2 (google, US) 2026-03-11 09:00 EDT = 13:00Z, order M1 50.00 (New York) at 09:20 EDT
 *   session 3 (untagged, US) 2026-03-10 12:00 EDT = 16:00Z, order N1 20.00 (New York) at 12:10 EDT
 *   8 March, the 23-hour day: D1 10.00 at 00:30 EST = 05:30Z and D2 11.00 at 23:30 EDT = 03-09 03:30Z (New York)
 *   ads of meta ad m1: 03-10 30.00, 03-11 40.00; weather in New York: 03-10 clear, 03-11 rain
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { jsonSchemaOf } from '../../src/mcp/tools/kit/json-schema.ts';
import { callTool, toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;
const NY = 'America/New_York';
const MARCH_10 = { date_from: '2026-03-10', date_to: '2026-03-10' };

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'New York shop');
  await updateSettings(t.stores.db, ws.id, { timezone: NY });
  const visit = (session_id: number, dt: string, extra: object = {}) => ({
    store_id: ws.id, session_id, visitor_id: session_id, dt, name: 'pageview', pathname: '/', country_code: 'US', ...extra,
  });
  await insertRows(t.stores, 'events', [
    visit(1, '2026-03-11 03:10:00', { adv_source: 'facebook', adv_ad_id: 'm1', entry_meta_keys: ['ab_test', 'ab_variant'], entry_meta_values: ['hero', 'A'] }),
    visit(2, '2026-03-11 13:00:00', { adv_source: 'google' }),
    visit(3, '2026-03-10 16:00:00'),
  ]);
  const order = (transaction_id: string, session_id: number, dt: string, cents: number) => ({
    store_id: ws.id, dt, name: 'purchase', session_id, visitor_id: session_id, transaction_id, transaction_gross_revenue: cents,
    transaction_country_code: 'US', transaction_city: 'New York',
  });
  await insertRows(t.stores, 'conversions', [
    order('E1', 1, '2026-03-11 03:30:00', 8000), order('M1', 2, '2026-03-11 13:20:00', 5000), order('N1', 3, '2026-03-10 16:10:00', 2000),
    order('D1', 4, '2026-03-08 05:30:00', 1000), order('D2', 5, '2026-03-09 03:30:00', 1100),
  ]);
  const ad = (dt: string, spend: number) => ({ store_id: ws.id, dt, source: 'meta', ad_id: 'm1', ad_name: 'm1', spend, impressions: 100, clicks: 1, reach: 50, version: 1 });
  await insertRows(t.stores, 'ads', [ad('2026-03-10', 3000), ad('2026-03-11', 4000)]);
  const weather = (dt: string, condition: string) => ({
    store_id: ws.id, dt, country_code: 'US', city: 'New York', temperature_c: 5, precipitation_mm: 0, condition, version: 1,
  });
  await insertRows(t.stores, 'weather_daily', [weather('2026-03-10', 'clear'), weather('2026-03-11', 'rain')]);
});
after(() => t.close());

const ok = (name: string, args: object) => toolOk(t.app, ws.headers, name, args);

/** Tools whose arguments take a date range, from the registry itself. */
const RANGE_TOOLS = TOOLS.filter((tool) => Object.hasOwn((jsonSchemaOf(tool.input).properties ?? {}) as object, 'date_from')).map((tool) => tool.name);

/** The arguments a range tool needs beside the range. */
async function needed(name: string): Promise<object> {
  if (name === 'ab-testing.get-results') return { test_id: 'hero' };
  if (name === 'exports.get-link') return { kind: 'events' };
  if (name === 'attribution.explain') return { transaction_id: 'E1' };
  if (name === 'surveys.get-attribution-agreement') {
    const { survey } = await ok('surveys.create', { title: 'Heard', questions: [{ text: 'How did you hear about us?', type: 'single_choice', options: ['Friend', 'Ad'] }] });
    return { survey_id: survey.id };
  }
  if (name !== 'lists.add-top-creatives') return {};
  const { list } = await ok('lists.create', { name: `Top ${Math.random()}`, kind: 'list' });
  return { list_id: list.id, rank_by: 'spend' };
}

/**
 * Range tools whose result has no place for its range (one order's explanation), each with what its
 * result shows of the range read: 03-10 in New York holds order E1 (03-11 03:30Z).
 */
const NAMES_NO_RANGE: Record<string, { pick(result: any): unknown; expected: unknown }> = {
  'attribution.explain': { pick: (r) => [r.attribution.transaction_id, r.attribution.dt], expected: ['E1', '2026-03-11 03:30:00'] },
};

/** The object of a result that names its range. */
function rangeHolder(value: unknown): Record<string, unknown> | null {
  if (typeof value !== 'object' || value === null) return null;
  if (Object.hasOwn(value, 'date_from')) return value as Record<string, unknown>;
  for (const member of Object.values(value)) {
    const found = rangeHolder(member);
    if (found) return found;
  }
  return null;
}

describe('every tool that takes a date range', () => {
  test('takes timezone beside date_from and date_to', () => {
    assert.ok(RANGE_TOOLS.length >= 14, RANGE_TOOLS.join());
    for (const name of RANGE_TOOLS) {
      const schema = jsonSchemaOf(TOOLS.find((tool) => tool.name === name)!.input) as { properties: Record<string, unknown> };
      // Described once, in the server's instructions, like the range it belongs to.
      assert.deepEqual(schema.properties.timezone, { type: 'string' }, name);
    }
  });

  test('names the range it covered in the zone asked for, in its canonical spelling', async () => {
    for (const name of RANGE_TOOLS) {
      const result = await ok(name, { ...(await needed(name)), ...MARCH_10, timezone: 'america/new_york' });
      const unnamed = NAMES_NO_RANGE[name];
      if (unnamed) {
        assert.deepEqual(unnamed.pick(result), unnamed.expected, name);
        continue;
      }
      const holder = rangeHolder(result);
      assert.deepEqual(holder && { date_from: holder.date_from, date_to: holder.date_to, timezone: holder.timezone }, { ...MARCH_10, timezone: NY }, name);
    }
  });

  test('refuses a name that is no zone with -32602 naming timezone', async () => {
    for (const name of RANGE_TOOLS) {
      const reply = await callTool(t.app, ws.headers, name, { ...(await needed(name)), timezone: 'Mars/Olympus' });
      assert.equal(reply.error?.code, -32602, name);
      assert.equal(reply.error?.message, `Invalid arguments for tool ${name}: timezone: Invalid timezone: Mars/Olympus. Use an IANA time zone name such as Europe/Berlin`);
    }
  });
});

describe('the report tools take filters.timezone', () => {
  test('analytics.query answers /v3/report\'s numbers for the same local days and names the zone in settings_applied', async () => {
    const metrics = ['conversions', 'revenue', 'spend', 'sessions'];
    const result = await ok('analytics.query', { metrics, interval: 'day', filters: { date_from: '2026-03-08', date_to: '2026-03-11', timezone: NY } });
    const api = await t.app.inject({
      method: 'GET', url: `/v3/report?metrics=${metrics.join(',')}&interval=day&start_date=2026-03-08&end_date=2026-03-11&timezone=${NY}`, headers: ws.headers,
    });
    assert.deepEqual(result.rows, api.json().data);
    assert.deepEqual(result.rows.map((r: { date: string; conversions: number }) => [r.date, r.conversions]), [['2026-03-08', 2], ['2026-03-10', 2], ['2026-03-11', 1]]);
    assert.equal(result.settings_applied.timezone, NY);
    const utc = await ok('analytics.query', { metrics, filters: { ...MARCH_10, timezone: 'UTC' } });
    assert.deepEqual([utc.totals.conversions, utc.settings_applied.timezone], [1, 'UTC']);
    const workspace = await ok('analytics.query', { metrics, filters: MARCH_10 });
    assert.deepEqual([workspace.totals.conversions, workspace.settings_applied.timezone], [2, NY]);
  });

  test('analytics.profit-summary and attribution.get-data read the same local range', async () => {
    const { profit } = await ok('analytics.profit-summary', { filters: { ...MARCH_10, timezone: NY } });
    assert.deepEqual([profit.start_date, profit.end_date, profit.settings_applied.timezone, profit.totals.conversions], ['2026-03-10 04:00:00', '2026-03-11 03:59:59', NY, 2]);
    const { attribution } = await ok('attribution.get-data', { models: ['last_click'], filters: { ...MARCH_10, timezone: NY } });
    assert.deepEqual([attribution.start_date, attribution.timezone, attribution.totals.last_click.conversions], ['2026-03-10 04:00:00', NY, 2]);
  });

  test('a filters.timezone that is no zone is refused with -32602', async () => {
    for (const name of ['analytics.query', 'analytics.profit-summary', 'attribution.get-data']) {
      const reply = await callTool(t.app, ws.headers, name, { filters: { timezone: 'Mars/Olympus' } });
      assert.deepEqual(reply.error && { code: reply.error.code, message: reply.error.message }, {
        code: -32602,
        message: `Invalid arguments for tool ${name}: filters.timezone: Invalid timezone: Mars/Olympus. Use an IANA time zone name such as Europe/Berlin`,
      });
    }
  });
});

describe('local days in the tools', () => {
  test('correlations.get-data: the evening order counts on its New York day', async () => {
    const series = async (timezone?: string) => {
      const { correlations } = await ok('correlations.get-data', { date_from: '2026-03-10', date_to: '2026-03-11', timezone, include_series: true });
      return correlations.channels.find((c: { channel: string }) => c.channel === 'meta').series;
    };
    assert.deepEqual(await series(NY), [{ date: '2026-03-10', spend: 30, revenue: 80 }, { date: '2026-03-11', spend: 40, revenue: 0 }]);
    assert.deepEqual(await series('UTC'), [{ date: '2026-03-10', spend: 30, revenue: 0 }, { date: '2026-03-11', spend: 40, revenue: 80 }]);
  });

  test('hourly.get-data: hours of the zone asked for, the workspace\'s when none is', async () => {
    const busy = async (timezone?: string) => {
      const { hourly } = await ok('hourly.get-data', { ...MARCH_10, timezone });
      return [hourly.timezone, hourly.hours.filter((h: { conversions: number }) => h.conversions).map((h: { hour: number }) => h.hour)];
    };
    assert.deepEqual(await busy(), [NY, [12, 23]]);
    assert.deepEqual(await busy('UTC'), ['UTC', [16]]);
  });

  test('library.get-assets: a local day reads that date\'s ads rows and the conversions of that local day', async () => {
    const asset = async (timezone?: string) => {
      const { assets } = await ok('library.get-assets', { ...MARCH_10, timezone });
      return assets.map((a: { asset_id: string; spend: number; conversions: number; revenue: number }) => [a.asset_id, a.spend, a.conversions, a.revenue]);
    };
    assert.deepEqual(await asset(NY), [['m1', 30, 1, 80]]);
    assert.deepEqual(await asset('UTC'), [['m1', 30, 0, 0]]);
  });

  test('geo-testing.get-candidates: days with orders are local days (8 March is one day in New York, two in UTC)', async () => {
    const days = async (timezone?: string) => {
      const { geo_candidates } = await ok('geo-testing.get-candidates', { date_from: '2026-03-08', date_to: '2026-03-11', timezone, min_conversions: 1 });
      return geo_candidates.candidates.map((c: { country_code: string; days_with_orders: number }) => [c.country_code, c.days_with_orders]);
    };
    assert.deepEqual(await days(NY), [['US', 3]]);
    assert.deepEqual(await days('UTC'), [['US', 4]]);
  });

  test('weather.get-data: a day\'s weather meets the orders of that local day', async () => {
    const days = async (timezone?: string) => {
      const { weather } = await ok('weather.get-data', { date_from: '2026-03-10', date_to: '2026-03-11', timezone });
      return weather.days.map((d: { date: string; condition: string; conversions: number }) => [d.date, d.condition, d.conversions]);
    };
    assert.deepEqual(await days(NY), [['2026-03-10', 'clear', 2], ['2026-03-11', 'rain', 1]]);
    assert.deepEqual(await days('UTC'), [['2026-03-10', 'clear', 1], ['2026-03-11', 'rain', 2]]);
  });

  test('attribution.explain: the evening order is found on its New York day only', async () => {
    const explained = await ok('attribution.explain', { transaction_id: 'E1', ...MARCH_10, timezone: NY });
    assert.deepEqual([explained.attribution.dt, explained.attribution.source, explained.attribution.revenue], ['2026-03-11 03:30:00', 'meta', 80]);
    const utc = await callTool(t.app, ws.headers, 'attribution.explain', { transaction_id: 'E1', ...MARCH_10, timezone: 'UTC' });
    assert.equal(utc.result?.structuredContent.error.code, 'not_found');
  });

  test('health-center.get-summary: "today" of ad data is the zone\'s today', async () => {
    // UTC+14 and UTC-11 are 25 hours apart: their calendar days always differ.
    const today = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(Date.now());
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const before = today(zone);
      const { health } = await ok('health-center.get-summary', { timezone: zone });
      assert.ok([before, today(zone)].includes(health.ad_data.today), `${zone}: ${health.ad_data.today}`);
      assert.equal(health.date_to, health.ad_data.today);
    }
  });
});
