/**
 * Fixture: one workspace whose sessions are derived from these events (times UTC):
 * - session 201 / visitor 21: facebook click (campaign c1, fbclid) on 2026-03-01 10:00 at /, then
 *   add_to_cart /p/1 (10:02) and initiate_checkout /checkout (10:05)
 * - session 202 / visitor 22: one untagged pageview of /blog at 2026-03-01 11:00 (a bounce)
 * - session 203 / visitor 23: google click at 2026-03-01 23:50 and a view_content at 2026-03-02 00:10;
 *   the later event is inserted first (out of order) and lies after a 2026-03-01 range end
 * - session 204 / visitor 24: email, starts 2026-02-27 23:55 and goes on at 2026-02-28 00:05
 * - session 205 / visitor 21: tiktok, 2026-03-02 09:00, one event of every counted kind plus a
 *   custom survey_opened; session 206 / visitor 26 starts at the same second (id order)
 * - session 207 / visitor 27: still going on, two pageviews in the last minutes
 * - session 208 / visitor 28: a pageview on 2026-04-01 12:00 and, an imported oddity, another on
 *   2026-04-03 13:00 (more than a day after a 2026-04-01 range end)
 * - session 209 / visitor 29: a pageview on 2026-05-31 23:50 and an add_to_cart on 2026-06-01 00:10,
 *   across the end of a month
 * A second workspace holds a session that must never leak into the first.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { formatTimestamp } from '../../src/kit/calendar/days.ts';

let t: TestApp;
let shop: TestWorkspace;

const base = { visitor_timezone: 'Europe/Berlin', device_type: 'desktop', country_code: 'DE', hostname: 'shop.example' };
const now = Date.now();

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  const other = await createTestWorkspace(t.stores, 'Other');
  const ev = (session_id: number, visitor_id: number, dt: string, name: string, extra: object = {}) => ({
    ...base, store_id: shop.id, session_id, visitor_id, dt, name, ...extra,
  });
  const fb = { adv_source: 'facebook', adv_campaign_id: 'c1', adv_adgroup_id: 'g1', adv_ad_id: 'a1', utm_source: 'fb', utm_medium: 'paid', utm_campaign: 'spring' };
  const tiktok = { adv_source: 'tiktok', device_type: 'mobile' };
  await insertRows(t.stores, 'events', [ev(203, 23, '2026-03-02 00:10:00', 'view_content', { adv_source: 'google', pathname: '/p/9' })]);
  await insertRows(t.stores, 'events', [
    ev(201, 21, '2026-03-01 10:00:00', 'pageview', { ...fb, pathname: '/', referrer: 'https://facebook.com/', entry_meta_keys: ['fbclid'], entry_meta_values: ['abc'] }),
    ev(201, 21, '2026-03-01 10:02:00', 'add_to_cart', { ...fb, pathname: '/p/1' }),
    ev(201, 21, '2026-03-01 10:05:00', 'initiate_checkout', { ...fb, pathname: '/checkout' }),
    ev(202, 22, '2026-03-01 11:00:00', 'pageview', { pathname: '/blog' }),
    ev(203, 23, '2026-03-01 23:50:00', 'pageview', { adv_source: 'google', adv_campaign_id: 'g-7', pathname: '/' }),
    ev(204, 24, '2026-02-27 23:55:00', 'pageview', { adv_source: 'email', pathname: '/' }),
    ev(204, 24, '2026-02-28 00:05:00', 'pageview', { adv_source: 'email', pathname: '/sale' }),
    ...['pageview', 'add_to_cart', 'initiate_checkout', 'view_content', 'contact', 'newsletter_signup', 'complete_registration', 'app_install', 'add_payment_info', 'survey_opened']
      .map((name, i) => ev(205, 21, `2026-03-02 09:${String(i).padStart(2, '0')}:00`, name, { ...tiktok, pathname: `/step/${i}` })),
    ev(206, 26, '2026-03-02 09:00:00', 'pageview', { pathname: '/' }),
    ev(207, 27, formatTimestamp(now - 120_000), 'pageview', { pathname: '/' }),
    ev(207, 27, formatTimestamp(now - 60_000), 'pageview', { pathname: '/cart' }),
    ev(208, 28, '2026-04-01 12:00:00', 'pageview', { pathname: '/' }),
    ev(208, 28, '2026-04-03 13:00:00', 'pageview', { pathname: '/again' }),
    ev(209, 29, '2026-05-31 23:50:00', 'pageview', { pathname: '/' }),
    ev(209, 29, '2026-06-01 00:10:00', 'add_to_cart', { pathname: '/p/2' }),
    { ...base, store_id: other.id, dt: '2026-03-01 10:00:00', name: 'pageview', session_id: 900, visitor_id: 90, pathname: '/' },
  ]);
});

after(() => t.close());

const get = (url: string, headers: Record<string, string> = shop.headers) => injectGet(t, url, headers);
const ids = (body: { data: { session_id: string }[] }) => body.data.map((s) => s.session_id);

const zeroCounters = {
  pageviews: '0', add_to_carts: '0', initiated_checkouts: '0', view_contents: '0', contacts: '0',
  newsletter_signups: '0', completed_registrations: '0', app_installs: '0', add_payment_infos: '0',
};

describe('GET /v3/sessions', () => {
  test('derives each session from its events with landing attribution from the first event', async () => {
    const { status, body } = await get('/v3/sessions?start_date=2026-03-01&end_date=2026-03-01');
    assert.equal(status, 200);
    assert.deepEqual(ids(body), ['201', '202', '203']);
    assert.deepEqual(body.data[0], {
      store_id: String(shop.id), visitor_id: '21', session_id: '201',
      session_start_dt: '2026-03-01 10:00:00', session_end_dt: '2026-03-01 10:05:00', session_duration_seconds: '300',
      is_bounce: '0', session_entry_page: '/', session_exit_page: '/checkout', events: '3',
      ...zeroCounters, pageviews: '1', add_to_carts: '1', initiated_checkouts: '1',
      adv_source: 'facebook', adv_campaign_id: 'c1', adv_adgroup_id: 'g1', adv_ad_id: 'a1', adv_asset_group_id: '',
      utm_source: 'fb', utm_campaign: 'spring', utm_medium: 'paid', utm_content: '', utm_term: '',
      device_type: 'desktop', country_code: 'DE', referrer: 'https://facebook.com/', pathname: '/', hostname: 'shop.example',
      entry_meta_keys: ['fbclid'], entry_meta_values: ['abc'],
    });
    assert.deepEqual(body.pagination, {
      limit: 100, offset: 0, has_more: false, next_offset: null,
      start_date: '2026-03-01 00:00:00', end_date: '2026-03-01 23:59:59',
    });
  });

  test('marks only a single-pageview session as a bounce', async () => {
    const { body } = await get('/v3/sessions?start_date=2026-03-01&end_date=2026-03-02');
    assert.deepEqual(body.data.map((s: { session_id: string; is_bounce: string }) => [s.session_id, s.is_bounce]), [
      ['201', '0'], ['202', '1'], ['203', '0'], ['205', '0'], ['206', '1'],
    ]);
  });

  test('counts every counted event kind and all events of the session', async () => {
    const { body } = await get('/v3/sessions?from=2026-03-02&to=2026-03-02&session_id=205');
    assert.equal(body.data.length, 1);
    const s = body.data[0];
    assert.deepEqual(
      { events: s.events, ...Object.fromEntries(Object.keys(zeroCounters).map((k) => [k, s[k]])) },
      { events: '10', ...Object.fromEntries(Object.keys(zeroCounters).map((k) => [k, '1'])) },
    );
    assert.deepEqual([s.session_entry_page, s.session_exit_page, s.session_duration_seconds, s.device_type], ['/step/0', '/step/9', '540', 'mobile']);
  });

  test('keeps sessions by their start: events after the range end count, sessions begun before it are left out', async () => {
    const { body } = await get('/v3/sessions?start_date=2026-03-01&end_date=2026-03-01&session_id=203');
    assert.deepEqual(
      body.data.map((s: Record<string, string>) => [s.session_start_dt, s.session_end_dt, s.events, s.session_exit_page, s.adv_campaign_id]),
      [['2026-03-01 23:50:00', '2026-03-02 00:10:00', '2', '/p/9', 'g-7']],
    );
    assert.deepEqual(ids((await get('/v3/sessions?start_date=2026-03-01&end_date=2026-03-01&source=email')).body), []);
    assert.deepEqual(ids((await get('/v3/sessions?start_date=2026-02-28&end_date=2026-02-28')).body), []);
    assert.deepEqual(ids((await get('/v3/sessions?start_date=2026-02-27&end_date=2026-02-27')).body), ['204']);
  });

  test('holds every event of the session however far apart, whatever the range', async () => {
    const row = async (range: string) =>
      (await get(`/v3/sessions?${range}`)).body.data.map((x: Record<string, string>) => [x.session_id, x.events, x.session_end_dt]);
    assert.deepEqual(await row('start_date=2026-04-01&end_date=2026-04-01'), [['208', '2', '2026-04-03 13:00:00']]);
    assert.deepEqual(await row('start_date=2026-04-02&end_date=2026-04-03'), []);
  });

  test('counts a session running past midnight at the end of a month as a new session in the new month', async () => {
    const { body } = await get('/v3/sessions?start_date=2026-05-31&end_date=2026-06-01');
    assert.deepEqual(
      body.data.map((x: Record<string, string>) => [x.session_id, x.session_start_dt, x.events, x.pageviews, x.add_to_carts, x.session_entry_page]),
      [['209', '2026-05-31 23:50:00', '1', '1', '0', '/'], ['209', '2026-06-01 00:10:00', '1', '0', '1', '/p/2']],
    );
  });

  test('shows a session that is still going on in the default range', async () => {
    const { body } = await get('/v3/sessions?visitor_id=27');
    assert.deepEqual(
      body.data.map((s: Record<string, string>) => [s.session_id, s.events, s.session_duration_seconds, s.session_exit_page]),
      [['207', '2', '60', '/cart']],
    );
  });

  test('orders by start then session id and pages with limit/offset and the page/page_size aliases', async () => {
    const range = 'start_date=2026-03-01&end_date=2026-03-02';
    const first = await get(`/v3/sessions?${range}&limit=2`);
    assert.deepEqual([ids(first.body), first.body.pagination.has_more, first.body.pagination.next_offset], [['201', '202'], true, 2]);
    const second = await get(`/v3/sessions?${range}&page_size=2&page=2`);
    assert.deepEqual(ids(second.body), ['203', '205']);
    const third = await get(`/v3/sessions?${range}&limit=2&offset=4`);
    assert.deepEqual([ids(third.body), third.body.pagination.has_more, third.body.pagination.next_offset], [['206'], false, null]);
  });

  test('filters by session, visitor and the source of the session landing', async () => {
    const range = 'start_date=2026-03-01&end_date=2026-03-02';
    assert.deepEqual(ids((await get(`/v3/sessions?${range}&visitor_id=21`)).body), ['201', '205']);
    assert.deepEqual(ids((await get(`/v3/sessions?${range}&session_id=202`)).body), ['202']);
    assert.deepEqual(ids((await get(`/v3/sessions?${range}&source=meta`)).body), ['201']);
    assert.deepEqual(ids((await get(`/v3/sessions?${range}&sources=organic,tiktok`)).body), ['202', '205', '206']);
    assert.deepEqual(await get(`/v3/sessions?${range}&source=myspace`), {
      status: 400,
      body: { message: 'Unknown source: myspace. Accepted sources: meta, facebook, instagram, google, tiktok, pinterest, snapchat, microsoft, bing, openai, outbrain, taboola, organic, audience_network, messenger, threads, whatsapp, email, creator' },
    });
    assert.deepEqual(await get(`/v3/sessions?${range}&session_id=abc`), { status: 400, body: { message: 'session_id must be numeric' } });
  });

  test('shows a key only the sessions of its visible channels', async () => {
    const range = 'start_date=2026-03-01&end_date=2026-03-02';
    assert.deepEqual(ids((await get(`/v3/sessions?${range}`, await shop.keyHeaders(['read:meta']))).body), ['201']);
    assert.deepEqual(ids((await get(`/v3/sessions?${range}`, await shop.keyHeaders(['read:organic']))).body), ['202', '206']);
    assert.deepEqual(await get(`/v3/sessions?${range}&source=google`, await shop.keyHeaders(['read:meta'])), {
      status: 403,
      body: { message: 'You do not have access to the requested sources' },
    });
    assert.deepEqual(await get(`/v3/sessions?${range}`, await shop.keyHeaders(['read:profit'])), {
      status: 403,
      body: { message: 'You do not have access to pixel data' },
    });
  });
});
