/**
 * `npm run screenshots`: every dashboard view (the one list of views, src/dashboard/views.ts, the sign-in page and two more
 * states of the attribution view) at desktop (1280 px) and phone (375 px) width for a workspace in
 * New York, and
 * each MCP App in the host emulation in its light and dark theme, saved under docs/screenshots/
 * (`npm run screenshots -- apps` or `-- dashboard` for one of the two). The app runs on a temporary
 * data dir with the demo shop (30 days, SCREENSHOT_DAYS to change) and a few rows of the last
 * minutes, in Debian's Chromium via playwright-core.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/support/chromium.ts';
import { openHost, showApp } from '../test/support/app-host.ts';
import { postMcp } from '../test/mcp/rpc.ts';
import { startTestApp, createTestWorkspace, insertRows } from '../test/helper.ts';
import { seedDemo } from '../src/cli/demo/seed.ts';
import { updateSettings } from '../src/store/app/workspaces.ts';
import { createUser, setMembership } from '../src/store/app/users.ts';
import { hashPassword } from '../src/dashboard/passwords.ts';
import { VIEWS } from '../src/dashboard/views.ts';

const OUT = path.resolve('docs/screenshots');
const days = Number(process.env.SCREENSHOT_DAYS ?? 30);
const PASSWORD = 'screenshot password';
const only = process.argv[2];
const ZONE = 'America/New_York';
/** The file name of a view's screenshots: its path, except the two the docs have always called so. */
const SHOT_NAMES: Record<string, string> = { '/': 'overview', '/report': 'attribution' };

const t = await startTestApp();
try {
  const shop = await createTestWorkspace(t.stores, 'Demo Store');
  await createTestWorkspace(t.stores, 'Second Shop');
  await updateSettings(t.stores.db, shop.id, { payment_fee_percent: 2.9, payment_fee_fixed: 30, timezone: ZONE });
  process.stderr.write(`seeding ${days} demo days ...\n`);
  await seedDemo(t.stores.ch, { workspaceId: shop.id, days });
  const user = await createUser(t.stores.db, 'owner@demo.example', await hashPassword(PASSWORD));
  await setMembership(t.stores.db, { userId: user.id, workspaceId: shop.id, role: 'owner', scopes: null });
  await setMembership(t.stores.db, { userId: user.id, workspaceId: shop.id + 1, role: 'viewer', scopes: null });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const now = Date.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString().slice(0, 19).replace('T', ' ');
  const live = [['google', '/products/linen-shirt', 12], ['facebook', '/collections/summer', 7], ['', '/', 3], ['email', '/cart', 1]] as const;
  await insertRows(t.stores, 'events', live.map(([source, page, ago], i) =>
    ({ store_id: shop.id, dt: at(ago), name: 'pageview', session_id: 9000 + i, visitor_id: 9100 + i, adv_source: source, pathname: page })));
  await insertRows(t.stores, 'conversions', [
    { store_id: shop.id, dt: at(0.5), name: 'purchase', session_id: 9002, visitor_id: 9102, transaction_id: 'LIVE-1', transaction_gross_revenue: 8900, transaction_currency: 'USD' },
  ]);

  const browser = await launchChromium();
  // The demo's days up to today, on the workspace's calendar.
  const dayIn = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(ms);
  const end = dayIn(Date.now());
  const start = dayIn(Date.now() - (days - 1) * 86_400_000);
  const range = `workspace=${shop.id}&start_date=${start}&end_date=${end}`;
  // Every view once, waited for until its requests are answered; some with a state worth showing.
  const settled = async (p: Page) => {
    await p.waitForSelector('main h1');
    await p.waitForLoadState('networkidle');
    await p.waitForFunction(() => document.querySelector('main .loading') === null);
  };
  const special: Record<string, [string, (page: Page) => Promise<void>]> = {
    '/': [`/?${range}`, (p) => p.waitForSelector('.kpi').then(() => {})],
    '/report': [`/report?${range}&attribution_model=linear`, (p) => p.waitForSelector('tbody tr').then(() => {})],
    '/conversions': [`/conversions?${range}`, async (p) => {
      await p.waitForSelector('tbody tr button.link');
      // A purchase that came through an ad campaign, so the path shows touchpoints with campaign names.
      await p.locator('tbody tr').filter({ hasText: 'purchase' }).filter({ hasText: 'prospecting-broad' }).first().locator('button.link').click();
      await p.waitForSelector('.path li.credited');
    }],
    '/settings': [`/settings?workspace=${shop.id}`, (p) => p.waitForSelector('#keys-title ~ .table-block tbody tr').then(() => {})],
  };
  const views: [string, string, (page: Page) => Promise<void>][] = [
    ['sign-in', '/', async () => {}],
    ...VIEWS.map(({ path: view }): [string, string, (page: Page) => Promise<void>] => {
      const [url, ready] = special[view] ?? [`${view}?${range}`, settled];
      return [SHOT_NAMES[view] ?? view.slice(1), url, ready];
    }),
    ['attribution-campaigns', `/report?${range}&breakdown=campaign&source=meta`, (p) => p.waitForSelector('tbody tr').then(() => {})],
    ['attribution-models', `/report?${range}&compare=1`, (p) => p.waitForSelector('tbody tr').then(() => {})],
  ];
  fs.mkdirSync(OUT, { recursive: true });
  for (const [width, height, suffix] of only === 'apps' ? [] : ([[1280, 860, 'desktop'], [375, 812, 'phone']] as const)) {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    for (const [name, url, ready] of views) {
      if (name === 'overview' && !(await page.$('.top'))) {
        await page.fill('input[name=email]', 'owner@demo.example');
        await page.fill('input[name=password]', PASSWORD);
        await page.click('button[type=submit]');
        await page.waitForSelector('.top');
      }
      await page.goto(`${base}${url}`);
      await ready(page);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(OUT, `${name}-${suffix}.png`), fullPage: true });
      process.stderr.write(`${name}-${suffix}.png\n`);
    }
    if (problems.length) throw new Error(`browser errors: ${problems.join('\n')}`);
    await context.close();
  }
  if (only !== 'dashboard') await appScreenshots(browser, shop.headers, { date_from: start, date_to: end });
  await browser.close();
} finally {
  await t.close();
}

/** Each MCP App showing a real tool result in the host emulation (docs/mcp.md), light and dark, 760 px wide. */
async function appScreenshots(browser: Awaited<ReturnType<typeof launchChromium>>, headers: Record<string, string>, range: Record<string, string>) {
  const rpc = async (method: string, params: object) => (await postMcp(t.app, { jsonrpc: '2.0', id: 1, method, params }, headers)).body.result;
  // Compared with the two weeks before, which the demo shop also has.
  const lastTwoWeeks = { date_from: new Date(Date.parse(range.date_to!) - 13 * 86_400_000).toISOString().slice(0, 10), date_to: range.date_to };
  const shots: [name: string, tool: string, args: Record<string, unknown>][] = [
    ['app-report-days', 'analytics.query', { interval: 'day', metrics: ['revenue', 'spend', 'roas'], filters: range }],
    ['app-report-channels', 'analytics.query', { breakdown: 'source', metrics: ['revenue', 'roas', 'conversions'], compare_to: 'previous_period', filters: lastTwoWeeks }],
    ['app-attribution', 'attribution.get-data', { models: ['last_click', 'linear', 'data_driven'], filters: range }],
    ['app-books', 'reconciliation.get-data', lastTwoWeeks],
  ];
  // Of the latest orders, the one whose path crossed the most channels, so the models disagree.
  const { conversions } = (await rpc('tools/call', { name: 'conversions.get-recent', arguments: { limit: 20, with_path: true } })).structuredContent;
  const channels = (c: { path: { source: string }[] }) => new Set(c.path.map((p) => p.source)).size;
  const order = conversions.filter((c: { transaction_id: string }) => c.transaction_id).sort((a: any, b: any) => channels(b) - channels(a))[0];
  shots.push(['app-explain', 'attribution.explain', { transaction_id: order.transaction_id }]);
  const { tools } = await rpc('tools/list', {});
  const problems: string[] = [];
  for (const [name, tool, args] of shots) {
    const { contents } = await rpc('resources/read', { uri: tools.find((x: { name: string }) => x.name === tool)._meta.ui.resourceUri });
    const result = await rpc('tools/call', { name: tool, arguments: args });
    for (const theme of ['light', 'dark'] as const) {
      const page = await openHost(browser, problems, { width: 760, height: 600 });
      const frame = await showApp(page, { html: contents[0].text, args, result, theme });
      await frame.waitForSelector('.table-block tbody tr');
      // The frame takes the height the app reports; the page is then sized to it, so the whole frame is drawn.
      await page.waitForFunction(() => document.querySelector('iframe')!.getBoundingClientRect().height > 200);
      await page.setViewportSize({ width: 760, height: await page.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height) + 32) });
      await page.screenshot({ path: path.join(OUT, `${name}-${theme}.png`) });
      process.stderr.write(`${name}-${theme}.png\n`);
      await page.context().close();
    }
  }
  if (problems.length) throw new Error(`browser errors: ${problems.join('\n')}`);
}
