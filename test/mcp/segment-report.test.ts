/**
 * analytics.query filtered by a segment (filters.segment_id): only the conversions of the
 * segment's customers count, under the same attribution; spend and sessions stay the whole
 * scope's. The expected numbers are summed here from the fixture, not read from the service.
 * Fixture (workspace "Segment report", every day within the last week):
 *   customer A: orders a1 (60.00) and a2 (40.00); the pixel saw both, a2 without a customer id
 *               (its visitor 1 is tied to A by a1); visitor 1 landed from facebook.
 *   customer B: orders b1 (25.00, seen by the pixel) and b2 (15.00, no pixel conversion);
 *               visitor 2 landed from google, visitor 4 (also B's) from facebook.
 *   customer C: order c1 (300.00, seen by the pixel); visitor 3 landed from google.
 *   Ads: 70.00 of Meta spend, 30.00 of Google spend.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { callTool, toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 19).replace('T', ' ');
const RANGE = { date_from: at(6).slice(0, 10), date_to: at(0).slice(0, 10) };

interface Order { tx: string; customer: string; cents: number; days: number; pixel?: { visitor: number; withCustomer: boolean } }
const ORDERS: Order[] = [
  { tx: 'a1', customer: 'A', cents: 6_000, days: 5, pixel: { visitor: 1, withCustomer: true } },
  { tx: 'a2', customer: 'A', cents: 4_000, days: 2, pixel: { visitor: 1, withCustomer: false } },
  { tx: 'b1', customer: 'B', cents: 2_500, days: 4, pixel: { visitor: 2, withCustomer: true } },
  { tx: 'b2', customer: 'B', cents: 1_500, days: 3 },
  { tx: 'c1', customer: 'C', cents: 30_000, days: 3, pixel: { visitor: 3, withCustomer: true } },
];
const VISITS = [
  { visitor: 1, customer: 'A', source: 'facebook', days: 5 },
  { visitor: 2, customer: 'B', source: 'google', days: 4 },
  { visitor: 4, customer: 'B', source: 'facebook', days: 6 },
  { visitor: 3, customer: 'C', source: 'google', days: 3 },
];
/** Ad spend in cents, as the ads rows keep it. */
const SPEND = { meta: 7_000, google: 3_000 };

/** Revenue of the orders that pass `keep`, in currency units. */
const revenueOf = (keep: (o: Order) => boolean) => ORDERS.filter(keep).reduce((sum, o) => sum + o.cents, 0) / 100;
const customersWith = (test: (orders: Order[]) => boolean) =>
  new Set(['A', 'B', 'C'].filter((c) => test(ORDERS.filter((o) => o.customer === c))));

const ids: Record<string, string> = {};

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Segment report');
  await insertRows(t.stores, 'orders', ORDERS.map((o) => ({
    store_id: ws.id, transaction_id: o.tx, customer_id: o.customer, dt: at(o.days), gross_revenue: o.cents, country_code: 'DE', city: 'Berlin', version: 1,
  })));
  await insertRows(t.stores, 'events', VISITS.map((v) => ({
    store_id: ws.id, session_id: v.visitor, visitor_id: v.visitor, dt: at(v.days), name: 'pageview', adv_source: v.source,
  })));
  // B's second visitor is tied to B by a conversion outside the range (no revenue in the report).
  await insertRows(t.stores, 'conversions', [
    ...ORDERS.filter((o) => o.pixel).map((o) => ({
      store_id: ws.id, session_id: o.pixel!.visitor, visitor_id: o.pixel!.visitor, dt: at(o.days), name: 'purchase', transaction_id: o.tx,
      customer_id: o.pixel!.withCustomer ? o.customer : '', transaction_gross_revenue: o.cents,
    })),
    { store_id: ws.id, session_id: 4, visitor_id: 4, dt: at(40), name: 'signup', customer_id: 'B' },
  ]);
  await insertRows(t.stores, 'ads', Object.entries(SPEND).map(([source, spend]) => ({
    store_id: ws.id, dt: at(1).slice(0, 10), source, ad_id: `${source}-ad`, spend, impressions: 100, clicks: 10, version: 1,
  })));
  const segment = async (name: string, rules: object[]) =>
    (ids[name] = (await toolOk(t.app, ws.headers, 'segments.create', { name, rules })).segment.id);
  await segment('Repeat buyers', [{ field: 'orders_count', operator: 'greater_than', value: 1 }]);
  await segment('From google', [{ field: 'adv_source', operator: 'equals', value: 'google' }]);
  await segment('From meta', [{ field: 'adv_source', operator: 'equals', value: 'meta' }]);
  await segment('Channel with "face"', [{ field: 'adv_source', operator: 'contains', value: 'face' }]);
});
after(() => t.close());

const query = (args: object, headers = ws.headers) => toolOk(t.app, headers, 'analytics.query', { ...args });
const bySegment = (name: string, args: { filters?: object } & Record<string, unknown> = {}, headers = ws.headers) =>
  query({ ...args, filters: { ...RANGE, ...args.filters, segment_id: ids[name] } }, headers);

describe('analytics.query filtered by a segment', () => {
  test("counts only the segment's customers' conversions; spend and sessions stay the whole store's", async () => {
    const metrics = ['revenue', 'conversions', 'spend', 'sessions', 'roas'];
    const whole = await query({ metrics, filters: RANGE });
    const repeat = await bySegment('Repeat buyers', { metrics });
    const members = customersWith((orders) => orders.length > 1);
    assert.deepEqual([...members], ['A', 'B']);
    const pixelSeen = (o: Order) => o.pixel !== undefined;
    assert.equal(whole.totals.revenue, revenueOf(pixelSeen));
    assert.equal(repeat.totals.revenue, revenueOf((o) => pixelSeen(o) && members.has(o.customer)));
    assert.equal(repeat.totals.conversions, ORDERS.filter((o) => pixelSeen(o) && members.has(o.customer)).length);
    assert.equal(repeat.totals.spend, (SPEND.meta + SPEND.google) / 100);
    assert.equal(repeat.totals.sessions, whole.totals.sessions);
    assert.equal(repeat.totals.roas, Math.round((repeat.totals.revenue / repeat.totals.spend) * 100) / 100);
    assert.deepEqual(repeat.settings_applied.segment, {
      id: ids['Repeat buyers'], name: 'Repeat buyers',
      filters: "conversions and their revenue and costs; spend, impressions, clicks and sessions stay the whole scope's",
    });
    assert.equal(whole.settings_applied.segment, undefined);
  });

  test('rows per source keep their attribution: each credit of a member stays on its channel', async () => {
    const { rows } = await bySegment('Repeat buyers', { metrics: ['revenue'], breakdown: 'source' });
    const revenue = Object.fromEntries(rows.map((r: { source: string; revenue: number }) => [r.source, r.revenue]));
    assert.equal(revenue.meta, revenueOf((o) => o.customer === 'A'));
    assert.equal(revenue.google, revenueOf((o) => o.tx === 'b1'));
  });

  test('a segment on landing channels takes the customers whose visits came from them', async () => {
    const fromGoogle = new Set(VISITS.filter((v) => v.source === 'google').map((v) => v.customer));
    const { totals } = await bySegment('From google', { metrics: ['revenue'] });
    assert.equal(totals.revenue, revenueOf((o) => o.pixel !== undefined && fromGoogle.has(o.customer)));
  });

  test('unattributed platform orders count only when their customer is in the segment', async () => {
    await updateSettings(t.stores.db, ws.id, { include_unattributed: true });
    try {
      const { totals } = await bySegment('Repeat buyers', { metrics: ['revenue'] });
      assert.equal(totals.revenue, revenueOf((o) => o.customer === 'A' || o.customer === 'B'));
    } finally {
      await updateSettings(t.stores.db, ws.id, { include_unattributed: false });
    }
  });

  test('an unknown segment id is not found, a malformed one invalid', async () => {
    const missing = await callTool(t.app, ws.headers, 'analytics.query', { filters: { segment_id: '999999' } });
    assert.deepEqual(missing.result?.structuredContent, { error: { code: 'not_found', message: 'Segment 999999 not found' } });
    const malformed = await callTool(t.app, ws.headers, 'analytics.query', { filters: { segment_id: 'abc' } });
    assert.equal(malformed.error?.code, -32602);
  });

  test('a restricted key learns nothing of the channels it does not see through a segment', async () => {
    const google = await ws.keyHeaders(['read:google']);
    // A segment whose rules name a hidden channel is not found, as if absent.
    const hidden = await callTool(t.app, google, 'analytics.query', { filters: { ...RANGE, segment_id: ids['From meta'] } });
    assert.deepEqual(hidden.result?.structuredContent, { error: { code: 'not_found', message: `Segment ${ids['From meta']} not found` } });
    // A rule that names no channel reads only the visits the key sees: B's facebook visit does
    // not put B in the segment for it, while the admin's answer counts B's google revenue.
    const admin = await bySegment('Channel with "face"', { metrics: ['revenue'], breakdown: 'source' });
    assert.equal(admin.rows.find((r: { source: string }) => r.source === 'google')?.revenue, revenueOf((o) => o.tx === 'b1'));
    const restricted = await bySegment('Channel with "face"', { metrics: ['revenue'] }, google);
    assert.equal(restricted.totals.revenue, 0);
    const seen = await bySegment('From google', { metrics: ['revenue'] }, google);
    assert.equal(seen.totals.revenue, revenueOf((o) => o.tx === 'b1' || o.tx === 'c1'));
  });
});
