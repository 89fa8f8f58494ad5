/**
 * Fixture: one workspace ("Test shop") whose pixel posts to POST /collect through app.inject;
 * each test uses its own visitor/session ids and its own client address (x-forwarded-for), so
 * the per-client rate limit (3 requests a minute here) only bites where a test wants it to.
 * Rows reach ClickHouse through the write-ahead log, flushed every 20 ms. The proxy's country
 * header is configured as x-visitor-country (cf-ipcountry, the default, must then be ignored).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { BOT_UA, DESKTOP_UA, IPHONE_UA, eventually, todayRange, wireTime } from './helpers.ts';
import { callTool } from '../mcp/rpc.ts';

let t: TestApp;
let shop: TestWorkspace;
let client = 0;

before(async () => {
  t = await startTestApp({ countryHeader: 'x-visitor-country', trustProxy: true, collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 3, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores);
});

after(() => t.close());

/** Whole seconds, so wire timestamps are exact. */
const NOW = Math.floor(Date.now() / 1000) * 1000 - 60_000;

function body(overrides: Record<string, unknown> = {}) {
  return {
    pixel_id: shop.pixelId,
    visitor_id: '7001',
    session_id: '8001',
    entry_url: 'https://shop.example/?utm_source=google&utm_medium=cpc&utm_campaign=spring&gclid=Cj0K&campaign_id=555',
    referrer: 'https://www.google.com/',
    timezone: 'Europe/Berlin',
    items: [{ type: 'event', name: 'pageview', url: 'https://shop.example/p/shoe?color=red', ts: NOW }],
    ...overrides,
  };
}

async function post(payload: unknown, headers: Record<string, string> = {}) {
  client++;
  const response = await t.app.inject({
    method: 'POST',
    url: '/collect',
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': DESKTOP_UA, 'x-forwarded-for': `10.0.0.${client}`, ...headers },
  });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

async function get(path: string) {
  const response = await t.app.inject({ method: 'GET', url: path, headers: shop.headers });
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

const eventsOf = (sessionId: string) => get(`/v3/events?${todayRange()}&session_id=${sessionId}`).then((b) => b.data);

/** Waits until `count` events of the session are visible. */
const visibleEvents = (sessionId: string, count: number) => eventually(() => eventsOf(sessionId), (rows) => rows.length >= count);

describe('POST /collect', () => {
  test('stores a pageview with channel, click ids, UTMs, device and country (configured header) derived on the server', async () => {
    const answer = await post(body(), { 'user-agent': IPHONE_UA, 'x-visitor-country': 'de', 'cf-ipcountry': 'US' });
    assert.deepEqual([answer.status, answer.body], [202, { accepted: 1 }]);
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    const rows = await visibleEvents('8001', 1);
    assert.deepEqual(rows, [{
      store_id: String(shop.id), dt: wireTime(NOW), name: 'pageview', session_id: '8001', visitor_id: '7001',
      visitor_timezone: 'Europe/Berlin', adv_source: 'google', adv_campaign_id: '555', adv_adgroup_id: '', adv_ad_id: '',
      adv_asset_group_id: '', utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring', utm_content: '', utm_term: '',
      device_type: 'mobile', country_code: 'DE', hostname: 'shop.example', pathname: '/p/shoe', referrer: 'https://www.google.com/',
      entry_meta_keys: ['gclid'], entry_meta_values: ['Cj0K'],
    }]);
  });

  test('turns purchase, lead and subscribe into conversions, never events, and counts a transaction once', async () => {
    const purchase = { type: 'event', name: 'purchase', url: 'https://shop.example/thanks', ts: NOW, transaction_id: 'T-1', revenue: 4990, currency: 'eur', customer_id: 'c-1', is_new_customer: 1 };
    const items = [
      { type: 'event', name: 'pageview', url: 'https://shop.example/thanks', ts: NOW - 1000 },
      purchase,
      { type: 'conversion', name: 'lead', url: 'https://shop.example/contact', ts: NOW, transaction_id: '' },
    ];
    const entry = { session_id: '8002', entry_url: 'https://shop.example/?fbclid=IwAR1&utm_source=instagram', referrer: '' };
    assert.equal((await post(body({ ...entry, items }), { 'x-visitor-country': 'FR' })).status, 202);
    // The thank-you page reloaded: the same purchase again.
    assert.equal((await post(body({ ...entry, items: [{ ...purchase, ts: NOW + 5000 }] }))).status, 202);
    await visibleEvents('8002', 1);
    const conversions = await eventually(
      () => get(`/v3/conversions?${todayRange()}&source=instagram`).then((b) => b.data),
      (rows) => rows.length >= 2,
    );
    assert.deepEqual(conversions.map((c: Record<string, string>) => [c.name, c.transaction_id, c.transaction_gross_revenue, c.transaction_currency, c.customer_id, c.is_new_customer, c.transaction_country_code, c.adv_source, c.session_id, c.dt]), [
      ['lead', '', '0', '', '', '0', 'FR', 'instagram', '8002', wireTime(NOW)],
      ['purchase', 'T-1', '4990', 'EUR', 'c-1', '1', 'FR', 'instagram', '8002', wireTime(NOW)],
    ]);
    assert.deepEqual((await eventsOf('8002')).map((e: { name: string }) => e.name), ['pageview']);
  });

  test('keeps what a purchase bought as its line items', async () => {
    const items = [
      { product_id: '8011', variant_id: '44870011001', sku: 'LS-M', title: 'Linen Shirt - M', quantity: 2, unit_price: 6900 },
      { sku: 'CAP', quantity: '1', unit_price: '2000' },
    ];
    const purchase = { type: 'conversion', name: 'purchase', url: 'https://shop.example/thanks', ts: NOW, transaction_id: 'T-9', revenue: 15800, currency: 'USD', coupon_code: 'SPRING10', items };
    assert.equal((await post(body({ session_id: '8003', items: [purchase] }))).status, 202);
    const read = () => t.stores.ch.query('test-purchase-lines', "SELECT coupon_code, line_items FROM conversions WHERE store_id = {store:UInt64} AND transaction_id = 'T-9'", { store: shop.id });
    assert.deepEqual(await eventually(read, (rows) => rows.length === 1), [{
      coupon_code: 'SPRING10',
      line_items: [
        { product_id: '8011', variant_id: '44870011001', sku: 'LS-M', title: 'Linen Shirt - M', quantity: 2, unit_price: 6900 },
        { product_id: '', variant_id: '', sku: 'CAP', title: '', quantity: 1, unit_price: 2000 },
      ],
    }]);
  });

  test('keeps the A/B test tags of the landing URL, so the A/B tools see each variant and its orders', async () => {
    const landing = (variant: string) => `https://shop.example/?ab_test=hero-photo&ab_variant=${variant}`;
    const pageview = { type: 'event', name: 'pageview', url: 'https://shop.example/', ts: NOW };
    const purchase = { type: 'conversion', name: 'purchase', url: 'https://shop.example/thanks', ts: NOW + 1000, transaction_id: 'T-AB', revenue: 5000, currency: 'USD' };
    assert.equal((await post(body({ visitor_id: '7010', session_id: '8010', entry_url: landing('A'), referrer: '', items: [pageview] }))).status, 202);
    assert.equal((await post(body({ visitor_id: '7011', session_id: '8011', entry_url: landing('B'), referrer: '', items: [pageview, purchase] }))).status, 202);
    const results = async () => (await callTool(t.app, shop.headers, 'ab-testing.get-results', { test_id: 'hero-photo' })).result?.structuredContent;
    // Events and conversions reach their tables apart: wait for both sessions and the order.
    const total = (a: any, key: 'sessions' | 'converted_sessions') => a?.results?.variants?.reduce((n: number, v: Record<string, number>) => n + v[key]!, 0);
    const answer = await eventually(results, (a) => total(a, 'sessions') === 2 && total(a, 'converted_sessions') === 1);
    assert.deepEqual(
      answer.results.variants.map((v: { variant: string; sessions: number; converted_sessions: number; revenue: number }) => [v.variant, v.sessions, v.converted_sessions, v.revenue]),
      [['A', 1, 0, 0], ['B', 1, 1, 50]],
    );
  });

  test('shifts item times by the client clock error given in sent_at', async () => {
    const skew = 3_600_000; // the visitor's clock runs an hour fast
    const items = [{ type: 'event', name: 'view_content', url: 'https://shop.example/p/1', ts: NOW + skew - 2000 }];
    assert.equal((await post(body({ session_id: '8003', sent_at: Date.now() + skew, items }))).status, 202);
    const [row] = await visibleEvents('8003', 1);
    const stored = Date.parse(`${row.dt.replace(' ', 'T')}Z`);
    assert.ok(Math.abs(stored - (NOW - 2000)) < 5000, `${row.dt} should be near ${wireTime(NOW - 2000)}`);
  });

  test('builds a session in /v3/sessions while it goes on, also from late and out-of-order events', async () => {
    const at = (s: number) => NOW - 600_000 + s * 1000;
    const page = (name: string, path: string, s: number) => ({ type: 'event', name, url: `https://shop.example${path}`, ts: at(s) });
    const sent = { session_id: '8004', visitor_id: '7004', entry_url: 'https://shop.example/?ref=anna', referrer: '' };
    // The later batch arrives first; the landing pageview comes last.
    assert.equal((await post(body({ ...sent, items: [page('add_to_cart', '/p/2', 120), page('pageview', '/cart', 180)] }))).status, 202);
    assert.equal((await post(body({ ...sent, items: [page('pageview', '/p/2', 60)] }))).status, 202);
    assert.equal((await post(body({ ...sent, items: [page('pageview', '/', 0)] }))).status, 202);
    await visibleEvents('8004', 4);
    // The view's `sessions` part is committed just after the `events` part of the same insert.
    const { data } = await eventually(() => get(`/v3/sessions?${todayRange()}&session_id=8004`), (r) => r.data.length === 1 && r.data[0].events === '4');
    assert.equal(data.length, 1);
    const s = data[0];
    assert.deepEqual(
      [s.session_start_dt, s.session_end_dt, s.session_duration_seconds, s.session_entry_page, s.session_exit_page, s.events, s.pageviews, s.add_to_carts, s.is_bounce, s.adv_source, s.entry_meta_keys, s.entry_meta_values],
      [wireTime(at(0)), wireTime(at(180)), '180', '/', '/cart', '4', '3', '1', '0', 'creator', ['ref'], ['anna']],
    );
  });

  test('drops bots: answers 202 with nothing accepted and stores nothing', async () => {
    const answer = await post(body({ session_id: '8005' }), { 'user-agent': BOT_UA });
    assert.deepEqual([answer.status, answer.body], [202, { accepted: 0 }]);
    const empty = await post(body({ session_id: '8006' }), { 'user-agent': '' });
    assert.deepEqual([empty.status, empty.body], [202, { accepted: 0 }]);
    // A later human request is visible; the writer keeps order, so the bots would be too.
    await post(body({ session_id: '8007' }));
    await visibleEvents('8007', 1);
    assert.deepEqual([await eventsOf('8005'), await eventsOf('8006')], [[], []]);
  });

  test('stores text with a lone UTF-16 surrogate made well-formed, and a later request still gets through', async () => {
    // The JSON text carries the escape `\ud83d` with no second half: valid JSON, invalid Unicode.
    const poisoned = JSON.stringify(body({ session_id: '8009', referrer: '\ud83d', items: [{ type: 'event', name: 'pageview', url: 'https://shop.example/p/\udc00', ts: NOW }] }));
    assert.ok(poisoned.includes('"referrer":"\\ud83d"'));
    assert.deepEqual((await post(poisoned)).body, { accepted: 1 });
    assert.deepEqual((await post(body({ session_id: '8010' }))).body, { accepted: 1 });
    await visibleEvents('8010', 1);
    const [stored] = await visibleEvents('8009', 1);
    assert.deepEqual([stored.referrer, stored.pathname], ['\ufffd', '/p/%EF%BF%BD']);
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.deepEqual(health.json().checks.collect.dead_letters, { rows: 0 });
  });

  test('takes a utm_source named after a prototype member as an unknown source: no channel', async () => {
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
    for (const [i, name] of names.entries()) {
      const answer = await post(body({ session_id: `803${i}`, entry_url: `https://shop.example/?utm_source=${name}&utm_medium=social` }));
      assert.deepEqual(answer.body, { accepted: 1 });
    }
    for (const [i, name] of names.entries()) {
      const [row] = await visibleEvents(`803${i}`, 1);
      assert.deepEqual([row.adv_source, row.utm_source, row.utm_medium], ['', name, 'social'], name);
    }
  });

  test('answers preflight requests from any origin and serves the pixel script', async () => {
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/collect', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
    assert.equal(preflight.headers['access-control-allow-methods'], 'POST, OPTIONS');
    const pixel = await t.app.inject({ method: 'GET', url: '/pixel.js' });
    assert.equal(pixel.statusCode, 200);
    assert.equal(pixel.headers['content-type'], 'application/javascript; charset=utf-8');
    assert.ok(pixel.body.length < 4608 && pixel.body.includes('sendBeacon'), 'a small minified script');
  });

  test('limits requests per pixel id and client with 429 and retry-after', async () => {
    const headers = { 'x-forwarded-for': '192.0.2.77' };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(body({ session_id: '8008' }), headers)).status);
    const limited = await post(body({ session_id: '8008' }), headers);
    assert.deepEqual(statuses, [202, 202, 202, 429]);
    assert.deepEqual(limited.body, { message: 'Rate limit exceeded' });
    assert.match(String(limited.headers['retry-after']), /^\d+$/);
  });
});

describe('POST /collect with bad input', () => {
  const bad: Array<[string, () => unknown, number, string, Record<string, string>?]> = [
    ['malformed JSON', () => '{"pixel_id": "px', 400, 'Invalid JSON'],
    ['an empty body', () => '', 400, 'Invalid JSON'],
    ['a JSON array', () => '[]', 400, 'pixel_id: is required'],
    ['an unknown pixel id', () => body({ pixel_id: 'px_nope' }), 404, 'Unknown pixel id'],
    ['a missing session id', () => body({ session_id: undefined }), 400, 'session_id: is required'],
    ['a negative visitor id', () => body({ visitor_id: '-5' }), 400, 'visitor_id: expected a non-negative integer (number or digit string)'],
    ['a relative entry URL', () => body({ entry_url: '/landing' }), 400, 'entry_url: expected an absolute http(s) URL'],
    ['a javascript: page URL', () => body({ items: [{ type: 'event', name: 'pageview', url: 'javascript:alert(1)', ts: NOW }] }), 400, 'items.0.url: expected an absolute http(s) URL'],
    ['no items', () => body({ items: [] }), 400, 'items: must not be empty'],
    ['51 items', () => body({ items: Array.from({ length: 51 }, () => ({ type: 'event', name: 'pageview', url: 'https://shop.example/', ts: NOW })) }), 400, 'items: at most 50 items'],
    ['an unknown item type', () => body({ items: [{ type: 'click', name: 'x', url: 'https://shop.example/', ts: NOW }] }), 400, 'items.0.type: expected event or conversion'],
    ['an event name with spaces', () => body({ items: [{ type: 'event', name: 'add to cart', url: 'https://shop.example/', ts: NOW }] }), 400, 'items.0.name: expected 1-64 letters, digits or _ . : -'],
    ['fractional revenue', () => body({ items: [{ type: 'conversion', name: 'purchase', url: 'https://shop.example/', ts: NOW, revenue: 49.9 }] }), 400, 'items.0.revenue: expected an integer amount in cents'],
    ['revenue of 1e13 cents from anyone', () => body({ items: [{ type: 'conversion', name: 'purchase', url: 'https://shop.example/', ts: NOW, revenue: 1e13 }] }), 400, 'items.0.revenue: at most 10000000000 cents'],
    ['revenue one cent over the bound', () => body({ items: [{ type: 'conversion', name: 'purchase', url: 'https://shop.example/', ts: NOW, revenue: 10_000_000_001 }] }), 400, 'items.0.revenue: at most 10000000000 cents'],
    ['a timestamp from 1970', () => body({ items: [{ type: 'event', name: 'pageview', url: 'https://shop.example/', ts: 1000 }] }), 400, 'items.0.ts: timestamp out of range (older than 7 days or in the future)'],
    ['a timestamp next year', () => body({ items: [{ type: 'event', name: 'pageview', url: 'https://shop.example/', ts: NOW + 365 * 86_400_000 }] }), 400, 'items.0.ts: timestamp out of range (older than 7 days or in the future)'],
    ['a string timestamp', () => body({ items: [{ type: 'event', name: 'pageview', url: 'https://shop.example/', ts: '2026-01-01' }] }), 400, 'items.0.ts: expected milliseconds since the epoch'],
    ['a purchase item without a unit price', () => body({ items: [{ type: 'conversion', name: 'purchase', url: 'https://shop.example/', ts: NOW, items: [{ sku: 'TEE', quantity: 1 }] }] }), 400, 'items.0.items: [0]: unit_price: is required'],
    ['one line item worth more than the revenue bound', () => body({ items: [{ type: 'conversion', name: 'purchase', url: 'https://shop.example/', ts: NOW, revenue: 100, items: [{ sku: 'GOLD', quantity: 1_000_000, unit_price: 10_001 }] }] }), 400, 'items.0.items: unit_price x quantity: at most 10000000000 cents over all items'],
    ['line items together one cent over the revenue bound', () => body({ items: [{ type: 'conversion', name: 'purchase', url: 'https://shop.example/', ts: NOW, items: [{ sku: 'A', quantity: 1, unit_price: 5_000_000_000 }, { sku: 'B', quantity: 1, unit_price: 5_000_000_001 }] }] }), 400, 'items.0.items: unit_price x quantity: at most 10000000000 cents over all items'],
    ['101 purchase items', () => body({ items: [{ type: 'conversion', name: 'purchase', url: 'https://shop.example/', ts: NOW, items: Array.from({ length: 101 }, () => ({ sku: 'TEE', quantity: 1, unit_price: 100 })) }] }), 400, 'items.0.items: at most 100 items'],
    ['a body over 64 KB', () => body({ referrer: 'x'.repeat(70_000) }), 413, 'Request body is too large'],
    ['an XML body', () => '<collect/>', 415, 'Unsupported content type', { 'content-type': 'application/xml' }],
  ];
  for (const [what, make, status, message, headers] of bad) {
    test(`refuses ${what} with ${status} "${message}"`, async () => {
      const answer = await post(make(), { ...headers, 'x-forwarded-for': `10.9.${client}.1` });
      assert.deepEqual([answer.status, answer.body], [status, { message }]);
    });
  }

  test('stores nothing from refused requests, not even their valid items', async () => {
    const valid = { type: 'event', name: 'pageview', url: 'https://shop.example/', ts: NOW };
    const answer = await post(body({ session_id: '8100', items: [valid, { ...valid, ts: 5 }] }));
    assert.equal(answer.status, 400);
    await post(body({ session_id: '8101' }));
    await visibleEvents('8101', 1);
    assert.deepEqual(await eventsOf('8100'), []);
  });
});
