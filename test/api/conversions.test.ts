/**
 * Fixture: one workspace, sessions (events) and the conversions made in them (times UTC):
 * - session 301 / visitor 31: lands from facebook (campaign c1, adgroup g1, ad a1, utm fb/paid/spring)
 *   on 2026-03-01 10:00, later in the same session a google-tagged event (must not change the landing)
 * - session 302 / visitor 32: untagged; session 303 / visitor 33: legacy `influencer` channel;
 *   session 304 / visitor 34: google (campaign g-9); session 399 has no events at all
 * - conversions: C1 purchase in 301 (ann@example.com, T1, new, 5000 cents, DE) on 03-01 10:30;
 *   C2 purchase in 302 (bob, T2, returning, 2000, US) 03-01 12:00; C3 lead in 303 (no customer) 03-02
 *   09:00; C4 purchase in 399 (ann@example.com again, T4, returning, 3000, DE) 03-02 10:00;
 *   C5 purchase in 304 (cy, T5, new, 7000, US) and C6 purchase_upsell in 304 (cy, T6, returning,
 *   1000, US), both 03-02 11:00
 * A second workspace holds a conversion that must never leak into the first.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';

let t: TestApp;
let shop: TestWorkspace;
const RANGE = 'start_date=2026-03-01&end_date=2026-03-02';

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  const other = await createTestWorkspace(t.stores, 'Other');
  const ev = (session_id: number, visitor_id: number, dt: string, extra: object = {}) => ({
    store_id: shop.id, session_id, visitor_id, dt, name: 'pageview', pathname: '/', ...extra,
  });
  await insertRows(t.stores, 'events', [
    ev(301, 31, '2026-03-01 10:00:00', { adv_source: 'facebook', adv_campaign_id: 'c1', adv_adgroup_id: 'g1', adv_ad_id: 'a1', utm_source: 'fb', utm_medium: 'paid', utm_campaign: 'spring', utm_content: 'video', utm_term: 'shoes' }),
    ev(301, 31, '2026-03-01 10:20:00', { adv_source: 'google', adv_campaign_id: 'other' }),
    ev(302, 32, '2026-03-01 11:50:00'),
    ev(303, 33, '2026-03-02 08:50:00', { adv_source: 'influencer', utm_source: 'creator-42' }),
    ev(304, 34, '2026-03-02 10:55:00', { adv_source: 'google', adv_campaign_id: 'g-9' }),
    { store_id: other.id, session_id: 301, visitor_id: 31, dt: '2026-03-01 09:00:00', name: 'pageview', adv_source: 'tiktok' },
  ]);
  const conv = (dt: string, name: string, session_id: number, visitor_id: number, extra: object) => ({
    store_id: shop.id, dt, name, session_id, visitor_id, transaction_currency: 'USD', hostname: 'shop.example', ...extra,
  });
  await insertRows(t.stores, 'conversions', [
    conv('2026-03-02 11:00:00', 'purchase_upsell', 304, 34, { customer_id: 'cy', transaction_id: 'T6', is_new_customer: 0, transaction_gross_revenue: 1000, transaction_country_code: 'US' }),
    conv('2026-03-01 10:30:00', 'purchase', 301, 31, { customer_id: 'ann@example.com', transaction_id: 'T1', is_new_customer: 1, transaction_gross_revenue: 5000, transaction_country_code: 'DE', transaction_city: 'Berlin' }),
    conv('2026-03-01 12:00:00', 'purchase', 302, 32, { customer_id: 'bob', transaction_id: 'T2', is_new_customer: 0, transaction_gross_revenue: 2000, transaction_country_code: 'US' }),
    conv('2026-03-02 09:00:00', 'lead', 303, 33, {}),
    conv('2026-03-02 10:00:00', 'purchase', 399, 39, { customer_id: 'ann@example.com', transaction_id: 'T4', is_new_customer: 0, transaction_gross_revenue: 3000, transaction_country_code: 'DE' }),
    conv('2026-03-02 11:00:00', 'purchase', 304, 34, { customer_id: 'cy', transaction_id: 'T5', is_new_customer: 1, transaction_gross_revenue: 7000, transaction_country_code: 'US' }),
    { store_id: other.id, dt: '2026-03-01 10:30:00', name: 'purchase', session_id: 301, visitor_id: 31, transaction_id: 'X1', transaction_gross_revenue: 100 },
  ]);
});

after(() => t.close());

const get = (url: string, headers: Record<string, string> = shop.headers) => injectGet(t, url, headers);
const txs = async (query: string, headers?: Record<string, string>) => {
  const { status, body } = await get(`/v3/conversions?${RANGE}&${query}`, headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body.data.map((c: { transaction_id: string; name: string }) => c.transaction_id || c.name);
};

describe('GET /v3/conversions rows', () => {
  test('returns conversions by dt with integers as strings and the channel of their session landing', async () => {
    const { status, body } = await get(`/v3/conversions?${RANGE}`);
    assert.equal(status, 200);
    assert.deepEqual(body.data.map((c: { transaction_id: string; name: string }) => c.transaction_id || c.name), ['T1', 'T2', 'lead', 'T4', 'T5', 'T6']);
    assert.deepEqual(body.data[0], {
      store_id: String(shop.id), dt: '2026-03-01 10:30:00', name: 'purchase', session_id: '301', visitor_id: '31',
      customer_id: 'ann@example.com', transaction_id: 'T1', is_new_customer: '1', transaction_gross_revenue: '5000',
      transaction_currency: 'USD', transaction_country_code: 'DE', transaction_city: 'Berlin', hostname: 'shop.example',
      adv_source: 'facebook', adv_campaign_id: 'c1', adv_adgroup_id: 'g1', adv_ad_id: 'a1',
      utm_source: 'fb', utm_medium: 'paid', utm_campaign: 'spring', utm_content: 'video', utm_term: 'shoes',
    });
    assert.deepEqual(body.pagination, {
      limit: 100, offset: 0, has_more: false, next_offset: null,
      start_date: '2026-03-01 00:00:00', end_date: '2026-03-02 23:59:59', sources: null,
    });
  });

  test('reports untagged sessions and sessions without events as organic with empty ids', async () => {
    const { body } = await get(`/v3/conversions?${RANGE}&transaction_id=T4`);
    const c = body.data[0];
    assert.deepEqual(
      [c.adv_source, c.adv_campaign_id, c.adv_adgroup_id, c.adv_ad_id, c.utm_source, c.utm_medium, c.utm_campaign, c.utm_content, c.utm_term],
      ['organic', '', '', '', '', '', '', '', ''],
    );
    assert.equal((await get(`/v3/conversions?${RANGE}&transaction_id=T2`)).body.data[0].adv_source, 'organic');
    assert.equal((await get(`/v3/conversions?${RANGE}&name=lead`)).body.data[0].adv_source, 'influencer');
  });

  test('filters by source of the session, organic meaning untagged, creator matching legacy influencer', async () => {
    assert.deepEqual(await txs('source=meta'), ['T1']);
    assert.deepEqual(await txs('source=organic'), ['T2', 'T4']);
    assert.deepEqual(await txs('sources=creator,google'), ['lead', 'T5', 'T6']);
    const { body } = await get(`/v3/conversions?${RANGE}&source=creator`);
    assert.deepEqual(body.pagination.sources, ['creator']);
  });

  test('removes excluded channels after the source filter, organic exclusion dropping untagged rows', async () => {
    assert.deepEqual(await txs('exclude_source=organic'), ['T1', 'lead', 'T5', 'T6']);
    assert.deepEqual(await txs('source=meta,google&exclude_sources=google'), ['T1']);
    assert.deepEqual(await txs('exclude_source=creator,meta,google'), ['T2', 'T4']);
    const meta = await shop.keyHeaders(['read:meta']);
    assert.deepEqual(await txs('exclude_source=organic', meta), ['T1']);
  });

  test('filters by name pattern, transaction, customer and new-customer flag', async () => {
    assert.deepEqual(await txs('name=purchase'), ['T1', 'T2', 'T4', 'T5']);
    assert.deepEqual(await txs('name=purchase*'), ['T1', 'T2', 'T4', 'T5', 'T6']);
    assert.deepEqual(await txs('name=*_upsell'), ['T6']);
    assert.deepEqual(await txs('transaction_id=T2'), ['T2']);
    assert.deepEqual(await txs('customer_id=ann%40example.com'), ['T1', 'T4']);
    assert.deepEqual(await txs('is_new_customer=true'), ['T1', 'T5']);
    assert.deepEqual(await txs('is_new_customer=1'), ['T1', 'T5']);
    assert.deepEqual(await txs('is_new_customer=false&name=purchase'), ['T2', 'T4']);
    assert.deepEqual(await get(`/v3/conversions?${RANGE}&is_new_customer=yes`), {
      status: 400,
      body: { message: 'is_new_customer must be one of 0,1,true,false' },
    });
  });

  test('pages stably with limit/offset and their aliases', async () => {
    const first = await get(`/v3/conversions?${RANGE}&limit=4`);
    const second = await get(`/v3/conversions?${RANGE}&page_size=4&page=4`);
    assert.deepEqual([first.body.pagination.has_more, first.body.pagination.next_offset], [true, 4]);
    assert.deepEqual([second.body.pagination.has_more, second.body.pagination.next_offset], [false, null]);
    assert.deepEqual([...first.body.data, ...second.body.data].map((c: { transaction_id: string }) => c.transaction_id), ['T1', 'T2', '', 'T4', 'T5', 'T6']);
  });

  test('shows a key only the conversions of its visible channels', async () => {
    assert.deepEqual(await txs('', await shop.keyHeaders(['read:organic'])), ['T2', 'T4']);
    assert.deepEqual(await txs('', await shop.keyHeaders(['read:creators'])), ['lead']);
    assert.deepEqual(await get(`/v3/conversions?${RANGE}&source=google`, await shop.keyHeaders(['read:meta'])), {
      status: 403,
      body: { message: 'You do not have access to the requested sources' },
    });
    assert.deepEqual(await get(`/v3/conversions?${RANGE}`, await shop.keyHeaders(['read:profit'])), {
      status: 403,
      body: { message: 'You do not have access to pixel data' },
    });
  });
});

describe('GET /v3/conversions with group_by', () => {
  test('aggregates by channel ordered by revenue, ties by the dimension, metrics as numbers', async () => {
    const { status, body } = await get(`/v3/conversions?${RANGE}&group_by=adv_source`);
    assert.equal(status, 200);
    assert.deepEqual(body, {
      data: [
        { adv_source: 'google', conversions: 2, revenue: 8000, new_customers: 1, unique_customers: 1 },
        { adv_source: 'facebook', conversions: 1, revenue: 5000, new_customers: 1, unique_customers: 1 },
        { adv_source: 'organic', conversions: 2, revenue: 5000, new_customers: 0, unique_customers: 2 },
        { adv_source: 'influencer', conversions: 1, revenue: 0, new_customers: 0, unique_customers: 0 },
      ],
      pagination: { limit: 100, offset: 0, has_more: false, next_offset: null },
    });
  });

  test('orders chronologically when date is a dimension and combines dimensions', async () => {
    const { body } = await get(`/v3/conversions?${RANGE}&group_by=date,country_code`);
    assert.deepEqual(body.data, [
      { date: '2026-03-01', country_code: 'DE', conversions: 1, revenue: 5000, new_customers: 1, unique_customers: 1 },
      { date: '2026-03-01', country_code: 'US', conversions: 1, revenue: 2000, new_customers: 0, unique_customers: 1 },
      { date: '2026-03-02', country_code: 'US', conversions: 2, revenue: 8000, new_customers: 1, unique_customers: 1 },
      { date: '2026-03-02', country_code: 'DE', conversions: 1, revenue: 3000, new_customers: 0, unique_customers: 1 },
      { date: '2026-03-02', country_code: '', conversions: 1, revenue: 0, new_customers: 0, unique_customers: 0 },
    ]);
  });

  test('groups by campaign ids, UTM values and name, with filters applied first', async () => {
    const { body } = await get(`/v3/conversions?${RANGE}&group_by=name,adv_campaign_id,utm_campaign&source=meta,google&limit=2`);
    assert.deepEqual(body, {
      data: [
        { name: 'purchase', adv_campaign_id: 'g-9', utm_campaign: '', conversions: 1, revenue: 7000, new_customers: 1, unique_customers: 1 },
        { name: 'purchase', adv_campaign_id: 'c1', utm_campaign: 'spring', conversions: 1, revenue: 5000, new_customers: 1, unique_customers: 1 },
      ],
      pagination: { limit: 2, offset: 0, has_more: true, next_offset: 2 },
    });
  });

  test('aggregates only the channels the key sees', async () => {
    const { body } = await get(`/v3/conversions?${RANGE}&group_by=adv_source`, await shop.keyHeaders(['read:organic']));
    assert.deepEqual(body.data, [{ adv_source: 'organic', conversions: 2, revenue: 5000, new_customers: 0, unique_customers: 2 }]);
  });

  test('refuses an unknown dimension naming the accepted ones', async () => {
    assert.deepEqual(await get(`/v3/conversions?${RANGE}&group_by=date,campaign`), {
      status: 400,
      body: { message: 'Unknown group_by dimension: campaign. Accepted dimensions: utm_campaign, utm_content, utm_source, utm_medium, utm_term, adv_source, adv_campaign_id, adv_adgroup_id, adv_ad_id, name, date, country_code' },
    });
  });
});
