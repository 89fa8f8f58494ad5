/**
 * The loyalty, creators and AI visibility views in headless Chromium (Debian's /usr/bin/chromium
 * via playwright-core), each checked against the tool's answer for the same workspace and days.
 * Fixture: workspace "Berlin shop" (EUR, Europe/Berlin) with 3 days of the demo shop, whose
 * traffic carries the demo creators' ref and coupon codes; ada owns it, vic views it. The
 * AI-visibility assistant is the chat-completions double of test/ai-visibility, configured only
 * for the test that runs it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemo } from '../../src/cli/demo/seed.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { toolOk } from '../mcp/rpc.ts';
import { startChatDouble, type ChatDouble } from '../ai-visibility/chat-double.ts';
import { cli, createUser, signedInPage } from './helpers.ts';

const ZONE = 'Europe/Berlin';
const DAY = 86_400_000;
const dayIn = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
const today = dayIn(Date.now());
const twoDaysAgo = dayIn(Date.now() - 2 * DAY);
const toolDays = { date_from: twoDaysAgo, date_to: today, timezone: ZONE };

/** The dashboard's number forms (src/ui/format.ts), in the workspace currency. */
const money = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
const count = (n: number) => new Intl.NumberFormat('en-US').format(n);
const percent = (f: number | null) => (f === null ? '–' : `${(f * 100).toFixed(2)} %`);

let t: TestApp;
let shop: TestWorkspace;
let base: string;
let browser: Browser;
let double: ChatDouble;
const errors: string[] = [];

before(async () => {
  double = await startChatDouble((question) => ({ content: question.includes('boots') ? 'Trailfox, then Berlin shop.' : 'Berlin shop is the one to try.' }));
  t = await startTestApp({ llm: null });
  shop = await createTestWorkspace(t.stores, 'Berlin shop', 'EUR');
  await updateSettings(t.stores.db, shop.id, { timezone: ZONE });
  await seedDemo(t.stores.ch, { workspaceId: shop.id, days: 3, sessionsPerDay: 300 });
  await createUser(t, 'ada@example.com', shop.id);
  await createUser(t, 'vic@example.com', shop.id, ['--role', 'viewer']);
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await t.close();
  double.close();
  assert.deepEqual(errors, [], 'no console errors or CSP violations');
});

const signedIn = (email: string, path: string): Promise<Page> => signedInPage(browser, `${base}${path}`, email, errors);

/** The table under the heading `caption`, once it has rows: the text of every cell, row by row. */
async function tableCells(page: Page, caption: string | RegExp): Promise<string[][]> {
  const block: Locator = page.locator('.table-block').filter({ has: page.getByRole('heading', { name: caption }) });
  await block.locator('tbody tr').first().waitFor();
  return block.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent ?? '')));
}

const kpi = (page: Page, metric: string) => page.locator(`.kpi[data-metric=${metric}] .kpi-value`).textContent();

test('Loyalty shows the programs and repeat purchases as loyalty.get-programs and get-analytics give them; an owner sets a program up', async () => {
  assert.ok('result' in (await cli(t, ['loyalty', 'create', '--workspace', String(shop.id), '--name', 'Points', '--points-per-unit', '2', '--start', twoDaysAgo])));
  const path = `/loyalty?workspace=${shop.id}&start_date=${twoDaysAgo}&end_date=${today}`;
  const page = await signedIn('ada@example.com', path);
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Loyalty');
  const programRow = (p: Record<string, any>) => [p.name, count(p.points_per_unit), p.start_date, count(p.members), count(p.points_earned), money(p.revenue)];
  const { programs } = await toolOk(t.app, shop.headers, 'loyalty.get-programs', {});
  assert.ok(programs[0].members > 0, 'the demo orders make members');
  assert.deepEqual(await tableCells(page, 'Loyalty programs'), programs.map(programRow));

  const { loyalty } = await toolOk(t.app, shop.headers, 'loyalty.get-analytics', toolDays);
  assert.ok(loyalty.customers > 0);
  assert.deepEqual(
    [await kpi(page, 'customers'), await kpi(page, 'repeat_customers'), await kpi(page, 'repeat_rate'), await kpi(page, 'revenue'), await kpi(page, 'repeat_revenue_share')],
    [count(loyalty.customers), count(loyalty.repeat_customers), percent(loyalty.repeat_rate), money(loyalty.revenue), percent(loyalty.repeat_revenue_share)],
  );
  // Its revenue and the overview's differ for the same days; the view says why beside the tiles.
  assert.match((await page.getByTestId('revenue-basis').textContent())!, /sale orders that name a customer.*overview's\s+revenue is the pixel's conversions/s);
  assert.deepEqual(await tableCells(page, /^Customers who ordered from/), loyalty.buckets.map((b: any) => [b.orders, count(b.customers), money(b.revenue)]));

  await page.getByLabel('Name', { exact: true }).fill('Double points');
  await page.getByLabel('Points per unit of currency').fill('4');
  await page.getByLabel('First day').fill(twoDaysAgo);
  await page.getByRole('button', { name: 'Create program' }).click();
  await page.getByRole('status').filter({ hasText: '“Double points” is set up.' }).waitFor();
  await page.locator('tbody tr', { hasText: 'Double points' }).waitFor();
  const after = await toolOk(t.app, shop.headers, 'loyalty.get-programs', {});
  assert.deepEqual(after.programs.map((p: any) => [p.name, p.points_per_unit, p.start_date]), [['Points', 2, twoDaysAgo], ['Double points', 4, twoDaysAgo]]);
  assert.deepEqual(await tableCells(page, 'Loyalty programs'), after.programs.map(programRow));
  await page.context().close();

  const viewer = await signedIn('vic@example.com', path);
  assert.deepEqual(await tableCells(viewer, 'Loyalty programs'), after.programs.map(programRow));
  assert.equal(await viewer.getByRole('button', { name: 'Create program' }).count(), 0);
  await viewer.context().close();
});

test('Creators shows the codes of the traffic with their figures as creators.get-creators; an owner applies a program and its creator\'s commission shows', async () => {
  const { program } = await toolOk(t.app, shop.headers, 'creators.create-program', { name: 'Ten percent', commission: { type: 'percentage', rate_percent: 10 } });
  const { creator } = await toolOk(t.app, shop.headers, 'creators.create', { name: 'Maya', program_id: program.id });
  // One order of 50.00 with Maya's code as its coupon: 10 % of it is 5.00 once the program is applied.
  await insertRows(t.stores, 'conversions', [{
    store_id: shop.id, session_id: 990_001, visitor_id: 990_001, dt: new Date(Date.now() - DAY).toISOString().replace('T', ' ').slice(0, 23),
    name: 'purchase', transaction_id: 'maya-1', transaction_gross_revenue: 5_000, coupon_code: creator.tracking_code,
  }]);
  const path = `/creators?workspace=${shop.id}&start_date=${twoDaysAgo}&end_date=${today}`;
  const expected = async () => {
    const { creators } = await toolOk(t.app, shop.headers, 'creators.get-creators', toolDays);
    return creators.map((c: any) => [
      c.code, c.codes.join(', '), c.creator?.name ?? 'not stored', c.creator ? 'Ten percent' : '', count(c.sessions), count(c.orders), money(c.revenue),
      c.commission === null ? '–' : money(c.commission), c.coupon_codes.join(', '),
    ]);
  };
  const programsTable = (page: Page) => page.locator('.table-block').filter({ has: page.getByRole('heading', { name: 'Creator programs' }) });

  const viewer = await signedIn('vic@example.com', path);
  const { creators } = await toolOk(t.app, shop.headers, 'creators.get-creators', toolDays);
  assert.ok(creators.filter((c: any) => c.sessions > 0).length >= 4, 'the demo traffic carries the creators\' codes');
  assert.ok(creators.every((c: any) => c.commission === null), 'no program is applied yet');
  assert.deepEqual(await tableCells(viewer, `Creators from ${twoDaysAgo} to ${today}`), await expected());
  assert.deepEqual(await tableCells(viewer, 'Creator programs'), [['Ten percent', '10 % of revenue', 'not yet']]);
  assert.equal(await programsTable(viewer).getByRole('button', { name: /apply/i }).count(), 0, 'a viewer has no Apply button');
  await viewer.context().close();

  const owner = await signedIn('ada@example.com', path);
  await programsTable(owner).getByRole('button', { name: 'Apply', exact: true }).click();
  await owner.getByRole('status').filter({ hasText: '“Ten percent” is applied' }).waitFor();
  await programsTable(owner).getByRole('button', { name: 'Un-apply' }).waitFor();
  const maya = (await toolOk(t.app, shop.headers, 'creators.get-creators', toolDays)).creators.find((c: any) => c.creator?.name === 'Maya');
  assert.deepEqual([maya.revenue, maya.commission], [50, 5]);
  assert.deepEqual(await tableCells(owner, `Creators from ${twoDaysAgo} to ${today}`), await expected());
  assert.deepEqual((await tableCells(owner, 'Creator programs'))[0]!.slice(2), [`since ${new Date().toISOString().slice(0, 10)}`, 'Un-apply']);

  // The owner ties the demo traffic's MAYA code to the stored Maya: her row counts both codes, commission included.
  const mayaCode = creators.find((c: any) => c.code === 'MAYA');
  await owner.locator('form select[name=creator]').selectOption(creator.id);
  await owner.locator('form input[name=code]').fill('maya');
  await owner.getByRole('button', { name: 'Link code' }).click();
  await owner.getByRole('status').filter({ hasText: `Maya now counts ${creator.tracking_code}, MAYA.` }).waitFor();
  const linked = (await toolOk(t.app, shop.headers, 'creators.get-creators', toolDays)).creators;
  const mayaNow = linked.find((c: any) => c.creator?.name === 'Maya');
  assert.deepEqual([mayaNow.codes, mayaNow.revenue], [[creator.tracking_code, 'MAYA'], Math.round((50 + mayaCode.revenue) * 100) / 100]);
  assert.equal(linked.some((c: any) => c.code === 'MAYA'), false);
  await owner.waitForFunction((code) => [...document.querySelectorAll('td')].some((td) => td.textContent === `${code}, MAYA`), creator.tracking_code);
  assert.deepEqual(await tableCells(owner, `Creators from ${twoDaysAgo} to ${today}`), await expected());
  await owner.context().close();
});

test('AI visibility explains the missing assistant setting; configured, an owner runs the prompts and sees the checks get-results gives', async () => {
  for (const prompt of ['Which shop for running shoes?', 'Where to buy boots?']) {
    await toolOk(t.app, shop.headers, 'ai-visibility.create-prompt', { prompt, competitors: ['Trailfox'] });
  }
  const page = await signedIn('ada@example.com', `/ai-visibility?workspace=${shop.id}`);
  const note = page.getByTestId('ai-not-configured');
  await note.waitFor();
  assert.match((await note.textContent())!.replace(/\s+/g, ' '), /No assistant is configured .* To run them, set STORELENS_LLM_URL on the server .* with STORELENS_LLM_KEY and STORELENS_LLM_MODEL as needed, then restart it\.$/s);
  assert.equal(await page.getByRole('button', { name: 'Run prompts now' }).count(), 0);
  assert.deepEqual((await tableCells(page, 'Tracked questions')).map((cells) => cells[3]), ['not asked yet', 'not asked yet']);

  t.config.llm = { url: double.url, apiKey: null, model: 'gpt-4o-mini', timeoutMs: 5000, allowPrivate: true };
  try {
    await page.reload();
    await page.getByRole('button', { name: 'Run prompts now' }).click();
    await page.getByRole('status').filter({ hasText: 'Asked 2 prompts.' }).waitFor();
    assert.equal(double.requests.length, 2);
    const read = await toolOk(t.app, shop.headers, 'ai-visibility.get-results', {});
    const shown = (p: any) => {
      const check = p.results.at(-1);
      return [p.prompt, 'Berlin shop', 'Trailfox', `named, place ${check.position}`, check.competitors_mentioned.join(', '), '1 of 1 answers'];
    };
    await page.getByRole('cell', { name: 'named, place 2' }).waitFor();
    assert.deepEqual((await tableCells(page, 'Tracked questions')).map((cells) => cells.slice(0, 6)), read.prompts.map(shown));
    assert.deepEqual(read.prompts.map((p: any) => p.results.at(-1).position), [1, 2]);
    await page.context().close();

    const viewer = await signedIn('vic@example.com', `/ai-visibility?workspace=${shop.id}`);
    assert.deepEqual((await tableCells(viewer, 'Tracked questions')).map((cells) => cells.slice(0, 6)), read.prompts.map(shown));
    assert.equal(await viewer.getByRole('button', { name: 'Run prompts now' }).count(), 0);
    await viewer.context().close();
  } finally {
    t.config.llm = null;
  }
});
