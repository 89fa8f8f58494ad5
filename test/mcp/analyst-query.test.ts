/**
 * analytics.query's comparison, order and drill-down filters on the demo shop (42 days to
 * 2026-11-20), each checked against GET /v3/report with the same arguments: the tool must give
 * the report's numbers (decisions on the core tools: same numbers for the same arguments).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemo } from '../../src/cli/demo/seed.ts';
import { callTool, toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

const NOW = new Date('2026-11-20T12:00:00Z');
const WEEK = { date_from: '2026-11-14', date_to: '2026-11-20' };
const WEEK_BEFORE = 'start_date=2026-11-07&end_date=2026-11-13';
const METRICS = ['spend', 'revenue', 'roas', 'conversions', 'sessions', 'cpa'];

type Row = Record<string, any>;

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Demo shop');
  await seedDemo(t.stores.ch, { workspaceId: ws.id, days: 42, now: NOW, sessionsPerDay: 150 });
});
after(() => t.close());

const query = (args: Record<string, unknown>) => toolOk(t.app, ws.headers, 'analytics.query', args);
async function report(params: string): Promise<{ data: Row[]; totals: Row }> {
  const { status, body } = await injectGet(t, `/v3/report?${params}`, ws.headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}
const change = (current: number | null, previous: number | null) =>
  current === null || previous === null || previous === 0 ? null : Math.round(((current - previous) / Math.abs(previous)) * 10_000) / 10_000;
const metricsOf = (row: Row) => Object.fromEntries(METRICS.map((m) => [m, row[m]]));
const changesOf = (current: Row, previous: Row) => Object.fromEntries(METRICS.map((m) => [m, change(current[m], previous[m])]));

describe('compare_to', () => {
  test('previous_period by source: each row and the totals carry the report of the week before and the change', async () => {
    const result = await query({ metrics: METRICS, filters: WEEK, breakdown: 'source', compare_to: 'previous_period' });
    const current = await report(`start_date=${WEEK.date_from}&end_date=${WEEK.date_to}&breakdown=source&metrics=${METRICS}`);
    const before = await report(`${WEEK_BEFORE}&breakdown=source&metrics=${METRICS}`);
    assert.ok(current.data.length >= 5);
    assert.deepEqual(result.comparison, { compare_to: 'previous_period', start_date: '2026-11-07 00:00:00', end_date: '2026-11-13 23:59:59' });
    assert.deepEqual(result.rows.map(({ previous, change, ...row }: Row) => row), current.data);
    for (const row of result.rows) {
      const earlier = before.data.find((r) => r.source === row.source);
      const previous = earlier ? metricsOf(earlier) : { spend: 0, revenue: 0, roas: null, conversions: 0, sessions: 0, cpa: null };
      assert.deepEqual(row.previous, previous, row.source);
      assert.deepEqual(row.change, changesOf(row, previous), row.source);
    }
    const { previous, change: totalChange, ...totals } = result.totals;
    assert.deepEqual(totals, current.totals);
    assert.deepEqual(previous, before.totals);
    assert.deepEqual(totalChange, changesOf(current.totals, before.totals));
  });

  test('previous_period by day pairs the n-th day with the n-th day of the week before', async () => {
    const result = await query({ metrics: ['revenue', 'sessions'], filters: WEEK, interval: 'day', compare_to: 'previous_period' });
    const before = await report(`${WEEK_BEFORE}&interval=day&metrics=revenue,sessions`);
    assert.deepEqual(result.rows.map((r: Row) => r.date), ['2026-11-14', '2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20']);
    assert.deepEqual(result.rows.map((r: Row) => r.previous), before.data.map(({ date, ...metrics }) => metrics));
  });

  test('previous_year is the same days a year earlier: nothing before the demo began', async () => {
    const result = await query({ metrics: ['revenue', 'roas'], filters: WEEK, breakdown: 'source', compare_to: 'previous_year' });
    assert.deepEqual(result.comparison, { compare_to: 'previous_year', start_date: '2025-11-14 00:00:00', end_date: '2025-11-20 23:59:59' });
    assert.ok(result.rows.every((r: Row) => r.previous.revenue === 0 && r.previous.roas === null && r.change.revenue === null));
    assert.deepEqual([result.totals.previous, result.totals.change], [{ revenue: 0, roas: null }, { revenue: null, roas: null }]);
  });
});

describe('sort_by and order', () => {
  test('rows come ordered by the metric, nulls last, and pages continue in that order', async () => {
    const all = await report(`start_date=2026-10-10&end_date=2026-11-20&breakdown=campaign&metrics=spend,revenue,roas,net_roas`);
    const asc = await query({ metrics: ['spend', 'revenue'], filters: { date_from: '2026-10-10', date_to: '2026-11-20' }, breakdown: 'campaign', sort_by: 'roas', order: 'asc' });
    // sort_by joins the metrics it is not among, so the rows show what they are ordered by.
    assert.deepEqual(Object.keys(asc.rows[0]), ['source', 'campaign', 'campaign_name', 'spend', 'revenue', 'roas']);
    const roas = asc.rows.map((r: Row) => r.roas);
    const numbers = roas.filter((v: number | null) => v !== null);
    assert.deepEqual(numbers, [...numbers].sort((a, b) => a - b));
    assert.deepEqual(roas.slice(numbers.length), roas.slice(numbers.length).map(() => null));
    const key = (r: Row) => `${r.source}/${r.campaign}`;
    assert.deepEqual(asc.rows.map(key).sort(), all.data.map(key).sort());
    for (const row of asc.rows) assert.equal(row.roas, all.data.find((r) => key(r) === key(row))!.roas);

    const best = await query({ metrics: ['net_roas'], filters: { date_from: '2026-10-10', date_to: '2026-11-20' }, breakdown: 'campaign', sort_by: 'net_roas', limit: 2 });
    const next = await query({ metrics: ['net_roas'], filters: { date_from: '2026-10-10', date_to: '2026-11-20' }, breakdown: 'campaign', sort_by: 'net_roas', limit: 2, offset: 2 });
    const ranked = all.data.filter((r) => r.net_roas !== null).sort((a, b) => b.net_roas - a.net_roas || key(a).localeCompare(key(b)));
    assert.deepEqual([...best.rows, ...next.rows].map((r: Row) => [key(r), r.net_roas]), ranked.slice(0, 4).map((r) => [key(r), r.net_roas]));
    assert.equal(best.pagination.has_more, true);
  });

  test('an unknown sort metric is -32602 naming the accepted ones', async () => {
    const reply = await callTool(t.app, ws.headers, 'analytics.query', { sort_by: 'profit' });
    assert.equal(reply.error?.code, -32602);
    assert.match(reply.error!.message, /^Invalid arguments for tool analytics.query: sort_by: Invalid option: expected one of "spend"\|"revenue"/);
  });
});

describe('conversion_name, campaign, adgroup and ad filters', () => {
  test('each equals /v3/report with name, campaign, adgroup and ad', async () => {
    const range = 'start_date=2026-10-10&end_date=2026-11-20';
    const filters = { date_from: '2026-10-10', date_to: '2026-11-20' };
    const leads = await query({ metrics: ['conversions', 'revenue'], filters: { ...filters, conversion_name: 'lead' }, breakdown: 'source' });
    const leadReport = await report(`${range}&name=lead&breakdown=source&metrics=conversions,revenue`);
    assert.deepEqual([leads.rows, leads.totals], [leadReport.data, leadReport.totals]);
    assert.ok(leadReport.totals.conversions > 0);
    assert.equal(leadReport.totals.revenue, 0);

    const ads = await report(`${range}&breakdown=ad&metrics=spend,revenue,conversions`);
    const top = ads.data.find((r) => r.ad !== '' && r.revenue > 0)!;
    const campaigns = await report(`${range}&breakdown=campaign&ad=${top.ad}&metrics=spend,revenue,conversions`);
    const oneAd = await query({ metrics: ['spend', 'revenue', 'conversions'], filters: { ...filters, ad: top.ad }, breakdown: 'campaign' });
    assert.deepEqual([oneAd.rows, oneAd.totals], [campaigns.data, campaigns.totals]);
    assert.deepEqual(oneAd.totals, { spend: top.spend, revenue: top.revenue, conversions: top.conversions });

    const campaign = campaigns.data[0]!.campaign;
    const adgroups = await report(`${range}&breakdown=adgroup&campaign=${campaign}&metrics=spend,revenue`);
    const drilled = await query({ metrics: ['spend', 'revenue'], filters: { ...filters, campaign }, breakdown: 'adgroup' });
    assert.deepEqual([drilled.rows, drilled.totals], [adgroups.data, adgroups.totals]);
    const adgroup = adgroups.data[0]!.adgroup;
    const inGroup = await query({ metrics: ['spend', 'revenue'], filters: { ...filters, campaign, adgroup }, breakdown: 'ad' });
    const inGroupReport = await report(`${range}&breakdown=ad&campaign=${campaign}&adgroup=${adgroup}&metrics=spend,revenue`);
    assert.deepEqual(inGroup.rows, inGroupReport.data);
  });

  test('a source group stands for its members, and the result names its attribution', async () => {
    const range = 'start_date=2026-10-10&end_date=2026-11-20';
    const social = await query({ metrics: ['spend', 'revenue'], filters: { date_from: '2026-10-10', date_to: '2026-11-20', source: ['paid_social'] }, breakdown: 'source' });
    const members = await report(`${range}&source=meta,tiktok,pinterest,snapchat&breakdown=source&metrics=spend,revenue`);
    assert.deepEqual([social.rows, social.totals], [members.data, members.totals]);
    assert.deepEqual(social.attribution, { model: 'last_click', window: 7, date_mode: 'conversion', ignore_sources: [], conversion_names: ['*'] });
  });

  test('a group asks for what the key reads of it, and metadata.list_schema lists the groups', async () => {
    const metaAndGoogle = await ws.keyHeaders(['read:meta', 'read:google']);
    const filters = { date_from: '2026-10-10', date_to: '2026-11-20', source: ['paid_social'] };
    const social = await toolOk(t.app, metaAndGoogle, 'analytics.query', { metrics: ['revenue'], filters, breakdown: 'source' });
    const meta = await report('start_date=2026-10-10&end_date=2026-11-20&source=meta&breakdown=source&metrics=revenue');
    assert.deepEqual([social.rows, social.totals], [meta.data, meta.totals]);
    const tiktokOnly = await ws.keyHeaders(['read:tiktok']);
    const refused = await callTool(t.app, tiktokOnly, 'analytics.query', { filters: { source: ['paid_search'] } });
    assert.deepEqual(refused.result?.structuredContent, { error: { code: 'permission_denied', message: 'You do not have access to the requested sources' } });
    const { schema } = await toolOk(t.app, ws.headers, 'metadata.list_schema');
    assert.deepEqual(schema.source_groups, [
      { group: 'paid_social', sources: ['meta', 'tiktok', 'pinterest', 'snapchat'] },
      { group: 'paid_search', sources: ['google', 'microsoft'] },
      { group: 'native_ads', sources: ['outbrain', 'taboola'] },
      { group: 'paid', sources: ['meta', 'google', 'tiktok', 'pinterest', 'snapchat', 'microsoft', 'openai', 'outbrain', 'taboola', 'whatsapp'] },
    ]);
  });
});
