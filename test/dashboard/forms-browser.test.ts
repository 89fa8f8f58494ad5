/**
 * Storefront forms end to end in headless Chromium (Debian's /usr/bin/chromium via playwright-core).
 * Fixture: workspace "Shop" with the draft form "Newsletter" (E-mail required, Phone, Size a
 * select of S/M/L, Agree a checkbox), drafted with the CLI; ada owns Shop, vic views it. The app
 * listens on a free port; a test shop on another localhost port carries the pixel snippet on
 * every page and, on /signup, the form HTML the owner copied from the Forms view.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { eventually } from '../collect/helpers.ts';
import { cli, createUser, signedInPage } from './helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let formId: string;
let base: string;
let shopUrl: string;
let shopServer: http.Server;
let browser: Browser;
const errors: string[] = [];
/** The form HTML the shop's /signup page carries: pasted by the first test from the Forms view. */
let pastedForm = '';

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores, 'Shop');
  const fields = [
    { label: 'E-mail', type: 'email', required: true },
    { label: 'Phone', type: 'phone', required: false },
    { label: 'Size', type: 'select', required: false, options: ['S', 'M', 'L'] },
    { label: 'Agree', type: 'checkbox', required: false },
  ];
  const created = await cli(t, ['form', 'create', '--workspace', String(shop.id), '--name', 'Newsletter', '--fields', JSON.stringify(fields)]);
  formId = (created as { result: { form: { id: string } } }).result.form.id;
  await createUser(t, 'ada@example.com', shop.id);
  await createUser(t, 'vic@example.com', shop.id, ['--role', 'viewer']);
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  shopServer = http.createServer((request, response) => {
    const body = new URL(request.url ?? '/', 'http://shop').pathname === '/signup' ? `<h1>Join us</h1>\n${pastedForm}` : '<p>Welcome</p>';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><title>Test shop</title>
<script>window.storelens=window.storelens||function(){(storelens.q=storelens.q||[]).push(arguments)};</script>
<script async src="${base}/pixel.js" data-pixel-id="${shop.pixelId}"></script>
</head><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => shopServer?.close(resolve));
  await t.close();
  assert.deepEqual(errors, [], 'no console errors or CSP violations');
});

/** A visitor's tab on the shop's signup page, once the pixel has loaded. */
async function visitSignup(): Promise<Page> {
  const context = await browser.newContext();
  const tab = await context.newPage();
  tab.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
  tab.on('pageerror', (e) => errors.push(e.message));
  await tab.goto(`${shopUrl}/signup`);
  await tab.waitForFunction(() => (window as unknown as { __storelensLoaded?: boolean }).__storelensLoaded === true);
  return tab;
}

const status = (tab: Page) => tab.getByRole('status');

/** A table of the dashboard by its caption (the heading above it). */
const tableOf = (page: Page, caption: string) => page.locator('.table-block', { has: page.getByRole('heading', { name: caption, exact: true }) });

test('the owner publishes a form in the Forms view, the shop pastes its HTML, a visitor submits it and the lead shows up', async () => {
  const page = await signedInPage(browser, `${base}/forms?workspace=${shop.id}`, 'ada@example.com', errors);
  const forms = tableOf(page, 'Forms');
  await forms.waitFor();
  assert.deepEqual(await forms.locator('tbody tr').first().locator('td').allTextContents(), ['Newsletter', 'draft', 'E-mail, Phone, Size, Agree', '0', 'Publish']);
  await forms.getByRole('button', { name: 'Publish' }).click();
  await page.getByRole('status').filter({ hasText: '“Newsletter” is live: it takes submissions.' }).waitFor();
  await forms.getByRole('button', { name: 'Close' }).waitFor();

  // The form's details: its fields and the HTML to paste.
  await forms.getByRole('button', { name: 'Newsletter' }).click();
  await page.getByRole('heading', { name: 'Put it on the shop' }).waitFor();
  assert.equal(await tableOf(page, 'Fields').locator('tbody tr').count(), 4);
  pastedForm = await page.getByLabel('Form HTML').inputValue();
  assert.match(pastedForm, new RegExp(`^<form data-storelens-form="${formId}"`));

  // The visitor: a phone number the collector refuses is marked on its field, then corrected.
  const tab = await visitSignup();
  await tab.getByLabel('E-mail').fill('Ada@Example.com');
  await tab.getByLabel('Phone').fill('call me maybe');
  await tab.getByLabel('Size').selectOption('M');
  await tab.getByLabel('Agree').check();
  await tab.getByRole('button', { name: 'Send' }).click();
  await status(tab).filter({ hasText: 'Not sent. Phone: expected a phone number.' }).waitFor();
  const phone = tab.getByLabel('Phone');
  assert.equal(await phone.getAttribute('aria-invalid'), 'true');
  assert.equal(await tab.locator(`#${await phone.getAttribute('aria-describedby')}`).textContent(), 'Phone: expected a phone number');
  assert.equal(await phone.evaluate((el) => el === document.activeElement), true, 'the refused field has the focus');
  assert.equal(new URL(tab.url()).pathname, '/signup', 'the page stays');

  await phone.fill('+49 30 1234567');
  await phone.press('Enter');
  await status(tab).filter({ hasText: 'Thank you! Your details were sent.' }).waitFor();
  assert.equal(await phone.getAttribute('aria-invalid'), null, 'the mark is gone');
  assert.equal(await tab.locator('[data-storelens-error]').count(), 0);
  assert.equal(await tab.getByLabel('E-mail').inputValue(), '', 'the form is emptied');
  const visitorId = await tab.evaluate(() => JSON.parse(localStorage.getItem('_sl')!).v as string);

  // The lead came through the collector with the pixel's visitor id, and the owner sees it.
  const [row] = await eventually(
    () => t.stores.ch.query<{ visitor_id: string; email: string }>('test', `SELECT toString(visitor_id) AS visitor_id, email FROM form_submissions WHERE store_id = ${shop.id}`, {}),
    (rows) => rows.length === 1,
  );
  assert.deepEqual(row, { visitor_id: visitorId, email: 'ada@example.com' });
  await page.reload();
  const leads = tableOf(page, 'Newest submissions (leads)');
  await leads.waitFor();
  assert.deepEqual((await leads.locator('tbody tr').first().locator('td').allTextContents()).slice(1), ['ada@example.com', '+49 30 1234567', 'M', 'yes']);
  assert.deepEqual(await forms.locator('tbody tr').first().locator('td').allTextContents(), ['Newsletter', 'live', 'E-mail, Phone, Size, Agree', '1', 'Close']);
  await tab.context().close();
  await page.context().close();
});

test('once the owner closes the form, or the network fails, the visitor is told and the page keeps working', async () => {
  const page = await signedInPage(browser, `${base}/forms?workspace=${shop.id}`, 'ada@example.com', errors);
  const forms = tableOf(page, 'Forms');
  await forms.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('status').filter({ hasText: '“Newsletter” is closed: it takes no more submissions.' }).waitFor();
  await forms.getByRole('button', { name: 'Publish' }).waitFor();

  const tab = await visitSignup();
  await tab.getByLabel('E-mail').fill('late@example.com');
  await tab.getByRole('button', { name: 'Send' }).click();
  await status(tab).filter({ hasText: 'This form is not taking submissions at the moment.' }).waitFor();
  assert.equal(await tab.getByLabel('E-mail').inputValue(), 'late@example.com', 'what the visitor typed stays');

  await forms.getByRole('button', { name: 'Publish' }).click();
  await forms.getByRole('button', { name: 'Close' }).waitFor();
  await tab.route('**/collect/form', (route) => route.abort('internetdisconnected'));
  await tab.getByRole('button', { name: 'Send' }).click();
  await status(tab).filter({ hasText: 'Your details could not be sent. Please try again.' }).waitFor();
  assert.equal(new URL(tab.url()).pathname, '/signup', 'the page stays');
  await tab.unroute('**/collect/form');
  await tab.getByRole('button', { name: 'Send' }).click();
  await status(tab).filter({ hasText: 'Thank you! Your details were sent.' }).waitFor();
  await tab.context().close();
  await page.context().close();
});

test('a viewer reads the forms and their leads but gets no publish or close button', async () => {
  await eventually(() => t.stores.ch.query('test', `SELECT 1 FROM form_submissions WHERE store_id = ${shop.id}`, {}), (rows) => rows.length === 2);
  const page = await signedInPage(browser, `${base}/forms?workspace=${shop.id}&form=${formId}`, 'vic@example.com', errors);
  const leads = tableOf(page, 'Newest submissions (leads)');
  await leads.waitFor();
  assert.deepEqual(await leads.locator('tbody tr td:nth-child(2)').allTextContents(), ['late@example.com', 'ada@example.com'], 'newest first');
  const forms = tableOf(page, 'Forms');
  assert.deepEqual(await forms.locator('thead th').allTextContents(), ['Form', 'Status', 'Fields', 'Submissions']);
  assert.equal(await page.getByRole('button', { name: /^(Publish|Close)$/ }).count(), 0);
  await page.context().close();
});
