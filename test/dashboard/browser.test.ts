/**
 * The dashboard end to end in headless Chromium (Debian's /usr/bin/chromium via playwright-core).
 * Fixture: workspace "Shop" with 3 days of the demo shop, workspace "Empty" without data; ada owns
 * both, vic views Shop; tests that need rows of their own add a workspace: "Visited" (ada) with
 * purchases that came in through the collector, "Named" (ada) with two conversions and the ad row
 * that names their campaign. The app listens on a free port.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemo } from '../../src/cli/demo/seed.ts';
import { cli, createUser, signedInPage } from './helpers.ts';
import { eventually } from '../collect/helpers.ts';
import { toolOk } from '../mcp/rpc.ts';
import { SCENARIOS, generate } from '../../bench/attribution/synthetic-journeys.ts';
import { RANGE, journeyRows } from '../../bench/suites/attribution-truth.ts';
import { createObject } from '../../src/store/app/tool-objects.ts';
import { VIEWS } from '../../src/dashboard/views.ts';
import { defaultDays } from '../../src/dashboard/store-calendar.ts';

let t: TestApp;
let shop: TestWorkspace;
let empty: TestWorkspace;
let base: string;
let browser: Browser;
const errors: string[] = [];

const today = new Date().toISOString().slice(0, 10);
const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  empty = await createTestWorkspace(t.stores, 'Empty');
  await seedDemo(t.stores.ch, { workspaceId: shop.id, days: 3, sessionsPerDay: 300 });
  await createUser(t, 'ada@example.com', shop.id);
  await createUser(t, 'ada@example.com', empty.id);
  await createUser(t, 'vic@example.com', shop.id, ['--role', 'viewer']);
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await t.close();
  assert.deepEqual(errors, [], 'no console errors or CSP violations');
});

const signedIn = (email: string, path = '/'): Promise<Page> => signedInPage(browser, `${base}${path}`, email, errors);

const params = (page: Page) => new URL(page.url()).searchParams;

/** Waits until the view has fetched what its URL asks for (it keeps the last answer while loading). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('main .loading') === null && document.querySelector('main h1') !== null);
}

test('an owner signs in, switches workspace, changes range and model, drills down and downloads the CSV', async () => {
  const page = await signedIn('ada@example.com', `/report?workspace=${shop.id}`);
  await page.waitForSelector('tbody tr');
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Attribution');

  await page.getByLabel('Workspace').selectOption(String(empty.id));
  await page.waitForFunction(() => document.querySelector('td.empty') !== null);
  assert.equal(params(page).get('workspace'), String(empty.id));
  await page.getByLabel('Workspace').selectOption(String(shop.id));
  await settled(page);

  await page.getByLabel('From').fill(twoDaysAgo);
  await page.getByLabel('From').dispatchEvent('change');
  await page.getByLabel('Attribution model').selectOption('linear');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('attribution_model') === 'linear');
  assert.deepEqual([params(page).get('start_date'), params(page).get('attribution_model')], [twoDaysAgo, 'linear']);
  await settled(page);

  // The table shows what /v3/report answers for the URL's parameters.
  const query = new URLSearchParams(params(page));
  query.delete('workspace');
  query.set('breakdown', 'source');
  query.set('metrics', 'spend,revenue,roas,conversions,cpa,sessions,cr,new_customers,net_profit,net_roas');
  const viaApi = (await t.app.inject({ method: 'GET', url: `/v3/report?${query}`, headers: shop.headers })).json();
  const shownSources = await page.$$eval('tbody tr td:first-child', (cells) => cells.map((c) => c.textContent));
  assert.deepEqual(shownSources, viaApi.data.map((r: { source: string }) => r.source));

  await page.locator('tbody').getByRole('button', { name: 'meta', exact: true }).click();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('breakdown') === 'campaign');
  assert.equal(params(page).get('source'), 'meta');
  await settled(page);
  await page.waitForSelector('th:has-text("Campaign")');
  const campaign = await page.locator('tbody tr td button.link').first().textContent();
  await page.locator('tbody tr td button.link').first().click();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('breakdown') === 'adgroup');
  assert.ok(params(page).get('campaign'));
  await settled(page);
  await page.waitForSelector('th:has-text("Ad group")');
  // The breadcrumb names the campaign as its row did ("Name · id"), not by its id alone.
  assert.match(campaign!, / · /);
  await page.waitForFunction((text) => document.querySelector('.crumbs [aria-current=location]')?.textContent === text, `Campaign ${campaign}`);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  const lines = csv.trim().split('\r\n');
  const rows = await page.locator('tbody tr').count();
  assert.equal(lines.length, rows + 2, 'header, every shown row, totals');
  assert.match(lines[0]!, /^Source,Ad group,Spend,Revenue,ROAS,Conversions/);

  await page.goBack();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('breakdown') === 'campaign');
  await page.context().close();
});

test('the attribution view offers exactly the models, windows, dates, breakdowns and metrics the server accepts, in its order, and the customers view its breakdowns', async () => {
  const page = await signedIn('ada@example.com', `/report?workspace=${shop.id}`);
  await settled(page);
  const options = (name: string) => page.$$eval(`main select[name=${name}] option`, (os) => os.map((o) => (o as HTMLOptionElement).value));
  const { schema } = await toolOk(t.app, shop.headers, 'metadata.list_schema', { date_from: twoDaysAgo, date_to: today });
  assert.deepEqual(await options('attribution_model'), schema.attribution.models);
  assert.deepEqual(await options('attribution_window'), schema.attribution.windows.map(String));
  assert.deepEqual(await options('attribution_date'), schema.attribution.dates);
  assert.deepEqual(await options('breakdown'), schema.breakdowns);
  const metrics = await page.$$eval('main input[name=metric]', (is) => is.map((i) => (i as HTMLInputElement).value));
  assert.deepEqual(metrics, schema.metrics.map((m: { name: string }) => m.name));
  // The labels come from the same place: every model is named, none by its raw id.
  const labels = await page.$$eval('main select[name=attribution_model] option', (os) => os.map((o) => o.textContent));
  assert.deepEqual(labels, ['Last click', 'First click', 'Linear', 'U-shaped', 'Total impact', 'Any click', 'Markov', 'Data-driven']);
  assert.deepEqual(await page.$$eval('main select[name=attribution_date] option', (os) => os.map((o) => o.textContent)), ['Conversion date', 'Click date']);
  // The server refuses any other model and lists the same names in the same order.
  const refused = await t.app.inject({ method: 'GET', url: `/v3/report?start_date=${today}&end_date=${today}&attribution_model=best`, headers: shop.headers });
  assert.equal(refused.statusCode, 400);
  assert.equal(refused.json().message, `Invalid attribution_model: best. Accepted values: ${(await options('attribution_model')).join(', ')}`);

  // The customers view's breakdowns likewise, against what /v3/customers accepts.
  await page.goto(`${base}/customers?workspace=${shop.id}`);
  await settled(page);
  const cohorts = await t.app.inject({ method: 'GET', url: `/v3/customers?start_date=${today}&end_date=${today}&breakdown=best`, headers: shop.headers });
  assert.equal(cohorts.json().message, `Invalid breakdown: best. Accepted values: ${(await options('breakdown')).join(', ')}`);
  await page.context().close();
});

test('a channel without spend shows "–" for CPA as for ROAS, where the API answers 0', async () => {
  const page = await signedIn('ada@example.com', `/report?workspace=${shop.id}`);
  await page.waitForSelector('tbody tr');
  await settled(page);
  // The view's own days ("Last 7 days" of the workspace's zone), which the URL leaves out.
  const days = new URLSearchParams(defaultDays('UTC', Date.now()));
  const viaApi = (await t.app.inject({ method: 'GET', url: `/v3/report?${days}&breakdown=source&metrics=spend,cpa`, headers: shop.headers })).json();
  const unpaid = viaApi.data.filter((r: { spend: number }) => r.spend === 0).map((r: { source: string }) => r.source).sort();
  assert.ok(unpaid.length > 0 && viaApi.data.some((r: { spend: number; cpa: number }) => r.spend === 0 && r.cpa === 0), JSON.stringify(viaApi.data));
  const headers = await page.locator('thead th').allTextContents();
  const [spendAt, roasAt, cpaAt] = ['Spend', 'ROAS', 'CPA'].map((name) => headers.findIndex((h) => h.startsWith(name)));
  const shown = await page.locator('tbody tr').evaluateAll((rows, at) => rows.map((r) => at.map((i) => r.children[i]!.textContent)), [0, spendAt!, roasAt!, cpaAt!]);
  const withoutSpend = shown.filter(([source]) => unpaid.includes(source));
  assert.deepEqual(withoutSpend.map(([source, spend, roas, cpa]) => [source, spend, roas, cpa]).sort(), unpaid.map((s: string) => [s, '$0.00', '–', '–']));
  assert.ok(shown.some(([source, , , cpa]) => !unpaid.includes(source) && cpa !== '–'), 'channels with spend keep their CPA');
  await page.context().close();
});

test('under data_driven the attribution table shows what each channel caused beside ROAS, with one line saying what it is', async () => {
  const page = await signedIn('ada@example.com', `/report?workspace=${shop.id}&start_date=${twoDaysAgo}`);
  await settled(page);
  assert.equal(await page.getByTestId('incremental-note').count(), 0);
  await page.getByLabel('Attribution model').selectOption('data_driven');
  await page.getByTestId('incremental-note').waitFor();
  await page.waitForSelector('th:has-text("iROAS")');
  const headers = await page.locator('main table').first().locator('thead th').allTextContents();
  assert.deepEqual(headers.slice(headers.indexOf('ROAS'), headers.indexOf('ROAS') + 3), ['ROAS', 'Incremental conv.', 'iROAS']);
  assert.match(await page.getByTestId('incremental-note').textContent() ?? '', /beyond what would have happened anyway/);
  await page.context().close();
});

test('an owner enters a lift test in the settings and sees it listed', async () => {
  const page = await signedIn('ada@example.com', `/settings?workspace=${shop.id}`);
  const form = page.locator('form[aria-labelledby=lift-new-title]');
  await form.getByLabel('Channel').fill('google');
  await form.getByLabel('First day').fill('2026-03-01');
  await form.getByLabel('Last day').fill('2026-03-28');
  await form.getByLabel('Incremental share (%)').fill('12.5');
  await form.getByRole('button', { name: 'Add lift test' }).click();
  await form.getByRole('status').waitFor();
  // The list reloads after the status: wait for the entered test's row, not the "none yet" row before it.
  const row = page.locator('.table-block', { hasText: 'Lift tests of this workspace' }).locator('tbody tr', { hasText: 'google' });
  await row.waitFor();
  assert.deepEqual(await row.locator('td').allTextContents(), ['google', '2026-03-01 to 2026-03-28', '12.5 %', '']);
  await page.context().close();
});

test('an owner creates a key from exactly the scopes the server accepts and revokes it; the revoked key then gets 401 from the API', async () => {
  const page = await signedIn('ada@example.com', `/settings?workspace=${shop.id}`);
  await page.getByRole('checkbox', { name: 'read:meta' }).check();
  // The form offers exactly the scopes `key create` accepts, in the order its refusal lists them.
  const offered = await page.locator('fieldset', { hasText: 'Scopes of a new key' }).getByRole('checkbox').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).name));
  assert.deepEqual(await cli(t, ['key', 'create', '--workspace', String(shop.id), '--scopes', 'read:everything']), {
    error: { message: `Unknown scopes: read:everything. Known scopes: ${offered.join(', ')}` },
  });
  await page.getByRole('button', { name: 'Create key' }).click();
  const apiKey = await page.getByLabel('API key', { exact: true }).inputValue();
  const secret = await page.getByLabel('Client secret').inputValue();
  const headers = { 'x-api-key': apiKey, 'client-secret': secret };
  const before = await t.app.inject({ method: 'GET', url: '/v3/report?source=meta', headers });
  assert.equal(before.statusCode, 200);
  page.once('dialog', (dialog) => dialog.accept());
  const row = page.locator('tr', { hasText: apiKey.slice(0, 10) });
  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.getByText(/^revoked/).waitFor();
  const afterRevoke = await t.app.inject({ method: 'GET', url: '/v3/report?source=meta', headers });
  assert.deepEqual([afterRevoke.statusCode, afterRevoke.json()], [401, { message: 'Invalid API key' }]);
  await page.context().close();
});

test('changing a setting changes the report', async () => {
  const page = await signedIn('ada@example.com', `/report?workspace=${shop.id}`);
  await page.waitForSelector('tbody tr');
  await settled(page);
  assert.equal(await page.getByLabel('Attribution model').inputValue(), 'last_click');
  const revenue = () => page.locator('tfoot td').nth(2).textContent();
  const before = await revenue();
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Include platform orders without a pixel match').check();
  await page.locator('form[aria-labelledby=report-settings] select[name=attribution_model]').selectOption('first_click');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('Saved.').waitFor();
  await page.getByRole('link', { name: 'Attribution' }).click();
  await page.waitForSelector('tbody tr');
  await settled(page);
  await page.waitForFunction(() => (document.querySelector('select[name=attribution_model]') as HTMLSelectElement)?.value === 'first_click');
  assert.notEqual(await revenue(), before, 'orders without a pixel match add to the total revenue');
  assert.ok((await page.$$eval('tbody tr td:first-child', (cells) => cells.map((c) => c.textContent))).includes('unattributed'));
  await page.context().close();
});

test('a viewer has no settings link and cannot reach settings by URL; the pages carry the CSP', async () => {
  const page = await signedIn('vic@example.com');
  await page.waitForSelector('.kpi');
  assert.equal(await page.getByRole('link', { name: 'Settings' }).count(), 0);
  assert.ok(!(await page.locator('.kpi').allTextContents()).some((k) => k.includes('Net profit')));
  await page.goto(`${base}/settings?workspace=${shop.id}`);
  await page.getByText('Only owners of this workspace can see its settings.').waitFor();
  const response = await page.request.get(`${base}/dashboard/api/keys?workspace=${shop.id}`);
  assert.equal(response.status(), 403);
  const html = await page.request.get(`${base}/report`);
  assert.match(html.headers()['content-security-policy']!, /default-src 'self'/);
  assert.equal(html.headers()['x-content-type-options'], 'nosniff');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  assert.equal((await page.request.get(`${base}/dashboard/api/me`)).status(), 401);
  await page.context().close();
});

test('a utm value a spreadsheet would run as a formula downloads as text; numbers stay numbers', async () => {
  const visited = await createTestWorkspace(t.stores, 'Visited');
  await createUser(t, 'ada@example.com', visited.id);
  // Anyone can send these: the collector takes the shop's public pixel id, nothing else.
  const hostile = ['=HYPERLINK("https://evil.example","open")', '+1+1', '-2+3', '@SUM(1,1)'];
  const now = Date.now() - 60_000;
  for (const [i, campaign] of hostile.entries()) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/collect',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'x-forwarded-for': `10.9.0.${i + 1}` },
      payload: JSON.stringify({
        pixel_id: visited.pixelId, visitor_id: String(9100 + i), session_id: String(9200 + i),
        entry_url: `https://shop.example/?utm_source=news&utm_campaign=${encodeURIComponent(campaign)}`,
        items: [
          { type: 'event', name: 'pageview', url: 'https://shop.example/', ts: now - 1000 },
          { type: 'conversion', name: 'purchase', url: 'https://shop.example/thanks', ts: now, transaction_id: `CSV-${i}`, revenue: 1000 * (i + 1) },
        ],
      }),
    });
    assert.equal(response.statusCode, 202, response.body);
  }
  const report = `/v3/report?start_date=${today}&end_date=${today}&breakdown=utm_campaign`;
  const arrived = await eventually(async () => (await t.app.inject({ method: 'GET', url: report, headers: visited.headers })).json().data, (rows) => rows.length === hostile.length);
  assert.deepEqual(arrived.map((r: { utm_campaign: string }) => r.utm_campaign).sort(), [...hostile].sort());

  const page = await signedIn('ada@example.com', `/report?workspace=${visited.id}&start_date=${today}&end_date=${today}&breakdown=utm_campaign`);
  await page.waitForFunction((n) => document.querySelectorAll('tbody tr').length === n, hostile.length);
  assert.deepEqual((await page.$$eval('tbody tr td:first-child', (cells) => cells.map((c) => c.textContent))).sort(), [...hostile].sort(), 'the page shows them as they are');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  const lines = fs.readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
  // Each line's cells as written: quoted cells kept with their quotes.
  const cellsOf = (line: string) => line.match(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)!.map((c) => c.replace(/,$/, '')).slice(0, -1);
  const header = cellsOf(lines[0]!);
  const rows = lines.slice(1, -1).map(cellsOf);
  assert.deepEqual(rows.map((r) => r[0]).sort(), [`"'=HYPERLINK(""https://evil.example"",""open"")"`, `"'@SUM(1,1)"`, "'+1+1", "'-2+3"].sort());
  assert.deepEqual(rows.map((r) => r[header.indexOf('Revenue')]).sort(), ['10', '20', '30', '40'], 'numbers are written as numbers');
  await page.context().close();
});

test('conversions list newest first, and a touchpoint path names its campaign instead of the raw id', async () => {
  const named = await createTestWorkspace(t.stores, 'Named');
  await createUser(t, 'ada@example.com', named.id);
  await insertRows(t.stores, 'events', [
    { store_id: named.id, dt: `${twoDaysAgo} 09:00:00`, name: 'pageview', session_id: 71, visitor_id: 7, adv_source: 'facebook', adv_campaign_id: '120210000000001', pathname: '/' },
    { store_id: named.id, dt: `${today} 00:00:01`, name: 'pageview', session_id: 72, visitor_id: 7, pathname: '/' },
  ]);
  await insertRows(t.stores, 'conversions', [
    { store_id: named.id, dt: `${today} 00:00:02`, name: 'purchase', session_id: 72, visitor_id: 7, transaction_id: 'NEW', transaction_gross_revenue: 123456, transaction_currency: 'USD' },
    { store_id: named.id, dt: `${twoDaysAgo} 09:05:00`, name: 'purchase', session_id: 71, visitor_id: 7, transaction_id: 'OLD', transaction_gross_revenue: 900, transaction_currency: 'USD' },
  ]);
  await insertRows(t.stores, 'ads', [
    { store_id: named.id, dt: twoDaysAgo, source: 'meta', campaign_id: '120210000000001', campaign_name: 'Spring sale', ad_id: 'a1', spend: 100, version: 1 },
  ]);
  const page = await signedIn('ada@example.com', `/conversions?workspace=${named.id}&start_date=${twoDaysAgo}&end_date=${today}&attribution_window=7`);
  await page.waitForSelector('tbody tr button.link');
  assert.deepEqual(await page.$$eval('tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(0, 4).map((c) => c.textContent))), [
    [`${today} 00:00:02`, 'purchase', 'NEW', '$1,234.56'],
    [`${twoDaysAgo} 09:05:00`, 'purchase', 'OLD', '$9.00'],
  ], 'newest first; money with cents, as everywhere');
  await page.locator('tbody tr').first().getByRole('button').click();
  await page.waitForSelector('.path li');
  const touches = await page.locator('.path li').allTextContents();
  assert.equal(touches.length, 2);
  assert.ok(touches[0]!.startsWith(`meta · ${twoDaysAgo} 09:00:00 · campaign Spring sale`), touches[0]);
  assert.doesNotMatch(touches.join(' '), /120210000000001/);
  await page.context().close();
});

test('clicking an order opens why it was credited: every model side by side and the removal effects', async () => {
  // Workspace "Why": visitor 8 clicks facebook two days ago and google yesterday, then buys W1;
  // visitor 9 clicks facebook two days ago and leaves. Chain: start->meta 2, meta->google 1,
  // meta->null 1, google->conversion 1: removing either platform loses every conversion (effects 1),
  // so markov splits W1 50/50 like linear; data_driven, with far too few visitors to fit, credits as linear.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const why = await createTestWorkspace(t.stores, 'Why');
  await createUser(t, 'ada@example.com', why.id);
  const ev = (session: number, visitor: number, dt: string, adv_source: string) =>
    ({ store_id: why.id, dt, name: 'pageview', session_id: session, visitor_id: visitor, adv_source, pathname: '/' });
  await insertRows(t.stores, 'events', [
    ev(81, 8, `${twoDaysAgo} 09:00:00`, 'facebook'), ev(82, 8, `${yesterday} 09:00:00`, 'google'), ev(91, 9, `${twoDaysAgo} 10:00:00`, 'facebook'),
  ]);
  await insertRows(t.stores, 'conversions', [
    { store_id: why.id, dt: `${yesterday} 09:30:00`, name: 'purchase', session_id: 82, visitor_id: 8, transaction_id: 'W1', transaction_gross_revenue: 10000, transaction_currency: 'USD' },
  ]);
  const page = await signedIn('ada@example.com', `/conversions?workspace=${why.id}&start_date=${twoDaysAgo}&end_date=${today}`);
  await page.locator('tbody tr').first().getByRole('button').click();
  await page.waitForSelector('.why tbody tr');
  const table = (caption: string) => page.locator('.why .table-block', { hasText: caption }).locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)));
  assert.deepEqual(await table('Credit under each model'), [
    ['Last click', '0.00 %', '100.00 %'],
    ['First click', '100.00 %', '0.00 %'],
    ['Linear', '50.00 %', '50.00 %'],
    ['U-shaped', '50.00 %', '50.00 %'],
    ['Total impact', '50.00 %', '50.00 %'],
    ['Any click', '100.00 %', '100.00 %'],
    ['Markov', '50.00 %', '50.00 %'],
    ['Data-driven', '50.00 %', '50.00 %'],
  ]);
  assert.deepEqual(await page.locator('.why .table-block', { hasText: 'Credit under each model' }).locator('thead th').allTextContents(), ['Model', 'meta', 'google']);
  assert.deepEqual(await table('Removal effects'), [['google', '100.00 %'], ['meta', '100.00 %']]);
  assert.match(await page.locator('.why .note').first().textContent() ?? '', /1 converting and 1 non-converting journeys/);
  // Two visitors are far too few for data_driven's fit: the panel says so instead of showing lifts.
  assert.match(await page.locator('.why .note').nth(1).textContent() ?? '', /too few visitors or buyers in this range to fit \(2 visitors, 1 buyers\)/);
  await page.context().close();
});

test('with enough shoppers the why panel shows what data_driven says each channel added to an order', async () => {
  // The bench's "even" world: 20,000 shoppers, meta +4, google +2, tiktok +6 points on a 2 % base.
  const world = await createTestWorkspace(t.stores, 'World');
  await createUser(t, 'ada@example.com', world.id);
  const { events, conversions } = journeyRows(world.id, generate(SCENARIOS[0]!).journeys);
  await insertRows(t.stores, 'events', events);
  await insertRows(t.stores, 'conversions', conversions);
  const api = (await t.app.inject({ method: 'GET', url: `/v3/attribution?transaction_id=${(conversions.at(-1) as { transaction_id: string }).transaction_id}&start_date=${RANGE.start_date}&end_date=${RANGE.end_date}`, headers: world.headers })).json();
  assert.equal(api.data.fit.method, 'nonnegative_linear_probability');
  const page = await signedIn('ada@example.com', `/conversions?workspace=${world.id}&start_date=${RANGE.start_date}&end_date=${RANGE.end_date}`);
  await page.locator('tbody tr').first().getByRole('button').click();
  const added = page.locator('.why .table-block', { hasText: 'What each channel added (data-driven)' }).locator('tbody tr');
  await added.first().waitFor();
  const sources = await added.evaluateAll((rows) => rows.map((r) => r.querySelector('td')?.textContent));
  assert.deepEqual(sources, Object.keys(api.data.lifts));
  // No lift or geo test in this world: every lift shown is the fitted one.
  const measuredBy = await added.evaluateAll((rows) => rows.map((r) => r.querySelectorAll('td')[2]?.textContent));
  assert.deepEqual([api.data.calibrated_sources, measuredBy], [[], sources.map(() => 'fitted')]);
  assert.match(await page.locator('.why .note').nth(1).textContent() ?? '', /^Fitted on \d+ visitors and \d+ buyers of this range; without any channel \d+\.\d\d % bought\.$/);
  await page.context().close();
});

test('at 375 px (menu opened) and at 1280 px every view link is on screen; at 1280 px no table is wider than its box, so no header is clipped', async () => {
  const page = await signedIn('ada@example.com', `/report?workspace=${shop.id}&start_date=${twoDaysAgo}`);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.waitForSelector('tbody tr');
  // On a phone the views fold into a menu; opened, its links wrap onto more lines rather than run
  // off the screen (or into a scrolled strip).
  await page.getByRole('button', { name: /^Menu/ }).click();
  const links = () => page.$$eval('nav[aria-label=Views] a', (as) => as.map((a) => {
    const box = a.getBoundingClientRect();
    return { text: a.textContent, inside: box.left >= 0 && box.right <= window.innerWidth && box.width > 0 };
  }));
  const allInside = VIEWS.map((view) => ({ text: view.title, inside: true }));
  assert.deepEqual(await links(), allInside);
  await page.getByRole('link', { name: 'Live' }).click();
  await page.waitForFunction(() => location.pathname === '/live');

  await page.setViewportSize({ width: 1280, height: 860 });
  assert.deepEqual(await links(), allInside);
  const overflowing = async () => page.$$eval('.table-scroll', (boxes) => boxes.filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.querySelector('table')?.closest('.table-block')?.querySelector('h2')?.textContent));
  for (const view of [`/report?workspace=${shop.id}&compare=1`, `/report?workspace=${shop.id}&breakdown=campaign&source=meta`, `/profit?workspace=${shop.id}`, `/products?workspace=${shop.id}&start_date=${twoDaysAgo}`, `/conversions?workspace=${shop.id}`]) {
    await page.goto(`${base}${view}`);
    await page.waitForSelector('tbody tr');
    await settled(page);
    assert.deepEqual(await overflowing(), [], view);
  }
  await page.context().close();
});

test('Products lists what sold, as products.get-sales for the same days, in the workspace time zone', async () => {
  const page = await signedIn('ada@example.com', `/products?workspace=${shop.id}&start_date=${twoDaysAgo}&end_date=${today}`);
  await page.waitForSelector('tbody tr');
  await settled(page);
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Products');
  assert.equal(await page.getByTestId('time-zone').textContent(), 'Time zone: UTC');
  const sold = await toolOk(t.app, shop.headers, 'products.get-sales', { date_from: twoDaysAgo, date_to: today, limit: 100 });
  assert.ok(sold.products.length >= 3);
  const cells = await page.$$eval('tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent)));
  const money = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);
  assert.deepEqual(cells, sold.products.map((p: any) => [p.title, p.variant_id, p.sku, new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(p.units), money(p.revenue)]));
  // Line revenue is not the overview's revenue for the same days, and the page says why next to it.
  const overview = await (await page.request.get(`${base}/dashboard/api/overview?workspace=${shop.id}&start_date=${twoDaysAgo}&end_date=${today}`)).json();
  assert.notEqual(sold.totals.revenue, overview.totals.revenue);
  assert.match(await page.getByTestId('revenue-basis').textContent() ?? '', /this revenue differs from the overview's and the attribution report's for the same days/);
  await page.getByLabel('Buyers credited to').selectOption('meta');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('source') === 'meta');
  await settled(page);
  const meta = await toolOk(t.app, shop.headers, 'products.get-sales', { date_from: twoDaysAgo, date_to: today, source: ['meta'], limit: 100 });
  assert.equal(await page.locator('tbody tr').count(), Math.max(meta.products.length, 1));
  assert.ok(meta.products.every((p: any) => p.sources.every((s: any) => s.source === 'meta')));
  await page.context().close();
});

test('money is shown one way everywhere: the currency with cents', async () => {
  const page = await signedIn('ada@example.com', `/?workspace=${shop.id}&start_date=${twoDaysAgo}`);
  await page.waitForSelector('.kpi');
  await settled(page);
  const money = /^-?\$\d{1,3}(,\d{3})*\.\d{2}$/;
  for (const metric of ['spend', 'revenue']) {
    assert.match((await page.locator(`.kpi[data-metric=${metric}] .kpi-value`).textContent())!, money, metric);
  }
  await page.goto(`${base}/report?workspace=${shop.id}&start_date=${twoDaysAgo}`);
  await page.waitForSelector('tbody tr');
  await settled(page);
  const header = await page.$$eval('thead th', (ths) => ths.map((th) => th.textContent!.trim()));
  const cells = await page.$$eval('tbody tr, tfoot tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent!.trim())));
  for (const name of ['Spend', 'Revenue', 'CPA']) {
    const column = cells.map((row) => row[header.indexOf(name)]!);
    // A row without spend has no CPA: "–", as for ROAS.
    const shown = (v: string, i: number) => money.test(v) || (name === 'CPA' && v === '–' && cells[i]![header.indexOf('Spend')] === '$0.00');
    assert.ok(column.length > 0 && column.every(shown), `${name}: ${column.join(' ')}`);
  }
  await page.context().close();
});

test('the pages name an SVG favicon the dashboard serves; /favicon.ico leads to it', async () => {
  const page = await signedIn('ada@example.com');
  const href = await page.getAttribute('link[rel=icon]', 'href');
  assert.equal(href, '/favicon.svg');
  const icon = await page.request.get(`${base}${href}`);
  assert.deepEqual([icon.status(), icon.headers()['content-type']], [200, 'image/svg+xml']);
  assert.match(await icon.text(), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  const ico = await page.request.get(`${base}/favicon.ico`, { maxRedirects: 0 });
  assert.deepEqual([ico.status(), ico.headers().location], [301, '/favicon.svg']);
  await page.context().close();
});

test('an owner publishes a survey in the surveys view and reads the answers beside the attributed sources', async () => {
  const { survey } = await toolOk(t.app, shop.headers, 'surveys.create', {
    title: 'Post purchase',
    questions: [{ text: 'How did you hear about us?', type: 'single_choice', options: ['Instagram', 'Podcast'] }],
  });
  const page = await signedIn('ada@example.com', `/surveys?workspace=${shop.id}`);
  const row = page.locator('tr', { hasText: 'Post purchase' });
  await row.getByRole('button', { name: 'Publish' }).click();
  await page.getByRole('status').filter({ hasText: '“Post purchase” is live' }).waitFor();
  await row.getByText('live', { exact: true }).waitFor();

  // Two of the demo's orders answer through the collector, as the pixel's widget posts them.
  const conversions = (await t.app.inject({ method: 'GET', url: `/v3/conversions?start_date=${twoDaysAgo}&end_date=${today}&name=purchase&limit=2`, headers: shop.headers })).json().data;
  for (const [i, conversion] of conversions.entries()) {
    const response = await t.app.inject({
      method: 'POST', url: '/collect/survey', headers: { 'content-type': 'text/plain', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0' },
      payload: JSON.stringify({ pixel_id: shop.pixelId, survey_id: survey.id, transaction_id: conversion.transaction_id, answers: [{ question: 0, value: ['Instagram', 'Podcast'][i] }] }),
    });
    assert.equal(response.statusCode, 202, response.body);
  }
  await eventually(() => toolOk(t.app, shop.headers, 'surveys.get-responses', { survey_id: survey.id }), (r) => r.responses.length === 2);

  await page.goto(`${base}/surveys?workspace=${shop.id}&start_date=${twoDaysAgo}&end_date=${today}`);
  await page.locator('tbody').getByRole('button', { name: 'Post purchase' }).click();
  await page.getByRole('heading', { name: 'Self-reported vs pixel' }).waitFor();
  const table = page.locator('.table-block', { hasText: 'Orders by answer and attributed source' });
  await table.locator('tbody tr').first().waitFor();
  const answers = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((c) => c.textContent)));
  assert.deepEqual(answers, [['Instagram', '1', '1'], ['Podcast', '1', '1']]);
  const responses = page.locator('.table-block', { hasText: 'Responses' }).last();
  assert.equal(await responses.locator('tbody tr').count(), 2);
  await row.getByRole('button', { name: 'Close' }).click();
  await row.getByText('closed', { exact: true }).waitFor();
  await page.context().close();
});

test('an owner sets up a geo test of a channel in the geo tests view and sees it listed with its status', async () => {
  const page = await signedIn('ada@example.com', `/geo?workspace=${shop.id}`);
  await page.getByLabel('Name', { exact: true }).fill('Free shipping DE');
  await page.getByLabel('Treatment regions').fill('DE, NL');
  await page.getByLabel('Control regions').fill('GB');
  await page.getByLabel('First day').fill(twoDaysAgo);
  await page.getByLabel('Last day').fill(today);
  await page.getByLabel('Channel tested').fill('meta');
  await page.getByRole('button', { name: 'Create geo test' }).click();
  await page.getByRole('status').filter({ hasText: '“Free shipping DE” is set up.' }).waitFor();
  const row = page.locator('tbody tr', { hasText: 'Free shipping DE' });
  await row.waitFor();
  const cells = await row.locator('td').allTextContents();
  assert.deepEqual(cells.slice(0, 6), ['Free shipping DE', 'DE, NL', 'GB', 'meta', `${twoDaysAgo} to ${today}`, 'running']);
  await page.context().close();
});

test('a report the assistant saved is a view: listed under Saved reports and shown as /v3/report answers it', async () => {
  await toolOk(t.app, shop.headers, 'dashboards.create-report', {
    name: 'Revenue by source', metrics: ['revenue', 'conversions'], breakdown: 'source', filters: { date_from: twoDaysAgo, date_to: today },
  });
  const page = await signedIn('ada@example.com', `/saved?workspace=${shop.id}`);
  await page.locator('tbody').getByRole('button', { name: 'Revenue by source' }).click();
  await page.getByRole('heading', { name: 'Revenue by source', level: 2 }).waitFor();
  // Opening it puts its saved dates in the filters.
  assert.deepEqual([params(page).get('start_date'), params(page).get('end_date')], [twoDaysAgo, today]);
  const table = page.locator('.table-block').nth(1);
  await table.getByRole('heading', { name: 'Revenue, Conversions · by source' }).waitFor();
  const shown = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)));
  const viaApi = (await t.app.inject({
    method: 'GET', url: `/v3/report?start_date=${twoDaysAgo}&end_date=${today}&breakdown=source&metrics=revenue,conversions`, headers: shop.headers,
  })).json();
  assert.deepEqual(shown.map((cells) => [cells[0], cells[2]]), viaApi.data.map((r: any) => [r.source, String(r.conversions)]));
  assert.ok(shown.length > 1, 'the demo shop sells through several sources');
  await page.context().close();
});

test('an owner enables a workflow in the workflows view, runs it, reads its execution and is told which field an incomplete one lacks', async () => {
  const { workflow } = await toolOk(t.app, shop.headers, 'workflows.create', { name: 'Morning note', trigger: { type: 'daily_schedule' }, actions: [{ type: 'save_note' }] });
  await createObject(t.stores.db, shop.id, 'workflow', { name: 'Old rule', trigger: { type: 'metric_threshold', metric: 'roas' }, actions: [{ type: 'save_note', target: '' }], enabled: false });
  const page = await signedIn('ada@example.com', `/workflows?workspace=${shop.id}`);
  const row = page.locator('tr', { hasText: 'Morning note' });
  await row.getByRole('button', { name: 'Enable' }).click();
  await page.getByRole('status').filter({ hasText: '“Morning note” is enabled' }).waitFor();
  await row.getByText('enabled', { exact: true }).waitFor();
  await row.getByRole('button', { name: 'Run now' }).click();
  await page.getByRole('status').filter({ hasText: '“Morning note” ran: fired.' }).waitFor();
  const executions = page.locator('.table-block', { hasText: 'Executions of “Morning note”' });
  await executions.locator('tbody tr').first().waitFor();
  const cells = await executions.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)));
  assert.equal(cells.length, 1);
  assert.match(cells[0]![1]!, new RegExp(`^manual:`));
  assert.equal(cells[0]![2], 'fired');
  assert.equal(cells[0]![3], 'none', 'a schedule reads no figure, said in words rather than {}');
  assert.match(cells[0]![4]!, /^save_note: done \(note \d+ saved\)$/);
  assert.equal(new URL(page.url()).searchParams.get('workflow'), workflow.id);
  await row.getByRole('button', { name: 'Disable' }).click();
  await row.getByText('disabled', { exact: true }).waitFor();
  await page.locator('tr', { hasText: 'Old rule' }).getByRole('button', { name: 'Enable' }).click();
  await page.getByRole('alert').filter({ hasText: 'Workflow is incomplete: trigger.operator: operator is required for a metric_threshold trigger' }).waitFor();
  await page.context().close();
});

test('the conversions view downloads every row of its filters, the overview the marketing-mix-model file', async () => {
  const range = `start_date=${twoDaysAgo}&end_date=${today}`;
  const page = await signedIn('ada@example.com', `/conversions?workspace=${shop.id}&${range}&source=google`);
  await page.waitForSelector('a.download');
  assert.deepEqual(await page.locator('.downloads a.download').allTextContents(), ['CSV', 'NDJSON', 'Parquet']);
  const [rows] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'CSV', exact: true }).click()]);
  const expected = await fetch(`${base}/v3/export/conversions?${range}&source=google&format=csv`, { headers: shop.headers });
  assert.equal(rows.suggestedFilename(), `storelens-conversions-${twoDaysAgo}_${today}.csv`);
  assert.equal(fs.readFileSync((await rows.path())!, 'utf8'), await expected.text());

  await page.goto(`${base}/?workspace=${shop.id}&${range}`);
  await page.waitForSelector('a.download');
  const [mmm] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Daily CSV' }).click()]);
  const mmmExpected = await fetch(`${base}/v3/export/mmm?${range}`, { headers: shop.headers });
  assert.equal(fs.readFileSync((await mmm.path())!, 'utf8'), await mmmExpected.text());
  await page.context().close();
});
