/**
 * One basis everywhere: every tool that reports revenue or conversions for an ad, campaign or
 * channel gives the report's numbers (GET /v3/report with the same dates) under the workspace's
 * attribution settings, and names that attribution in its result. The demo shop (35 days to
 * 2026-11-20) runs under linear attribution over 28 days, so a tool still counting the landing
 * session's revenue would differ.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemo } from '../../src/cli/demo/seed.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

const RANGE = { date_from: '2026-10-24', date_to: '2026-11-20' };
const REPORT_RANGE = 'start_date=2026-10-24&end_date=2026-11-20';
const BASIS = { model: 'linear', window: 28, date_mode: 'conversion', ignore_sources: [], conversion_names: ['*'] };

type Row = Record<string, any>;

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Demo shop');
  await seedDemo(t.stores.ch, { workspaceId: ws.id, days: 35, now: new Date('2026-11-20T12:00:00Z'), sessionsPerDay: 150 });
  await updateSettings(t.stores.db, ws.id, { attribution_model: 'linear', attribution_window: 28 });
});
after(() => t.close());

const ok = (name: string, args: Record<string, unknown>) => toolOk(t.app, ws.headers, name, args);
async function report(params: string): Promise<{ data: Row[]; totals: Row; pagination: Row }> {
  const { status, body } = await injectGet(t, `/v3/report?${REPORT_RANGE}&${params}`, ws.headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}
const pick = (row: Row, names: string[]) => Object.fromEntries(names.map((n) => [n, row[n]]));

test('library.get-assets: each ad as the report\'s ad breakdown, ranked by the report', async () => {
  const ads = await report('breakdown=ad&metrics=spend,impressions,clicks,ctr,conversions,revenue,roas&limit=500');
  const byRevenue = await ok('library.get-assets', { ...RANGE, sort_by: 'revenue', limit: 500 });
  const wanted = ads.data.filter((r) => r.ad !== '');
  assert.ok(wanted.length >= 10);
  assert.deepEqual(byRevenue.attribution, BASIS);
  const numbers = ['spend', 'impressions', 'clicks', 'ctr', 'conversions', 'revenue', 'roas'];
  assert.deepEqual(byRevenue.assets.map((a: Row) => ({ ad: a.asset_id, source: a.source, ad_name: a.ad_name, ...pick(a, numbers) })), wanted);
  // Linear credit splits conversions: an ad's count is a share, not the landing sessions' whole orders.
  assert.ok(wanted.some((r) => !Number.isInteger(r.conversions)));
  const bySpend = await ok('library.get-assets', { ...RANGE, sort_by: 'spend', limit: 3 });
  const spent = [...wanted].sort((a, b) => b.spend - a.spend || `${a.source}${a.ad}`.localeCompare(`${b.source}${b.ad}`));
  assert.deepEqual(bySpend.assets.map((a: Row) => [a.asset_id, a.spend, a.revenue]), spent.slice(0, 3).map((r) => [r.ad, r.spend, r.revenue]));
  assert.ok(bySpend.assets.every((a: Row) => a.campaign_id !== '' && a.first_day >= RANGE.date_from && a.last_day <= RANGE.date_to));
});

test('lists.add-top-creatives: the same ranking and values as library.get-assets', async () => {
  const { list } = await ok('lists.create', { name: 'Top ROAS', kind: 'list' });
  const added = await ok('lists.add-top-creatives', { list_id: list.id, rank_by: 'roas', count: 5, ...RANGE });
  const library = await ok('library.get-assets', { ...RANGE, sort_by: 'roas', limit: 5 });
  assert.deepEqual(added.attribution, BASIS);
  assert.deepEqual(added.items.map((i: Row) => [i.linked.asset_id, i.values.roas, i.linked.attribution]), library.assets.map((a: Row) => [a.asset_id, a.roas, BASIS]));
});

test('correlations.get-data: daily spend and credited revenue per source as the report by source and day', async () => {
  const { correlations } = await ok('correlations.get-data', { ...RANGE, include_series: true });
  const days = await report('breakdown=source&interval=day&metrics=spend,revenue&limit=500');
  const sources = await report('breakdown=source&metrics=spend,revenue');
  assert.deepEqual(correlations.attribution, BASIS);
  assert.equal(days.pagination.has_more, false);
  const shown = sources.data.filter((r) => r.source !== 'organic');
  assert.deepEqual(correlations.channels.map((c: Row) => c.channel).sort(), shown.map((r) => r.source).sort());
  for (const channel of correlations.channels) {
    const total = shown.find((r) => r.source === channel.channel)!;
    assert.ok(Math.abs(channel.revenue - total.revenue) < 0.01 * correlations.days, channel.channel);
    assert.equal(channel.spend, total.spend, channel.channel);
    for (const day of channel.series) {
      const row = days.data.find((r) => r.source === channel.channel && r.date === day.date);
      assert.deepEqual([day.spend, day.revenue], row ? [row.spend, row.revenue] : [0, 0], `${channel.channel} ${day.date}`);
    }
  }
});
