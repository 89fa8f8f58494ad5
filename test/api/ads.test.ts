/**
 * Fixture: one workspace's ad rows (cents, counts) on 2026-03-01..03:
 * - facebook ad f1 (account A1, campaign fc1, adgroup fg1) on 03-01, imported twice: the second
 *   import (version 2: spend 1200, 120 impressions, 12 clicks, reach 90) must replace the first;
 *   again on 03-02 (spend 900)
 * - instagram ad i1 (account A1, campaign fc2) on 03-01; google ad g1 (account G1, campaign gc1) on
 *   03-01 and on 03-03 (outside the tested range); bing ad b1 and microsoft ad m1 on 03-02
 * A second workspace holds an ad row that must never leak into the first.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { AD_PLATFORMS } from '../../src/analytics/sources.ts';

let t: TestApp;
let shop: TestWorkspace;
const RANGE = 'start_date=2026-03-01&end_date=2026-03-02';

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  const other = await createTestWorkspace(t.stores, 'Other');
  const ad = (dt: string, source: string, ad_id: string, extra: object) => ({
    store_id: shop.id, dt, source, ad_id, ad_name: `Ad ${ad_id}`, version: 1, ...extra,
  });
  const f1 = { adaccount_id: 'A1', campaign_id: 'fc1', campaign_name: 'Spring', adgroup_id: 'fg1', adgroup_name: 'Lookalike' };
  await insertRows(t.stores, 'ads', [
    ad('2026-03-01', 'facebook', 'f1', { ...f1, spend: 1000, impressions: 100, clicks: 10, reach: 80 }),
    ad('2026-03-01', 'google', 'g1', { adaccount_id: 'G1', campaign_id: 'gc1', spend: 500, impressions: 1000, clicks: 30 }),
    ad('2026-03-03', 'google', 'g1', { adaccount_id: 'G1', campaign_id: 'gc1', spend: 450, impressions: 900, clicks: 20 }),
    { store_id: other.id, dt: '2026-03-01', source: 'facebook', ad_id: 'x', spend: 1, version: 1 },
  ]);
  await insertRows(t.stores, 'ads', [
    ad('2026-03-01', 'facebook', 'f1', { ...f1, spend: 1200, impressions: 120, clicks: 12, reach: 90, version: 2 }),
    ad('2026-03-01', 'instagram', 'i1', { adaccount_id: 'A1', campaign_id: 'fc2', spend: 300, impressions: 50, clicks: 5, reach: 40 }),
    ad('2026-03-02', 'facebook', 'f1', { ...f1, spend: 900, impressions: 90, clicks: 9, reach: 70 }),
    ad('2026-03-02', 'bing', 'b1', { adaccount_id: 'B1', spend: 200, impressions: 20, clicks: 2 }),
    ad('2026-03-02', 'microsoft', 'm1', { adaccount_id: 'B1', spend: 100, impressions: 10, clicks: 1 }),
  ]);
});

after(() => t.close());

const get = (url: string, headers: Record<string, string> = shop.headers) => injectGet(t, url, headers);
const keys = (body: { data: { dt: string; source: string; ad_id: string }[] }) => body.data.map((a) => `${a.dt} ${a.source} ${a.ad_id}`);

describe('GET /v3/ads', () => {
  test('returns the newest import per ad and day ordered by dt, source, ad_id with totals over the set', async () => {
    const { status, body } = await get(`/v3/ads?${RANGE}`);
    assert.equal(status, 200);
    assert.deepEqual(keys(body), [
      '2026-03-01 facebook f1', '2026-03-01 google g1', '2026-03-01 instagram i1',
      '2026-03-02 bing b1', '2026-03-02 facebook f1', '2026-03-02 microsoft m1',
    ]);
    assert.deepEqual(body.data[0], {
      store_id: String(shop.id), dt: '2026-03-01', adaccount_id: 'A1', source: 'facebook',
      campaign_id: 'fc1', campaign_name: 'Spring', adgroup_id: 'fg1', adgroup_name: 'Lookalike', ad_id: 'f1', ad_name: 'Ad f1',
      spend: '1200', impressions: '120', clicks: '12', reach: '90',
    });
    assert.deepEqual(body.totals, { total_ads: 5, total_spend: 3200, total_impressions: 1290, total_clicks: 59, total_reach: 200 });
    assert.deepEqual(body.pagination, {
      limit: 100, offset: 0, has_more: false, next_offset: null,
      start_date: '2026-03-01 00:00:00', end_date: '2026-03-02 23:59:59', sources: [...AD_PLATFORMS],
    });
  });

  test('filters by source families and by account, campaign, adgroup and ad ids', async () => {
    const meta = await get(`/v3/ads?${RANGE}&source=meta`);
    assert.deepEqual(keys(meta.body), ['2026-03-01 facebook f1', '2026-03-01 instagram i1', '2026-03-02 facebook f1']);
    assert.deepEqual(meta.body.totals, { total_ads: 2, total_spend: 2400, total_impressions: 260, total_clicks: 26, total_reach: 200 });
    assert.deepEqual(meta.body.pagination.sources, ['meta']);
    assert.deepEqual(keys((await get(`/v3/ads?${RANGE}&source=microsoft`)).body), ['2026-03-02 bing b1', '2026-03-02 microsoft m1']);
    assert.deepEqual(keys((await get(`/v3/ads?${RANGE}&source=google,instagram`)).body), ['2026-03-01 google g1', '2026-03-01 instagram i1']);
    assert.deepEqual(keys((await get(`/v3/ads?${RANGE}&adaccount_id=A1`)).body), ['2026-03-01 facebook f1', '2026-03-01 instagram i1', '2026-03-02 facebook f1']);
    assert.deepEqual(keys((await get(`/v3/ads?${RANGE}&campaign_id=fc2`)).body), ['2026-03-01 instagram i1']);
    assert.deepEqual(keys((await get(`/v3/ads?${RANGE}&adgroup_id=fg1&ad_id=f1`)).body), ['2026-03-01 facebook f1', '2026-03-02 facebook f1']);
    assert.deepEqual(keys((await get('/v3/ads?start_date=2026-03-03&end_date=2026-03-03')).body), ['2026-03-03 google g1']);
  });

  test('pages with limit and offset only, totals covering every page', async () => {
    const first = await get(`/v3/ads?${RANGE}&limit=4`);
    const second = await get(`/v3/ads?${RANGE}&limit=4&offset=4`);
    assert.deepEqual([keys(first.body).length, first.body.pagination.has_more, first.body.pagination.next_offset], [4, true, 4]);
    assert.deepEqual([keys(second.body), second.body.pagination.has_more], [['2026-03-02 facebook f1', '2026-03-02 microsoft m1'], false]);
    assert.deepEqual(second.body.totals, first.body.totals);
    // /v3/ads has no paging aliases: they are refused as unknown parameters, not ignored.
    assert.deepEqual(await get(`/v3/ads?${RANGE}&page_size=1`), { status: 400, body: { message: 'Unknown parameter: page_size' } });
    assert.deepEqual(await get(`/v3/ads?${RANGE}&page=3`), { status: 400, body: { message: 'Unknown parameter: page' } });
  });

  test('refuses the creator channel, which has no ad rows, as an unknown source', async () => {
    const { status, body } = await get(`/v3/ads?${RANGE}&source=creator`);
    assert.equal(status, 400);
    assert.match(body.message, /^Unknown source: creator\. Accepted sources: meta, facebook, /);
  });

  test('shows a key its visible ad platforms and refuses others', async () => {
    const meta = await shop.keyHeaders(['read:meta']);
    const visible = await get(`/v3/ads?${RANGE}`, meta);
    assert.deepEqual(keys(visible.body), ['2026-03-01 facebook f1', '2026-03-01 instagram i1', '2026-03-02 facebook f1']);
    assert.deepEqual(visible.body.pagination.sources, ['meta', 'facebook', 'instagram', 'audience_network', 'messenger', 'threads']);
    assert.equal(visible.body.totals.total_spend, 2400);
    const bing = await get(`/v3/ads?${RANGE}`, await shop.keyHeaders(['read:bing']));
    assert.deepEqual([keys(bing.body), bing.body.pagination.sources], [['2026-03-02 bing b1', '2026-03-02 microsoft m1'], ['microsoft', 'bing']]);
    assert.deepEqual(await get(`/v3/ads?${RANGE}&source=google`, meta), {
      status: 403,
      body: { message: 'You do not have access to the requested sources' },
    });
    for (const scopes of [['read:organic'], ['read:creators', 'read:email'], ['read:profit']]) {
      assert.deepEqual(await get(`/v3/ads?${RANGE}`, await shop.keyHeaders(scopes)), {
        status: 403,
        body: { message: 'You do not have access to ads data' },
      });
    }
  });
});
