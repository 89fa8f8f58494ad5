/**
 * Fixture: one workspace with a handful of events across two days and three channels:
 * - visitor 11 / session 101: a meta (facebook) click, pageview then add_to_cart
 * - visitor 12 / session 102: untagged (organic) pageviews
 * - visitor 13 / session 103: google click, pageview and add_payment_info
 * A second workspace holds one event that must never leak into the first.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';

let t: TestApp;
let shop: TestWorkspace;

const base = { visitor_timezone: 'Europe/Berlin', device_type: 'desktop', country_code: 'DE', hostname: 'shop.example' };

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  const other = await createTestWorkspace(t.stores, 'Other');
  await insertRows(t.stores, 'events', [
    { ...base, store_id: shop.id, dt: '2026-03-01 10:00:00', name: 'pageview', session_id: 101, visitor_id: 11, adv_source: 'facebook', adv_campaign_id: 'c1', pathname: '/', entry_meta_keys: ['fbclid'], entry_meta_values: ['abc'] },
    { ...base, store_id: shop.id, dt: '2026-03-01 10:01:00', name: 'add_to_cart', session_id: 101, visitor_id: 11, adv_source: 'facebook', adv_campaign_id: 'c1', pathname: '/p/1' },
    { ...base, store_id: shop.id, dt: '2026-03-01 11:00:00', name: 'pageview', session_id: 102, visitor_id: 12, pathname: '/' },
    { ...base, store_id: shop.id, dt: '2026-03-02 09:00:00', name: 'pageview', session_id: 103, visitor_id: 13, adv_source: 'google', pathname: '/' },
    { ...base, store_id: shop.id, dt: '2026-03-02 09:05:00', name: 'add_payment_info', session_id: 103, visitor_id: 13, adv_source: 'google', pathname: '/checkout' },
    { ...base, store_id: other.id, dt: '2026-03-01 10:00:00', name: 'pageview', session_id: 900, visitor_id: 90, pathname: '/' },
  ]);
});

after(() => t.close());

const get = (url: string, headers: Record<string, string> = shop.headers) => injectGet(t, url, headers);

describe('GET /v3/events', () => {
  test('returns the range in time order with integers as strings and the pagination envelope', async () => {
    const { status, body } = await get('/v3/events?start_date=2026-03-01&end_date=2026-03-01');
    assert.equal(status, 200);
    assert.deepEqual(body.data.map((e: { name: string; dt: string }) => [e.dt, e.name]), [
      ['2026-03-01 10:00:00', 'pageview'],
      ['2026-03-01 10:01:00', 'add_to_cart'],
      ['2026-03-01 11:00:00', 'pageview'],
    ]);
    assert.deepEqual(body.data[0], {
      store_id: String(shop.id), dt: '2026-03-01 10:00:00', name: 'pageview', session_id: '101', visitor_id: '11',
      visitor_timezone: 'Europe/Berlin', adv_source: 'facebook', adv_campaign_id: 'c1', adv_adgroup_id: '', adv_ad_id: '',
      adv_asset_group_id: '', utm_source: '', utm_medium: '', utm_campaign: '', utm_content: '', utm_term: '',
      device_type: 'desktop', country_code: 'DE', hostname: 'shop.example', pathname: '/', referrer: '',
      entry_meta_keys: ['fbclid'], entry_meta_values: ['abc'],
    });
    assert.deepEqual(body.pagination, {
      limit: 100, offset: 0, has_more: false, next_offset: null,
      start_date: '2026-03-01 00:00:00', end_date: '2026-03-01 23:59:59',
    });
  });

  test('pages with limit and offset and their page/page_size aliases without overlap', async () => {
    const first = await get('/v3/events?from=2026-03-01&to=2026-03-02&limit=2');
    assert.deepEqual(first.body.pagination.has_more, true);
    assert.equal(first.body.pagination.next_offset, 2);
    const second = await get('/v3/events?from=2026-03-01&to=2026-03-02&page_size=2&page=2');
    const third = await get('/v3/events?from=2026-03-01&to=2026-03-02&limit=2&offset=4');
    const all = [...first.body.data, ...second.body.data, ...third.body.data].map((e) => `${e.dt} ${e.name}`);
    assert.equal(new Set(all).size, 5);
    assert.equal(third.body.pagination.has_more, false);
    assert.equal(third.body.pagination.next_offset, null);
  });

  test('matches names exactly, by prefix_* and by *_suffix, treating _ literally', async () => {
    const names = async (pattern: string) =>
      (await get(`/v3/events?from=2026-03-01&to=2026-03-02&name=${encodeURIComponent(pattern)}`)).body.data.map(
        (e: { name: string }) => e.name,
      );
    assert.deepEqual(await names('pageview'), ['pageview', 'pageview', 'pageview']);
    assert.deepEqual(await names('add_*'), ['add_to_cart', 'add_payment_info']);
    assert.deepEqual(await names('*_info'), ['add_payment_info']);
    assert.deepEqual(await names('add%'), []);
    assert.deepEqual(await names('purchase'), []);
  });

  test('filters by session, visitor and source, with the meta family behind meta', async () => {
    assert.equal((await get('/v3/events?from=2026-03-01&to=2026-03-02&session_id=103')).body.data.length, 2);
    assert.equal((await get('/v3/events?from=2026-03-01&to=2026-03-02&visitor_id=12')).body.data.length, 1);
    assert.equal((await get('/v3/events?from=2026-03-01&to=2026-03-02&source=meta')).body.data.length, 2);
    assert.equal((await get('/v3/events?from=2026-03-01&to=2026-03-02&sources=google,organic')).body.data.length, 3);
  });

  test('shows a read:meta key only meta-family traffic and refuses other sources with 403', async () => {
    const headers = await shop.keyHeaders(['read:meta']);
    const visible = await get('/v3/events?from=2026-03-01&to=2026-03-02', headers);
    assert.deepEqual(visible.body.data.map((e: { adv_source: string }) => e.adv_source), ['facebook', 'facebook']);
    assert.deepEqual(await get('/v3/events?from=2026-03-01&to=2026-03-02&source=google', headers), {
      status: 403,
      body: { message: 'You do not have access to the requested sources' },
    });
    const profitOnly = await shop.keyHeaders(['read:profit']);
    assert.deepEqual(await get('/v3/events', profitOnly), { status: 403, body: { message: 'You do not have access to pixel data' } });
  });
});
