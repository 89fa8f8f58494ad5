/**
 * End to end in headless Chromium (Debian's /usr/bin/chromium via playwright-core). Fixture: the
 * app listens on a free port; a small test shop on another localhost port pastes the pixel
 * snippet. One visitor lands from an Instagram ad (fbclid + utm_source=instagram), views a
 * product, adds it to the cart (a single-page-app navigation to /cart), and buys on /thanks,
 * where the purchase call is queued before the pixel has loaded. The events, the session and the
 * conversion must then come back through /v3/events, /v3/sessions and /v3/conversions. A second
 * workspace's shop checks when the pixel starts a new session: a new campaign click, 30 idle minutes.
 * A third workspace has a live post-purchase survey (a single choice, a rating and a text
 * question); its shop's confirmation pages carry a stylesheet that restyles everything and a
 * "Continue shopping" button that has the focus when the page loads.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { assertTimeOrderedSessions, eventually, sessionMinute, todayRange } from './helpers.ts';
import { toolOk } from '../mcp/rpc.ts';
import { runCommand } from '../../src/cli/run-command.ts';
import { createLogger } from '../../src/log.ts';

let t: TestApp;
let shop: TestWorkspace;
const shopServers: http.Server[] = [];
let browser: Browser;
let shopUrl: string;
let renewalShop: TestWorkspace;
let renewalUrl: string;
let clockShop: TestWorkspace;
let clockUrl: string;
let surveyShop: TestWorkspace;
let surveyUrl: string;
let surveyId: string;
let collectorUrl: string;

/** A shop stylesheet that would restyle the widget if its styles reached into it. */
const HOSTILE_STYLE = '<style>* { color: rgb(255, 0, 0) !important; font-size: 40px !important; } button { background: rgb(0, 128, 0); }</style>';

const PAGES: Record<string, string> = {
  '/': '<a id="product" href="/product">Shoe</a>',
  '/product': `<button id="add" onclick="storelens('event','add_to_cart',{sku:'shoe'});history.pushState({},'','/cart');document.title='Cart'">Add to cart</button>
<script>storelens('event','view_content')</script>`,
  '/thanks': `<p>Thank you</p>
<script>storelens('identify','c-42');storelens('conversion','purchase',{transaction_id:'T-900',revenue:12900,currency:'EUR',is_new_customer:1,items:[{product_id:8011,variant_id:'44870011001',sku:'LS-M',title:'Linen Shirt',quantity:2,unit_price:4950.4},{title:'Tote'},'junk',{price:5}]})</script>`,
  ...Object.fromEntries(['S-1', 'S-2'].map((tx) => [`/order-${tx}`, `${HOSTILE_STYLE}<h2 id="shop-title">Order ${tx} confirmed</h2>
<button id="continue" autofocus>Continue shopping</button>
<script>storelens('conversion','purchase',{transaction_id:'${tx}',revenue:5000,currency:'EUR'})</script>`])),
};

/** A test shop on its own localhost port whose pages carry the pixel snippet of `pixelId`. */
async function startShop(collector: string, pixelId: string): Promise<string> {
  const server = http.createServer((request, response) => {
    const html = PAGES[new URL(request.url ?? '/', 'http://shop').pathname];
    response.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html ? page(collector, pixelId, html) : 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  shopServers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function page(collector: string, pixelId: string, body: string): string {
  return `<!doctype html><html><head><title>Test shop</title>
<script>window.storelens=window.storelens||function(){(storelens.q=storelens.q||[]).push(arguments)};</script>
<script async src="${collector}/pixel.js" data-pixel-id="${pixelId}"></script>
</head><body>${body}</body></html>`;
}

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores);
  const collector = await t.app.listen({ port: 0, host: '127.0.0.1' });

  shopUrl = await startShop(collector, shop.pixelId);
  renewalShop = await createTestWorkspace(t.stores, 'Renewal shop');
  renewalUrl = await startShop(collector, renewalShop.pixelId);
  clockShop = await createTestWorkspace(t.stores, 'Clock shop');
  clockUrl = await startShop(collector, clockShop.pixelId);
  collectorUrl = collector;
  surveyShop = await createTestWorkspace(t.stores, 'Survey shop');
  surveyUrl = await startShop(collector, surveyShop.pixelId);
  surveyId = (await toolOk(t.app, surveyShop.headers, 'surveys.create', {
    title: 'One quick question',
    questions: [
      { text: 'How did you hear about us?', type: 'single_choice', options: ['Instagram', 'Podcast', 'Friend or family'] },
      { text: 'How was checkout?', type: 'rating' },
      { text: 'Anything else?', type: 'text' },
    ],
  })).survey.id;
  const published = await runCommand(
    { config: t.config, stores: t.stores, logger: createLogger('silent'), progress: () => {} },
    ['survey', 'publish', '--workspace', String(surveyShop.id), '--survey', surveyId],
  );
  assert.ok('result' in published, JSON.stringify(published));

  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  for (const server of shopServers) await new Promise((resolve) => server.close(resolve));
  await t.close();
});

async function get(path: string, headers = shop.headers) {
  const response = await t.app.inject({ method: 'GET', url: path, headers });
  assert.equal(response.statusCode, 200, response.body);
  return response.json().data;
}

test('a visit from an Instagram ad shows up as events, one session and a purchase credited to instagram', async () => {
  const context = await browser.newContext({ timezoneId: 'Europe/Berlin' });
  const tab = await context.newPage();
  await tab.goto(`${shopUrl}/?utm_source=instagram&utm_medium=paid&utm_campaign=spring&fbclid=IwAR-e2e&campaign_id=777`);
  await tab.waitForFunction(() => (window as unknown as { __storelensLoaded?: boolean }).__storelensLoaded === true);
  await tab.click('#product');
  await tab.waitForURL(`${shopUrl}/product`);
  await tab.waitForFunction(() => (window as unknown as { __storelensLoaded?: boolean }).__storelensLoaded === true);
  await tab.click('#add');
  await tab.waitForURL(`${shopUrl}/cart`);
  await tab.goto(`${shopUrl}/thanks`);
  await tab.waitForFunction(() => (window as unknown as { __storelensLoaded?: boolean }).__storelensLoaded === true);
  await context.close(); // pagehide sends whatever is still queued

  const events = await eventually(() => get(`/v3/events?${todayRange()}`), (rows) => rows.length >= 6);
  type Event = Record<string, string | string[]>;
  assert.deepEqual(
    events.map((e: Event) => `${e.name} ${e.pathname}`).sort(),
    ['add_to_cart /product', 'pageview /', 'pageview /cart', 'pageview /product', 'pageview /thanks', 'view_content /product'],
  );
  const [first] = events as Event[];
  assert.equal(new Set(events.map((e: Event) => e.session_id)).size, 1, 'one session');
  assert.equal(new Set(events.map((e: Event) => e.visitor_id)).size, 1, 'one visitor');
  for (const e of events as Event[]) {
    assert.deepEqual(
      [e.adv_source, e.adv_campaign_id, e.utm_source, e.utm_medium, e.utm_campaign, e.entry_meta_keys, e.entry_meta_values, e.visitor_timezone, e.device_type, e.hostname, e.referrer],
      ['instagram', '777', 'instagram', 'paid', 'spring', ['fbclid'], ['IwAR-e2e'], 'Europe/Berlin', 'desktop', '127.0.0.1', ''],
    );
  }

  // ClickHouse commits an insert's `events` part before the part its view writes to `sessions`,
  // so a read between the two sees the events already and the session not yet.
  const sessions = await eventually(() => get(`/v3/sessions?${todayRange()}`), (rows) => rows.length === 1 && rows[0].events === '6');
  assert.equal(sessions.length, 1);
  const s = sessions[0];
  assert.deepEqual(
    [s.session_id, s.visitor_id, s.session_entry_page, s.session_exit_page, s.events, s.pageviews, s.add_to_carts, s.view_contents, s.is_bounce, s.adv_source, s.utm_campaign],
    [first!.session_id, first!.visitor_id, '/', '/thanks', '6', '4', '1', '1', '0', 'instagram', 'spring'],
  );

  const conversions = await eventually(() => get(`/v3/conversions?${todayRange()}`), (rows) => rows.length >= 1);
  assert.deepEqual(
    conversions.map((c: Event) => [c.name, c.transaction_id, c.transaction_gross_revenue, c.transaction_currency, c.customer_id, c.is_new_customer, c.session_id, c.adv_source, c.adv_campaign_id, c.utm_campaign]),
    [['purchase', 'T-900', '12900', 'EUR', 'c-42', '1', first!.session_id, 'instagram', '777', 'spring']],
  );
  // The purchase's items, as the pixel cleaned them: ids as text, whole numbers, a missing quantity 1, entries naming no product dropped.
  const lines = await t.stores.ch.query('test-pixel-items', "SELECT line_items FROM conversions WHERE transaction_id = 'T-900'");
  assert.deepEqual(lines, [{ line_items: [
    { product_id: '8011', variant_id: '44870011001', sku: 'LS-M', title: 'Linen Shirt', quantity: 2, unit_price: 4950 },
    { product_id: '', variant_id: '', sku: '', title: 'Tote', quantity: 1, unit_price: 0 },
  ] }]);
});

test('the pixel starts a new session on a different campaign click and after 30 idle minutes, never a new visitor', async () => {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const loaded = () => tab.waitForFunction(() => (window as unknown as { __storelensLoaded?: boolean }).__storelensLoaded === true);
  await tab.goto(`${renewalUrl}/`);
  await loaded();
  await tab.goto(`${renewalUrl}/?utm_source=newsletter&utm_medium=email&utm_campaign=nov`);
  await loaded();
  await tab.goto(`${renewalUrl}/?utm_source=newsletter&utm_medium=email&utm_campaign=nov`); // a reload: same click
  await loaded();
  await tab.evaluate(() => {
    const state = JSON.parse(localStorage.getItem('_sl')!);
    state.t = Date.now() - 31 * 60 * 1000;
    localStorage.setItem('_sl', JSON.stringify(state));
  });
  await tab.goto(`${renewalUrl}/product`);
  await loaded();
  await context.close();

  type Event = Record<string, string>;
  const events: Event[] = await eventually(() => get(`/v3/events?${todayRange()}`, renewalShop.headers), (rows) => rows.length >= 5);
  assert.equal(new Set(events.map((e) => e.visitor_id)).size, 1, 'one visitor');
  const sessions = [...new Set(events.map((e) => e.session_id))];
  assert.deepEqual(
    sessions.map((id) => events.filter((e) => e.session_id === id).map((e) => `${e.name} ${e.pathname} '${e.adv_source}' '${e.utm_campaign}'`)),
    [
      ["pageview / '' ''"],
      ["pageview / 'email' 'nov'", "pageview / 'email' 'nov'"],
      ["pageview /product '' ''", "view_content /product '' ''"],
    ],
  );
});

test('a session id is the minute the session began above random bits, so later sessions have larger ids, stored whole', async () => {
  const minute = 60_000;
  const start = Date.parse('2026-11-29T10:00:30Z');
  const context = await browser.newContext();
  const tab = await context.newPage();
  const visit = async (path: string, clock: number) => {
    await tab.clock.setFixedTime(clock);
    await tab.goto(`${clockUrl}${path}`);
    await tab.waitForFunction(() => (window as unknown as { __storelensLoaded?: boolean }).__storelensLoaded === true);
    return tab.evaluate(() => JSON.parse(localStorage.getItem('_sl')!).s as string);
  };
  const first = await visit('/', start);
  const later = await visit('/product', start + 45 * minute);
  assertTimeOrderedSessions(first, later, start, 45);
  // A session stored before ids grew with time goes on until it is idle for 30 minutes.
  const stored = '4503599627370001';
  await tab.evaluate((id) => localStorage.setItem('_sl', JSON.stringify({ ...JSON.parse(localStorage.getItem('_sl')!), s: id })), stored);
  assert.equal(await visit('/', start + 50 * minute), stored);
  await context.close();
  // A clock past 2097, where the minutes outgrow their 26 bits, still gives an id the collector takes.
  const future = await browser.newContext();
  const page = await future.newPage();
  await page.clock.setFixedTime(Date.parse('2101-01-01T00:00:00Z'));
  await page.goto(`${clockUrl}/`);
  await page.waitForFunction(() => (window as unknown as { __storelensLoaded?: boolean }).__storelensLoaded === true);
  const held = await page.evaluate(() => JSON.parse(localStorage.getItem('_sl')!).s as string);
  assert.equal(sessionMinute(held), 2 ** 26 - 1);
  await future.close();

  // Each arrives as one session under its id, also found by it: ids above 2^53 lose no digit.
  for (const [id, events] of [[first, '1'], [later, '2'], [stored, '1'], [held, '1']]) {
    const rows = await eventually(() => get(`/v3/sessions?${todayRange()}&session_id=${id}`, clockShop.headers), (r) => r.length === 1 && r[0].events === events);
    assert.deepEqual(rows.map((r: Record<string, string>) => [r.session_id, r.events]), [[id, events]]);
  }
});

/** Styles and focus as the page sees them: the shop's own elements, and the widget's inside its shadow root. */
const looks = (tab: import('playwright-core').Page) =>
  tab.evaluate(() => {
    const host = document.querySelector('[data-storelens-survey]');
    const inner = host?.shadowRoot;
    const send = inner?.querySelector('button[type=submit]');
    const title = getComputedStyle(document.getElementById('shop-title')!);
    const button = getComputedStyle(document.getElementById('continue')!);
    const sendStyle = send ? getComputedStyle(send) : null;
    return {
      widget: Boolean(host),
      focused: inner?.activeElement?.textContent ?? document.activeElement?.id ?? null,
      shopTitle: [title.fontSize, title.fontWeight],
      shopButton: [button.backgroundColor, button.borderRadius],
      send: sendStyle ? [sendStyle.color, sendStyle.fontSize, sendStyle.backgroundColor] : null,
    };
  });

test('after a purchase the live survey appears, is answered by keyboard alone, and the answers arrive', async () => {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const hosts = new Set<string>();
  tab.on('request', (request) => hosts.add(new URL(request.url()).origin));
  await tab.goto(`${surveyUrl}/order-S-1`);
  await tab.waitForSelector('[data-storelens-survey]', { state: 'attached' });
  await tab.waitForFunction(() => document.querySelector('[data-storelens-survey]')?.shadowRoot?.activeElement !== null);

  // Focus moves to the survey's title; the shop's styles do not reach in, the widget's do not reach out.
  assert.deepEqual(await looks(tab), {
    widget: true,
    focused: 'One quick question',
    shopTitle: ['40px', '700'],
    shopButton: ['rgb(0, 128, 0)', '0px'],
    send: ['rgb(255, 255, 255)', '15px', 'rgb(17, 24, 39)'],
  });
  assert.equal(await tab.getByRole('dialog', { name: 'One quick question' }).count(), 1);
  assert.equal(await tab.getByRole('group', { name: 'How did you hear about us?' }).getByRole('radio').count(), 3);
  assert.equal(await tab.getByRole('textbox', { name: 'Anything else?' }).count(), 1);

  // Keyboard only: the first choice group, the rating scale, the text, then Send.
  await tab.keyboard.press('Tab');
  await tab.keyboard.press('ArrowDown');
  await tab.keyboard.press('Tab');
  for (let i = 0; i < 3; i++) await tab.keyboard.press('ArrowRight');
  await tab.keyboard.press('Tab');
  await tab.keyboard.type('Quick delivery');
  await tab.keyboard.press('Tab');
  await tab.keyboard.press('Enter');
  await tab.getByRole('status').filter({ hasText: 'Thank you for your answers!' }).waitFor();
  assert.equal((await looks(tab)).focused, 'Thank you for your answers!');

  const { responses } = await eventually(
    () => toolOk(t.app, surveyShop.headers, 'surveys.get-responses', { survey_id: surveyId }),
    (r) => r.responses.length === 1,
  );
  assert.deepEqual(responses.map((r: { transaction_id: string; answers: unknown }) => [r.transaction_id, r.answers]), [
    ['S-1', [{ question: 0, value: 'Podcast' }, { question: 1, value: 4 }, { question: 2, value: 'Quick delivery' }]],
  ]);
  // Nothing but the shop and the collector: no third-party code.
  assert.deepEqual([...hosts].sort(), [collectorUrl, surveyUrl].sort());

  // A reload of the same confirmation page does not ask again (not even the collector).
  const asked: string[] = [];
  tab.on('request', (request) => request.url().includes('/collect/survey') && asked.push(request.url()));
  await tab.reload();
  await tab.waitForFunction(() => (window as unknown as { __storelensLoaded?: boolean }).__storelensLoaded === true);
  assert.deepEqual([(await looks(tab)).widget, asked], [false, []]);
  await context.close();
});

test('the survey is dismissed with Escape or its close button, and the focus goes back where it was', async () => {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const shown = async () => {
    await tab.waitForSelector('[data-storelens-survey]', { state: 'attached' });
    await tab.waitForFunction(() => document.querySelector('[data-storelens-survey]')?.shadowRoot?.activeElement !== null);
  };
  await tab.goto(`${surveyUrl}/order-S-2`);
  await shown();
  await tab.keyboard.press('Escape');
  assert.deepEqual(await looks(tab), { ...(await looks(tab)), widget: false, focused: 'continue' });

  // Shown again only once the pixel's memory of the order is gone; then closed with its labelled button.
  await tab.evaluate(() => localStorage.clear());
  await tab.reload();
  await shown();
  await tab.keyboard.press('Shift+Tab');
  assert.equal(await tab.evaluate(() => document.querySelector('[data-storelens-survey]')!.shadowRoot!.activeElement!.getAttribute('aria-label')), 'Close survey');
  await tab.keyboard.press('Enter');
  assert.deepEqual(await looks(tab), { ...(await looks(tab)), widget: false, focused: 'continue' });
  await context.close();
});
