/**
 * Every view of the dashboard, walked in headless Chromium at a laptop's width (1280 px) and a
 * phone's (375 x 812), for a New York workspace with three days of the demo shop: no console error
 * (a refused request included), no page wider than the screen, no table that is cut without the
 * cue that it scrolls sideways, and on a phone the views folded into a menu so the title is on the
 * first screen; and every request a view makes for ranged figures names the view's range (the
 * "Last 7 days" of New York when the URL has no dates) and the workspace's zone.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemo } from '../../src/cli/demo/seed.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { VIEWS } from '../../src/dashboard/views.ts';
import { defaultDays } from '../../src/dashboard/store-calendar.ts';
import { PASSWORD, createUser } from './helpers.ts';

const WIDTHS = [{ name: 'laptop', width: 1280, height: 900 }, { name: 'phone', width: 375, height: 812 }] as const;

let t: TestApp;
let shop: TestWorkspace;
let base: string;
let browser: Browser;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  await updateSettings(t.stores.db, shop.id, { timezone: 'America/New_York' });
  await seedDemo(t.stores.ch, { workspaceId: shop.id, days: 3, sessionsPerDay: 300 });
  await createUser(t, 'ada@example.com', shop.id);
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await t.close();
});

/** A page of its own at the given size whose console errors, refused requests included, land in `errors`. */
async function newPage(size: (typeof WIDTHS)[number], errors: string[]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && errors.push(`${page.url()}: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  return page;
}

/** What a person would miss on the page: content past the screen's edge, or a table cut with no cue. */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) problems.push(`the page is ${root.scrollWidth} px wide on a ${root.clientWidth} px screen`);
    for (const box of document.querySelectorAll<HTMLElement>('.table-scroll')) {
      if (box.scrollWidth <= box.clientWidth + 1) continue;
      const cue = box.closest('.table-block')?.querySelector<HTMLElement>('[data-testid="scroll-cue"]');
      const shown = cue !== null && cue !== undefined && cue.getBoundingClientRect().width > 0 && getComputedStyle(cue).visibility !== 'hidden';
      if (!shown) problems.push(`"${box.closest('.table-block')?.querySelector('h2')?.textContent}" is ${box.scrollWidth} px in a ${box.clientWidth} px box with no cue`);
    }
    return problems;
  });
}

/** The dashboard endpoints that answer no range, so their requests carry no dates. */
const NOT_RANGED = [
  /^me$/, /^settings$/, /^keys$/, /^install$/, /^storefront$/, /^members$/, /^live$/, /^surveys$/, /^surveys\/\d+\/responses$/,
  /^forms$/, /^forms\/\d+\/submissions$/, /^saved-reports$/, /^geo-tests$/, /^lift-tests$/, /^workflows$/,
  /^workflows\/\d+\/executions$/, /^ai-visibility$/, /^conversions\/path$/,
];

/** Records the dashboard's data requests; `unranged()` names those of a ranged endpoint without the view's range and zone. */
function recordRequests(page: Page, zone: string) {
  const seen: URL[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (r.method() === 'GET' && url.pathname.startsWith('/dashboard/api/')) seen.push(url);
  });
  return {
    endpoints: () => new Set(seen.map((u) => u.pathname.slice('/dashboard/api/'.length))),
    unranged: () => {
      const { start_date, end_date } = defaultDays(zone, Date.now());
      return seen.filter((u) => !NOT_RANGED.some((p) => p.test(u.pathname.slice('/dashboard/api/'.length))))
        .filter((u) => u.searchParams.get('start_date') !== start_date || u.searchParams.get('end_date') !== end_date || u.searchParams.get('timezone') !== zone)
        .map((u) => `${u.pathname}${u.search}`);
    },
  };
}

async function settled(page: Page): Promise<void> {
  await page.waitForSelector('main h1');
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.querySelector('main .loading') === null);
}

for (const size of WIDTHS) {
  test(`the sign-in page at ${size.width} px logs no error`, async () => {
    const errors: string[] = [];
    const page = await newPage(size, errors);
    await page.goto(`${base}/`);
    await page.getByLabel('Email').waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test(`every view at ${size.width} px: no console error, nothing cut without a cue`, async () => {
    const errors: string[] = [];
    const page = await newPage(size, errors);
    const requests = recordRequests(page, 'America/New_York');
    await page.goto(`${base}/?workspace=${shop.id}`);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const problems: string[] = [];
    for (const { path } of VIEWS) {
      await page.goto(`${base}${path}?workspace=${shop.id}`);
      await settled(page);
      for (const problem of await layoutProblems(page)) problems.push(`${path}: ${problem}`);
      if (size.name === 'phone') {
        // The views fold into a menu: the title is on the first screen, the menu opens on a tap.
        const title = await page.locator('main h1').boundingBox();
        assert.ok(title && title.y < size.height / 2, `${path}: the title starts at ${title?.y} px`);
        assert.equal(await page.getByRole('navigation', { name: 'Views' }).isVisible(), false, `${path}: the nav is folded`);
      }
    }
    if (size.name === 'phone') {
      await page.getByRole('button', { name: /^Menu/ }).click();
      await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Profit' }).click();
      await page.waitForFunction(() => location.pathname === '/profit');
      assert.equal(await page.getByRole('navigation', { name: 'Views' }).isVisible(), false, 'choosing a view folds the menu again');
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
    assert.deepEqual(requests.unranged(), [], 'every ranged request names the view\'s range and zone');
    // The check above covered the ranged endpoints of the views, not only the lists.
    for (const ranged of ['overview', 'report', 'profit', 'products', 'reconciliation', 'customers', 'conversions', 'conversions/names', 'loyalty', 'creators']) {
      assert.ok(requests.endpoints().has(ranged), `${ranged} was asked`);
    }
    await page.context().close();
  });
}

test('in the New York workspace the views show the API\'s numbers for New York\'s days', async () => {
  const errors: string[] = [];
  const page = await newPage(WIDTHS[0], errors);
  await page.goto(`${base}/?workspace=${shop.id}`);
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await settled(page);
  // The view's "Last 7 days", asked of the API in the same zone (the dashboard's days, read independently).
  const { start_date, end_date } = defaultDays('America/New_York', Date.now());
  const api = async (query: string) => (await t.app.inject({
    method: 'GET', url: `/v3/report?start_date=${start_date}&end_date=${end_date}&timezone=America/New_York&${query}`, headers: shop.headers,
  })).json();
  const money = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);
  const totals = (await api('metrics=revenue,conversions')).totals;
  assert.ok(totals.revenue > 0, 'the demo has sales in these days');
  assert.equal(await page.locator('.kpi[data-metric=revenue] .kpi-value').textContent(), money(totals.revenue));
  assert.equal(await page.locator('.kpi[data-metric=conversions] .kpi-value').textContent(), new Intl.NumberFormat('en-US').format(totals.conversions));

  await page.goto(`${base}/report?workspace=${shop.id}`);
  await settled(page);
  const bySource = (await api('breakdown=source&metrics=revenue')).data as { source: string; revenue: number }[];
  const shown = await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)));
  const revenueAt = (await page.locator('thead th').allTextContents()).findIndex((h) => h.startsWith('Revenue'));
  assert.deepEqual(shown.map((cells) => [cells[0], cells[revenueAt]]), bySource.map((r) => [r.source, money(r.revenue)]));
  assert.deepEqual(errors, []);
  await page.context().close();
});
