/**
 * The MCP Apps in headless Chromium under a host emulation (test/support/app-host.ts): each app's
 * HTML from resources/read runs in a sandboxed frame under the restrictive policy hosts apply, the
 * official AppBridge speaks the postMessage protocol with it and sends the tool result that
 * tools/call answered on real data. Fixture: workspace "Shop" with 3 days of the demo shop, an
 * admin key and a read:google key (no profit); workspace "Paths" with one two-channel order (below).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { openHost, setHostTheme, showApp } from '../support/app-host.ts';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemo } from '../../src/cli/demo/seed.ts';
import { callTool, postMcp } from './rpc.ts';

let t: TestApp;
let shop: TestWorkspace;
/** One buyer: facebook campaign c1 two days ago, google campaign c2 yesterday, then order T1 of 100.00. */
let paths: TestWorkspace;
let browser: Browser;
const problems: string[] = [];
const pages: Page[] = [];

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const RANGE = { date_from: day(2), date_to: day(0) };
const usd = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  await seedDemo(t.stores.ch, { workspaceId: shop.id, days: 3, sessionsPerDay: 300 });
  paths = await createTestWorkspace(t.stores, 'Paths');
  const visit = (session: number, dt: string, source: string, campaign: string) =>
    ({ store_id: paths.id, dt, name: 'pageview', session_id: session, visitor_id: 1, pathname: '/', adv_source: source, adv_campaign_id: campaign });
  await insertRows(t.stores, 'events', [visit(11, `${day(2)} 10:00:00`, 'facebook', 'c1'), visit(12, `${day(1)} 10:00:00`, 'google', 'c2')]);
  await insertRows(t.stores, 'conversions', [{
    store_id: paths.id, name: 'purchase', transaction_id: 'T1', transaction_currency: 'USD', transaction_gross_revenue: 10000, dt: `${day(1)} 10:30:00`, session_id: 12, visitor_id: 1,
  }]);
  // The ad rows name the facebook campaign; the google one stays an id.
  await insertRows(t.stores, 'ads', [{ store_id: paths.id, dt: day(2), source: 'meta', campaign_id: 'c1', campaign_name: 'Winter sale', ad_id: 'm1', spend: 100, version: 1 }]);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await t.close();
  assert.deepEqual(problems, [], 'no console errors, script errors, refused requests or policy violations');
});

async function appHtml(uri: string): Promise<string> {
  return (await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } }, shop.headers)).body.result.contents[0].text;
}

/** Calls the tool, then shows its result in the app its tools/list entry names. */
async function render(tool: string, args: Record<string, unknown>, theme: 'light' | 'dark' = 'light', headers = shop.headers) {
  const { tools } = (await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, shop.headers)).body.result;
  const uri = tools.find((x: any) => x.name === tool)._meta.ui.resourceUri;
  const { result } = await callTool(t.app, headers, tool, args);
  const page = await openHost(browser, problems);
  pages.push(page);
  const frame = await showApp(page, { html: await appHtml(uri), args, result: result as any, theme });
  return { frame, page, data: result!.structuredContent };
}

/** Texts of the report table's cells (the chart's legend is a table too). */
const texts = (frame: Frame, selector: string) => frame.$$eval(`.table-block ${selector}`, (cells) => cells.map((c) => c.textContent!.trim()));
const style = (frame: Frame, selector: string, property: string) =>
  frame.$eval(selector, (el, p) => getComputedStyle(el).getPropertyValue(p), property);

describe('the report app (analytics.query)', () => {
  test('shows the totals as tiles, the days as a chart and as rows', async () => {
    const { frame, data } = await render('analytics.query', { interval: 'day', metrics: ['revenue', 'spend'], filters: RANGE });
    await frame.waitForSelector('.chart canvas');
    assert.deepEqual(await frame.$$eval('.kpi-value', (tiles) => tiles.map((v) => v.textContent)), [usd(data.totals.revenue), usd(data.totals.spend)]);
    assert.deepEqual(await texts(frame, 'thead th'), ['Date', 'Revenue', 'Spend']);
    assert.deepEqual(await texts(frame, 'tbody td:first-child'), [day(2), day(1), day(0)]);
    assert.deepEqual(await texts(frame, 'tbody tr:first-child td'), [day(2), usd(data.rows[0].revenue), usd(data.rows[0].spend)]);
    assert.deepEqual(await texts(frame, 'tfoot td'), ['Total', usd(data.totals.revenue), usd(data.totals.spend)]);
    assert.equal(await frame.$eval('.chart figcaption', (el) => el.textContent), 'Revenue and Spend');
  });

  test('a breakdown with compare_to shows each channel with the change of each metric', async () => {
    const yesterday = { date_from: day(1), date_to: day(1) };
    const { frame, data } = await render('analytics.query', { breakdown: 'source', metrics: ['revenue', 'conversions'], compare_to: 'previous_period', filters: yesterday });
    await frame.waitForSelector('tbody tr');
    assert.deepEqual(await texts(frame, 'thead th'), ['Source', 'Revenue', 'Revenue change', 'Conversions', 'Conversions change']);
    assert.deepEqual(await texts(frame, 'tbody td:first-child'), data.rows.map((r: any) => r.source));
    const first = data.rows[0];
    const percent = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(2)} %`);
    assert.deepEqual(await texts(frame, 'tbody tr:first-child td'), [first.source, usd(first.revenue), percent(first.change.revenue), String(first.conversions), percent(first.change.conversions)]);
    const { totals } = data;
    assert.deepEqual(await texts(frame, 'tfoot td'), ['Total', usd(totals.revenue), percent(totals.change.revenue), String(totals.conversions), percent(totals.change.conversions)]);
    assert.equal(await frame.$('.chart'), null, 'no chart without periods');
    const change = totals.change.revenue;
    assert.equal(await frame.$eval('.kpi[data-metric=revenue] .kpi-change', (el) => el.textContent!.trim()), `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} % vs previous period`);
  });

  test('a refusal shows its message instead of a table', async () => {
    const noProfit = await shop.keyHeaders(['read:google']);
    const { frame, data } = await render('analytics.query', { metrics: ['net_profit'] }, 'light', noProfit);
    assert.equal(data.error.code, 'permission_denied');
    assert.equal(await frame.$eval('[role=alert]', (el) => el.textContent), data.error.message);
  });
});

describe('the attribution app (attribution.get-data)', () => {
  test('shows every channel under each model, with the totals', async () => {
    const { frame, data } = await render('attribution.get-data', { models: ['last_click', 'linear'], filters: RANGE });
    await frame.waitForSelector('tbody tr');
    const { channels, totals } = data.attribution;
    assert.deepEqual(await texts(frame, 'thead th'), ['Source', 'Last click revenue', 'Last click conv.', 'Linear revenue', 'Linear conv.']);
    assert.deepEqual(await texts(frame, 'tbody td:first-child'), channels.map((c: any) => c.source));
    assert.deepEqual(await texts(frame, 'tfoot td'), ['Total', usd(totals.last_click.revenue), String(totals.last_click.conversions), usd(totals.linear.revenue), String(totals.linear.conversions)]);
  });
});

describe('the explain app (attribution.explain)', () => {
  test('shows the order\'s touchpoints and each model\'s share per source', async () => {
    const { frame, data } = await render('attribution.explain', { transaction_id: 'T1' }, 'light', paths.headers);
    await frame.waitForSelector('tbody tr');
    assert.equal(data.attribution.transaction_id, 'T1');
    const [touches, credit, effects] = await frame.$$('.table-block');
    const cells = (block: any, selector: string) => block.$$eval(selector, (els: Element[]) => els.map((e) => e.textContent!.trim()));
    assert.deepEqual(await cells(touches, 'thead th'), ['Session start (UTC)', 'Source', 'Referrer source', 'Campaign', 'Ad group', 'Ad']);
    assert.deepEqual(await cells(touches, 'tbody tr'), [`${day(2)} 10:00:00metafacebookWinter sale · c1(none)(none)`, `${day(1)} 10:00:00googlegooglec2(none)(none)`]);
    // The dashboard's "why" tables: a row per model, a column per source; two touches, so linear halves.
    assert.deepEqual(await cells(credit, 'thead th'), ['Model', 'meta', 'google']);
    assert.deepEqual(await cells(credit, 'tbody tr:nth-child(1) td'), ['Last click', '0.00 %', '100.00 %']);
    assert.deepEqual(await cells(credit, 'tbody tr:nth-child(2) td'), ['First click', '100.00 %', '0.00 %']);
    assert.deepEqual(await cells(credit, 'tbody tr:nth-child(3) td'), ['Linear', '50.00 %', '50.00 %']);
    // One journey, both channels on it: removing either loses the conversion.
    assert.deepEqual(await cells(effects, 'tbody tr'), ['google100.00 %', 'meta100.00 %']);
  });
});

describe('the books app (reconciliation.get-data)', () => {
  test('charts the shop\'s and the report\'s revenue per day and lists every day with its differences and the totals', async () => {
    const { frame, data } = await render('reconciliation.get-data', { ...RANGE, timezone: 'UTC' });
    await frame.waitForSelector('.chart canvas');
    const { days, totals } = data.reconciliation;
    assert.equal(days.length, 3);
    assert.equal(await frame.$eval('.chart figcaption', (el) => el.textContent), 'Shop revenue and report revenue');
    assert.deepEqual(await texts(frame, 'tbody td:first-child'), [day(2), day(1), day(0)]);
    const headers = await texts(frame, 'thead th');
    assert.deepEqual(headers.slice(0, 3), ['Date', 'Shop orders', 'Shop revenue']);
    assert.deepEqual(headers.slice(-2), ['Report revenue', 'Unexplained']);
    const last = await texts(frame, 'tbody tr:first-child td');
    assert.deepEqual([last[1], last[2], last.at(-2), last.at(-1)], [String(days[0].shop_orders), usd(days[0].shop_revenue), usd(days[0].report_revenue), usd(days[0].unexplained_revenue)]);
    const footer = await texts(frame, 'tfoot td');
    assert.deepEqual([footer[0], footer[2], footer.at(-1)], ['Total', usd(totals.shop_revenue), usd(totals.unexplained_revenue)]);
  });
});

describe('the customers app (customers.get-ltv)', () => {
  test('draws the cohort heat map: a row per first source with the tool\'s figures, the totals, and the customers in one line', async () => {
    const { frame, data } = await render('customers.get-ltv', { ...RANGE, timezone: 'UTC', breakdown: 'first_source' });
    await frame.waitForSelector('[data-testid="cohort-table"] tbody tr');
    const { rows, totals } = data.customers;
    assert.ok(rows.length > 1, 'the demo\'s new customers come by several first sources');
    assert.deepEqual(await texts(frame, 'thead th'), [
      'First source', 'New customers', 'Repeat rate', 'Days to 2nd order', 'LTV 30 d', 'LTV 60 d', 'LTV 90 d', 'LTV 180 d', 'LTV 365 d',
    ]);
    assert.deepEqual(await texts(frame, 'tbody th'), rows.map((r: { first_source: string }) => r.first_source));
    const first = await texts(frame, 'tbody tr:first-child td');
    assert.deepEqual([first[0], first.at(-1)], [String(rows[0].new_customers), '–'], 'ltv_365 of customers at most 3 days old is unknown');
    assert.equal((await texts(frame, 'tfoot td'))[0], String(totals.new_customers));
    assert.equal(await frame.$eval('.note', (el) => el.textContent),
      `${RANGE.date_from} to ${RANGE.date_to} (UTC) · ${totals.customers} customers: ${totals.new_customers} new, ${totals.returning_customers} returning, ${usd(totals.revenue)} revenue`);
  });
});

describe('themes', () => {
  test('the app starts in the host\'s dark theme and follows it when the host changes it', async () => {
    const { frame, page } = await render('analytics.query', { interval: 'day', metrics: ['revenue'], filters: RANGE }, 'dark');
    await frame.waitForSelector('.chart canvas');
    assert.deepEqual([await style(frame, '.kpi', 'background-color'), await style(frame, '.kpi-value', 'color')], ['rgb(17, 24, 39)', 'rgb(229, 231, 235)']);
    await setHostTheme(page, 'light');
    await frame.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    assert.deepEqual([await style(frame, '.kpi', 'background-color'), await style(frame, '.kpi-value', 'color')], ['rgb(255, 255, 255)', 'rgb(17, 24, 39)']);
    await frame.waitForSelector('.chart canvas');
  });

  test('the host\'s style variables win over the app\'s own colours', async () => {
    const { frame, page } = await render('attribution.get-data', { models: ['linear'], filters: RANGE });
    await frame.waitForSelector('tbody tr');
    await page.evaluate(() => (window as any).setVariables({ '--color-background-primary': 'rgb(1, 2, 3)' }));
    await frame.waitForFunction(() => getComputedStyle(document.querySelector('.table-block')!).backgroundColor === 'rgb(1, 2, 3)');
  });
});
