/**
 * The Shopify custom pixel end to end in headless Chromium (Debian's /usr/bin/chromium via
 * playwright-core). Fixture: the app listens on a free port; a test page on another localhost
 * port plays Shopify's custom-pixel sandbox: it provides the documented globals `analytics`
 * (`subscribe`), `init` (a signed-in customer 7001) and `browser.localStorage` (asynchronous,
 * backed by the page's localStorage), loads the code from
 * `GET /integrations/shopify/pixel.js?pixel_id=...`, and then publishes Shopify's standard events
 * in the documented shapes: `page_viewed` on a landing from a Google ad, `product_added_to_cart`,
 * `checkout_started`, `checkout_completed` for order 5940139491001 of 122.00 USD. The page at
 * /clock loads the code of a second workspace, for events on browser clocks set by the test.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { assertTimeOrderedSessions, eventually, todayRange } from './helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let clockShop: TestWorkspace;
let collector: string;
let server: http.Server;
let pageUrl: string;
let browser: Browser;

/** The sandbox's globals, as Shopify documents them for custom pixels, and `emit` to publish an event. */
const SANDBOX = `
var handlers = {};
var analytics = { subscribe: function (name, callback) { (handlers[name] = handlers[name] || []).push(callback); } };
var init = {
  context: { document: { location: { href: location.href } } },
  data: { customer: { id: '7001', email: 'ada@example.com', ordersCount: 0 }, cart: null, shop: { name: 'Northwind', myshopifyDomain: 'northwind.myshopify.com' } }
};
var browser = {
  localStorage: {
    getItem: function (key) { return Promise.resolve(window.localStorage.getItem(key)); },
    setItem: function (key, value) { window.localStorage.setItem(key, value); return Promise.resolve(); }
  }
};
var seq = 0;
window.emit = function (name, href, referrer, data) {
  var url = new URL(href);
  var event = {
    id: 'sh-' + (++seq), name: name, type: 'standard', seq: seq, clientId: 'a1b2c3', timestamp: new Date().toISOString(),
    context: {
      document: { location: { href: url.href, hash: url.hash, host: url.host, hostname: url.hostname, origin: url.origin, pathname: url.pathname, port: url.port, protocol: url.protocol, search: url.search }, referrer: referrer, title: 'Northwind' },
      navigator: { language: 'en-US', userAgent: navigator.userAgent }
    },
    data: data
  };
  (handlers[name] || []).forEach(function (callback) { callback(event); });
};`;

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores, 'Shopify shop');
  clockShop = await createTestWorkspace(t.stores, 'Shopify clock shop');
  collector = await t.app.listen({ port: 0, host: '127.0.0.1' });
  server = http.createServer((request, response) => {
    const pixelId = request.url === '/clock' ? clockShop.pixelId : shop.pixelId;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><title>Sandbox</title><script>${SANDBOX}</script>
<script src="${collector}/integrations/shopify/pixel.js?pixel_id=${pixelId}"></script></head><body>sandbox</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

async function get(path: string, headers = shop.headers) {
  const response = await t.app.inject({ method: 'GET', url: path, headers });
  assert.equal(response.statusCode, 200, response.body);
  return response.json().data;
}

test('serves the custom pixel code with the pixel id and collector filled in; an unknown pixel id is 404', async () => {
  const response = await t.app.inject({ method: 'GET', url: `/integrations/shopify/pixel.js?pixel_id=${shop.pixelId}`, headers: { host: 'analytics.example.com' } });
  assert.equal(response.statusCode, 200);
  assert.match(response.headers['content-type'] as string, /^text\/javascript/);
  // What to do with it comes first: the code is pasted by hand.
  assert.match(response.body.split('\n').slice(0, 3).join(' '), /Paste into Shopify admin > Settings > Customer events > Add custom pixel/);
  // What to do with it comes first: the code is pasted by hand.
  assert.match(response.body.slice(0, 300), /Paste into Shopify admin > Settings > Customer events > Add custom pixel/);
  assert.ok(response.body.includes(`var PIXEL_ID = ${JSON.stringify(shop.pixelId)};`));
  assert.ok(response.body.includes('var ENDPOINT = "http://analytics.example.com/collect";'));
  const unknown = await t.app.inject({ method: 'GET', url: '/integrations/shopify/pixel.js?pixel_id=px_nope' });
  assert.deepEqual([unknown.statusCode, unknown.json()], [404, { message: 'Unknown pixel id' }]);
  const missing = await t.app.inject({ method: 'GET', url: '/integrations/shopify/pixel.js' });
  assert.deepEqual([missing.statusCode, missing.json()], [400, { message: 'pixel_id: is required' }]);
});

test("Shopify's customer events arrive as events and a purchase conversion in one session credited to google", async () => {
  const context = await browser.newContext({ timezoneId: 'America/Chicago' });
  const tab = await context.newPage();
  await tab.goto(pageUrl);
  await tab.evaluate(() => {
    const emit = (window as unknown as { emit: (name: string, href: string, referrer: string, data: unknown) => void }).emit;
    const landing = 'https://northwind.example/?utm_source=google&utm_medium=cpc&utm_campaign=brand&gclid=Cj0KCQ';
    const merchandise = { id: '44870011001', title: 'M', price: { amount: 49, currencyCode: 'USD' }, product: { id: '632910392', title: 'Linen Shirt' }, sku: 'LS-M' };
    emit('page_viewed', landing, 'https://www.google.com/', {});
    emit('product_added_to_cart', 'https://northwind.example/products/linen-shirt', landing, { cartLine: { quantity: 2, cost: { totalAmount: { amount: 98, currencyCode: 'USD' } }, merchandise } });
    const checkout = {
      token: 'c1-token', currencyCode: 'USD', totalPrice: { amount: 122, currencyCode: 'USD' }, subtotalPrice: { amount: 108, currencyCode: 'USD' },
      totalTax: { amount: 9, currencyCode: 'USD' }, lineItems: [{ quantity: 2, title: 'Linen Shirt', variant: merchandise }],
    };
    emit('checkout_started', 'https://northwind.example/checkouts/cn/c1-token', '', { checkout });
    emit('checkout_completed', 'https://northwind.example/checkouts/cn/c1-token/thank-you', '', {
      checkout: {
        ...checkout,
        order: { id: '5940139491001', customer: { id: '7001', isFirstOrder: true } },
        discountApplications: [
          { type: 'AUTOMATIC', title: 'Free shipping', value: { amount: 5, currencyCode: 'USD' }, allocationMethod: 'ACROSS', targetSelection: 'ALL', targetType: 'SHIPPING_LINE' },
          { type: 'DISCOUNT_CODE', title: 'WELCOME10', value: { percentage: 10 }, allocationMethod: 'ACROSS', targetSelection: 'ALL', targetType: 'LINE_ITEM' },
        ],
        lineItems: [
          ...checkout.lineItems,
          { quantity: 1, title: 'Gift card', variant: { id: 'gid://shopify/ProductVariant/44870099001', title: 'Default', price: { amount: 20.5, currencyCode: 'USD' }, product: { id: 'gid://shopify/Product/632910399', title: 'Gift card' }, sku: null } },
        ],
      },
    });
  });

  type Row = Record<string, string | string[]>;
  const events: Row[] = await eventually(() => get(`/v3/events?${todayRange()}`), (rows) => rows.length >= 3);
  assert.deepEqual(events.map((e) => `${e.name} ${e.pathname}`).sort(), [
    'add_to_cart /products/linen-shirt', 'initiate_checkout /checkouts/cn/c1-token', 'pageview /',
  ]);
  assert.equal(new Set(events.map((e) => e.session_id)).size, 1, 'one session');
  for (const e of events) {
    assert.deepEqual(
      [e.adv_source, e.utm_source, e.utm_campaign, e.entry_meta_keys, e.entry_meta_values, e.hostname, e.visitor_timezone],
      ['google', 'google', 'brand', ['gclid'], ['Cj0KCQ'], 'northwind.example', 'America/Chicago'],
    );
  }
  const conversions: Row[] = await eventually(() => get(`/v3/conversions?${todayRange()}`), (rows) => rows.length >= 1);
  assert.deepEqual(
    conversions.map((c) => [c.name, c.transaction_id, c.transaction_gross_revenue, c.transaction_currency, c.customer_id, c.is_new_customer, c.session_id, c.adv_source]),
    [['purchase', '5940139491001', '12200', 'USD', '7001', '1', events[0]!.session_id, 'google']],
  );
  // The purchase keeps its discount code and its lines, ids as the order webhooks store them.
  const stored = await t.stores.ch.query('test-pixel-lines', 'SELECT coupon_code, line_items FROM conversions WHERE store_id = {store:UInt64}', { store: shop.id });
  assert.deepEqual(stored, [{
    coupon_code: 'WELCOME10',
    line_items: [
      { product_id: '632910392', variant_id: '44870011001', sku: 'LS-M', title: 'Linen Shirt', quantity: 2, unit_price: 4900 },
      { product_id: '632910399', variant_id: '44870099001', sku: '', title: 'Gift card', quantity: 1, unit_price: 2050 },
    ],
  }]);
  await context.close();
});

test('a new session id is the minute of the event that began it above random bits; later sessions have larger ids, stored whole', async () => {
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(`${pageUrl}clock`);
  const view = async (clock: number) => {
    await tab.clock.setFixedTime(clock);
    const sent = tab.waitForRequest((request) => request.url().endsWith('/collect'));
    await tab.evaluate(() => (window as unknown as { emit: (name: string, href: string, referrer: string, data: unknown) => void }).emit('page_viewed', 'https://northwind.example/', '', {}));
    await sent;
    return tab.evaluate(() => JSON.parse(localStorage.getItem('_sl')!).s as string);
  };
  const start = Date.parse('2026-11-29T10:00:30Z');
  const first = await view(start);
  const later = await view(start + 45 * 60_000);
  assertTimeOrderedSessions(first, later, start, 45);
  await context.close();
  for (const id of [first, later]) {
    const rows = await eventually(() => get(`/v3/sessions?${todayRange()}&session_id=${id}`, clockShop.headers), (r) => r.length === 1);
    assert.deepEqual(rows.map((r: Record<string, string>) => [r.session_id, r.session_entry_page]), [[id, '/']]);
  }
});
