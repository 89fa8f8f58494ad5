/**
 * Fixture: workspace "Shop" with the storefront and catalog of fixtures.ts, except that the
 * verified origin is the service's own (http://localhost:PORT, mapped to 127.0.0.1): the demo
 * page talks only to the origin that serves it, so its polls are same-origin GETs without an
 * Origin header. The app listens on a free port with its worker loop running; headless Debian
 * Chromium drives the demo storefront page, once as a shop without the Storelens pixel
 * (tracking.js posts to /collect itself), once with it, and once with a foreign `api` parameter
 * (evil.example, also mapped to 127.0.0.1, so a request there would succeed if the page made
 * one). A second workspace's pixel id serves tracking.js on browser clocks set by the test. A
 * screenshot of the result is kept under test-artifacts/.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { loadConfig } from '../../src/config.ts';
import { upsertStorefront } from '../../src/store/app/tryon-storefronts.ts';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { assertTimeOrderedSessions, eventually } from '../collect/helpers.ts';
import { personJpeg, setUpShop } from './fixtures.ts';

let t: TestApp;
let shop: TestWorkspace;
let browser: Browser;
let port: number;

const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

before(async () => {
  const defaults = loadConfig({});
  t = await startTestApp({ tryon: { ...defaults.tryon, workerIntervalMs: 50, sweepIntervalMs: 0 }, collect: { ...defaults.collect, flushMs: 50 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  shop = await createTestWorkspace(t.stores, 'Shop');
  await setUpShop(t, shop.id);
  await upsertStorefront(t.stores.db, shop.id, { origins: [`http://localhost:${port}`] });
  browser = await launchChromium(['--host-resolver-rules=MAP localhost 127.0.0.1, MAP evil.example 127.0.0.1']);
});

after(async () => {
  await browser?.close();
  await t.close();
});

test('a shopper tries on a product in the demo storefront, leaves an e-mail and deletes the photo', async () => {
  const context = await browser.newContext({ userAgent: USER_AGENT, viewport: { width: 1100, height: 800 } });
  const page = await context.newPage();
  const tokens = new Set<string>();
  const collected: string[] = [];
  page.on('request', (request) => {
    const token = request.headers()['x-try-on-session'];
    if (token) tokens.add(token);
    if (request.url().endsWith('/collect')) collected.push(request.postData() ?? '');
  });

  const policyErrors = watchPolicyErrors(page);
  const query = new URLSearchParams({
    workspace: String(shop.id), product: 'tee', variant: 'red-m', title: 'Blue tee',
    consent_version: 'c2', marketing_version: 'm1', pixel: shop.pixelId,
  });
  await page.goto(`http://localhost:${port}/demo/storefront?${query}`);
  await page.setInputFiles('#photo', { name: 'me.jpg', mimeType: 'image/jpeg', buffer: await personJpeg() });
  await page.check('#consent');
  await page.check('#adult');
  await page.click('#try');
  await page.waitForSelector('#result-box:not([hidden])', { timeout: 30_000 });
  assert.equal(await page.textContent('#status'), 'Here you are.');
  const size = await page.$eval('#result', (img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight]);
  assert.deepEqual(size, [400, 600]);

  const artifact = path.resolve('test-artifacts', 'tryon-demo-storefront.png');
  fs.mkdirSync(path.dirname(artifact), { recursive: true });
  await page.screenshot({ path: artifact, fullPage: true });
  console.log(`screenshot: ${artifact}`);

  await page.fill('#email', 'shopper@example.com');
  await page.check('#marketing');
  await page.click('#lead');
  await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Thanks, we will be in touch.');
  const lead = await t.stores.db.selectFrom('tryon_leads').select(['email', 'status']).where('workspace_id', '=', shop.id).execute();
  assert.deepEqual(lead, [{ email: 'shopper@example.com', status: 'unconfirmed' }]);

  await page.click('#delete');
  await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your photo and try-on were deleted.');
  const jobs = await t.stores.db.selectFrom('tryon_jobs').select(['status']).where('workspace_id', '=', shop.id).execute();
  assert.deepEqual(jobs, [{ status: 'cancelled' }]);
  assert.deepEqual(fs.readdirSync(path.join(t.config.dataDir, 'tryon', 'objects')), []);

  // The session token stayed in memory: not in storage, cookies, URLs or analytics.
  assert.equal(tokens.size, 1);
  const [token] = [...tokens];
  const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie, location.href]));
  assert.equal(stored.includes(token), false);
  assert.ok(collected.length >= 4);
  assert.equal(collected.some((body) => body.includes(token)), false);

  // The funnel arrives in /v3/events through the collector.
  const funnel = ['tryon_opened', 'tryon_uploaded', 'tryon_generated', 'tryon_lead'];
  let names: string[] = [];
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const response = await t.app.inject({ method: 'GET', url: '/v3/events?name=tryon_*', headers: shop.headers });
    names = response.json().data.map((e: { name: string }) => e.name);
    if (funnel.every((n) => names.includes(n))) break;
  }
  assert.deepEqual([...names].sort(), [...funnel].sort());
  // The page works within its own Content-Security-Policy.
  assert.deepEqual(policyErrors, []);
  await context.close();
});

test('on a page with the Storelens pixel, try-on events go through the pixel and share its session', async () => {
  const context = await browser.newContext({ userAgent: USER_AGENT });
  const page = await context.newPage();
  const policyErrors = watchPolicyErrors(page);
  const query = new URLSearchParams({ workspace: String(shop.id), product: 'tee', variant: 'red-m', pixel: shop.pixelId, via_pixel: '1' });
  await page.goto(`http://localhost:${port}/demo/storefront?${query}`);
  type Row = { name: string; session_id: string; pathname: string };
  let rows: Row[] = [];
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const response = await t.app.inject({ method: 'GET', url: '/v3/events?name=pageview', headers: shop.headers });
    rows = response.json().data;
    if (rows.length > 0) break;
  }
  assert.equal(rows.length, 1);
  const session = rows[0].session_id;
  let opened: Row[] = [];
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const response = await t.app.inject({ method: 'GET', url: '/v3/events?name=tryon_opened', headers: shop.headers });
    opened = response.json().data.filter((e: Row) => e.session_id === session);
    if (opened.length > 0) break;
  }
  assert.deepEqual(opened.map((e) => [e.name, e.pathname]), [['tryon_opened', '/demo/storefront']]);
  assert.deepEqual(policyErrors, []);
  await context.close();
});

test('the demo storefront loads nothing from the origin named in an api parameter', async () => {
  const context = await browser.newContext({ userAgent: USER_AGENT });
  const page = await context.newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const query = new URLSearchParams({ api: `http://evil.example:${port}`, workspace: String(shop.id), product: 'tee', variant: 'red-m', pixel: shop.pixelId, via_pixel: '1' });
  // The page's own scripts have run once tracking.js has reported tryon_opened through the pixel.
  const opened = page.waitForRequest((request) => request.url().endsWith('/collect') && (request.postData() ?? '').includes('tryon_opened'));
  const response = await page.goto(`http://localhost:${port}/demo/storefront?${query}`);
  assert.match(response!.headers()['content-security-policy']!, /script-src 'self';/);
  await opened;
  const origins = new Set(requested.map((url) => new URL(url).origin));
  assert.deepEqual([...origins], [`http://localhost:${port}`]);
  assert.ok(requested.some((url) => url.endsWith('/try-on/v1/tracking.js')));
  assert.ok(requested.some((url) => url.endsWith('/pixel.js')));
  await context.close();
});

test('without the pixel, tracking.js begins each session with an id of its minute, later sessions larger, stored whole', async () => {
  const clockShop = await createTestWorkspace(t.stores, 'Clock shop');
  const context = await browser.newContext({ userAgent: USER_AGENT });
  const page = await context.newPage();
  const open = async (clock: number) => {
    await page.clock.setFixedTime(clock);
    const sent = page.waitForRequest((request) => request.url().endsWith('/collect'));
    await page.goto(`http://localhost:${port}/demo/storefront?${new URLSearchParams({ product: 'tee', pixel: clockShop.pixelId })}`);
    await sent;
    return page.evaluate(() => JSON.parse(localStorage.getItem('_sl_tryon')!).s as string);
  };
  const start = Date.parse('2026-11-29T10:00:30Z');
  const first = await open(start);
  const later = await open(start + 45 * 60_000);
  assertTimeOrderedSessions(first, later, start, 45);
  await context.close();
  for (const id of [first, later]) {
    const read = async () => (await t.app.inject({ method: 'GET', url: `/v3/events?name=tryon_opened&session_id=${id}`, headers: clockShop.headers })).json().data;
    const rows = await eventually(read, (r) => r.length === 1);
    assert.deepEqual(rows.map((e: { name: string; session_id: string }) => [e.name, e.session_id]), [['tryon_opened', id]]);
  }
});

/** Console reports of Content-Security-Policy violations on this page. */
function watchPolicyErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  return errors;
}
