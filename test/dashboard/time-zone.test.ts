/**
 * The dashboard reads every view on the workspace's calendar: its JSON endpoints take the zone from
 * the workspace setting, the presets are the zone's complete days, the overview compares with as
 * many days before (up to the same time of day when the range holds today), and every view shows
 * the zone. Checked through the JSON endpoints and in headless Chromium.
 * Fixture, for each of two workspaces whose days differ from UTC's in opposite directions (Kiritimati,
 * UTC+14, and Pago Pago, UTC-11, so that at any moment one of them has another date than UTC):
 *   purchases of 100.00 at local noon yesterday and three days ago (the last 7 days) and nine days
 *   ago (the 7 days before), and ads rows of 10.00 on each of the 14 local dates before today
 *   (today's spend is not imported yet, as on a real morning).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { createUser, signIn, signedInPage, type Signed } from './helpers.ts';

interface Zoned {
  zone: string;
  /** The zone's fixed offset, as in an ISO timestamp. */
  offset: string;
  ws: TestWorkspace;
}

let t: TestApp;
let kiritimati: Zoned;
let pagoPago: Zoned;
let owner: Signed;
let base: string;
let browser: Browser;
const errors: string[] = [];

/** The date `n` days from today in `zone` (read with Intl, independently of the service's code). */
function day(zone: string, n = 0): string {
  const parts: Record<string, string> = {};
  for (const p of new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(Date.now())) parts[p.type] = p.value;
  const today = Date.parse(`${parts.year}-${parts.month}-${parts.day}T00:00:00Z`);
  return new Date(today + n * 86_400_000).toISOString().slice(0, 10);
}

/** A local wall-clock time of the zone as the API's UTC timestamp. */
const utc = (z: Zoned, date: string, time: string) => new Date(Date.parse(`${date}T${time}${z.offset}`)).toISOString().slice(0, 19).replace('T', ' ');

async function zoned(name: string, zone: string, offset: string): Promise<Zoned> {
  const ws = await createTestWorkspace(t.stores, name);
  await updateSettings(t.stores.db, ws.id, { timezone: zone });
  const z = { zone, offset, ws };
  const purchase = (n: number, session: number) => ({
    store_id: ws.id, dt: utc(z, day(zone, n), '12:00:00'), name: 'purchase', session_id: session, visitor_id: session,
    transaction_id: `T${session}`, transaction_gross_revenue: 10_000, transaction_currency: 'USD',
  });
  await insertRows(t.stores, 'conversions', [purchase(-1, 1), purchase(-3, 3), purchase(-9, 9)]);
  await insertRows(t.stores, 'ads', Array.from({ length: 14 }, (_, i) => ({
    store_id: ws.id, dt: day(zone, -14 + i), source: 'meta', ad_id: 'm1', spend: 1_000, version: 1,
  })));
  await createUser(t, 'ada@example.com', ws.id);
  return z;
}

before(async () => {
  t = await startTestApp();
  kiritimati = await zoned('Kiritimati', 'Pacific/Kiritimati', '+14:00');
  pagoPago = await zoned('Pago Pago', 'Pacific/Pago_Pago', '-11:00');
  owner = await signIn(t, 'ada@example.com');
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await t.close();
  assert.deepEqual(errors, [], 'no console errors or CSP violations');
});

describe('the JSON endpoints read the workspace\'s zone', () => {
  for (const which of ['kiritimati', 'pagoPago'] as const) {
    test(`${which}: without dates, the overview is the last 7 complete local days against the 7 before`, async () => {
      const z = which === 'kiritimati' ? kiritimati : pagoPago;
      const { status, body } = await owner.get(`/dashboard/api/overview?workspace=${z.ws.id}`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.range, { start_date: utc(z, day(z.zone, -7), '00:00:00'), end_date: utc(z, day(z.zone, -1), '23:59:59') });
      assert.deepEqual(body.previous_range, { start_date: utc(z, day(z.zone, -14), '00:00:00'), end_date: utc(z, day(z.zone, -8), '23:59:59') });
      assert.equal(body.partial, false);
      assert.equal(body.settings_applied.timezone, z.zone);
      assert.deepEqual([body.totals.revenue, body.previous.revenue, body.totals.spend, body.previous.spend], [200, 100, 70, 70]);
      assert.deepEqual(body.series.map((r: { date: string }) => r.date), [-7, -6, -5, -4, -3, -2, -1].map((n) => day(z.zone, n)));
    });
  }

  test('the views answer /v3/report\'s numbers in the workspace\'s zone, whatever timezone the URL names', async () => {
    const z = kiritimati;
    const range = `start_date=${day(z.zone, -3)}&end_date=${day(z.zone, -1)}&breakdown=source`;
    const viaApi = (await t.app.inject({ method: 'GET', url: `/v3/report?${range}&timezone=${z.zone}`, headers: z.ws.headers })).json();
    const viaDashboard = await owner.get(`/dashboard/api/report?workspace=${z.ws.id}&${range}&timezone=UTC`);
    const { data, totals, pagination, settings_applied } = viaDashboard.body;
    assert.deepEqual({ data, totals, pagination, settings_applied }, viaApi);
    assert.equal(viaApi.settings_applied.timezone, z.zone);
    const conversions = await owner.get(`/dashboard/api/conversions?workspace=${z.ws.id}`);
    assert.deepEqual(conversions.body.data.map((c: { transaction_id: string }) => c.transaction_id), ['T1', 'T3']);
    // A download covers what the view shows: the same days of the same zone.
    const download = await t.app.inject({ method: 'GET', url: `/dashboard/api/export/conversions?workspace=${z.ws.id}`, headers: { cookie: owner.cookie } });
    assert.equal(download.statusCode, 200, download.body);
    assert.equal(download.headers['content-disposition'], `attachment; filename="storelens-conversions-${day(z.zone, -7)}_${day(z.zone, -1)}.ndjson"`);
    assert.deepEqual(download.body.trim().split('\n').map((line) => JSON.parse(line).transaction_id), ['T3', 'T1']);
  });

  test('a view\'s sent timezone must be a zone and gives way to the workspace\'s', async () => {
    const z = kiritimati;
    const range = `workspace=${z.ws.id}&start_date=${day(z.zone, -3)}&end_date=${day(z.zone, -1)}`;
    for (const endpoint of ['reconciliation', 'conversions/names', 'customers', 'overview']) {
      const asSent = await owner.get(`/dashboard/api/${endpoint}?${range}&timezone=${z.zone}`);
      const other = await owner.get(`/dashboard/api/${endpoint}?${range}&timezone=UTC`);
      assert.equal(asSent.status, 200, JSON.stringify(asSent.body));
      assert.deepEqual(other.body, asSent.body, `${endpoint}: the workspace's zone wins`);
      const refused = await owner.get(`/dashboard/api/${endpoint}?${range}&timezone=Mars/Base`);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.message, 'Invalid timezone: Mars/Base. Use an IANA time zone name such as Europe/Berlin');
    }
  });

  test('today is compared with yesterday up to the same time; spend and what is built on it are not compared', async () => {
    for (const z of [kiritimati, pagoPago]) {
      const today = day(z.zone);
      const asked = Date.now();
      const { body } = await owner.get(`/dashboard/api/overview?workspace=${z.ws.id}&start_date=${today}&end_date=${today}`);
      const answered = Date.now();
      assert.equal(body.partial, true);
      assert.equal(body.previous_range.start_date, utc(z, day(z.zone, -1), '00:00:00'));
      // The previous day is cut where today stood when the overview was asked, at the start of
      // that minute (these zones' days are all 24 hours; end_date is the last second before it).
      assert.match(body.previous_range.end_date, /:59$/);
      const cut = Date.parse(`${body.previous_range.end_date.replace(' ', 'T')}Z`) + 1000 + 86_400_000;
      assert.ok(cut >= Math.floor(asked / 60_000) * 60_000 && cut <= answered, `${body.previous_range.end_date}`);
      const yesterdayNoon = Date.parse(`${day(z.zone, -1)}T12:00:00${z.offset}`);
      const expected = Date.parse(`${body.previous_range.end_date.replace(' ', 'T')}Z`) >= yesterdayNoon ? 100 : 0;
      assert.deepEqual(body.previous, { spend: null, revenue: expected, roas: null, conversions: expected / 100, sessions: 0, cr: null, net_profit: null });
    }
  });

  test('/dashboard/api/me names each workspace\'s zone', async () => {
    const me = await owner.get('/dashboard/api/me');
    assert.deepEqual(me.body.workspaces.map((w: { name: string; timezone: string }) => [w.name, w.timezone]), [
      ['Kiritimati', 'Pacific/Kiritimati'], ['Pago Pago', 'Pacific/Pago_Pago'],
    ]);
  });
});

async function overview(z: Zoned): Promise<Page> {
  const page = await signedInPage(browser, `${base}/?workspace=${z.ws.id}`, 'ada@example.com', errors);
  await page.waitForSelector('[data-testid="comparison"]');
  return page;
}

const kpiChange = (page: Page, metric: string) => page.locator(`.kpi[data-metric="${metric}"] .kpi-change`).textContent();
const params = (page: Page) => new URL(page.url()).searchParams;

describe('in the browser', () => {
  test('presets are the workspace\'s days; the overview compares complete days, and today up to now', async () => {
    for (const z of [kiritimati, pagoPago]) {
      const page = await overview(z);
      assert.equal(await page.getByTestId('time-zone').textContent(), `Time zone: ${z.zone}`);
      assert.equal(await page.getByLabel('Date range').inputValue(), '7d');
      assert.deepEqual([await page.getByLabel('From', { exact: true }).inputValue(), await page.getByLabel('To', { exact: true }).inputValue()], [day(z.zone, -7), day(z.zone, -1)]);
      assert.equal(await page.getByTestId('comparison').textContent(),
        `${day(z.zone, -7)} to ${day(z.zone, -1)}, compared with ${day(z.zone, -14)} to ${day(z.zone, -8)} (${z.zone}).`);
      assert.equal(await kpiChange(page, 'revenue'), '+100.0 % vs previous period');
      assert.equal(await kpiChange(page, 'spend'), '+0.0 % vs previous period');

      await page.getByLabel('Date range').selectOption('yesterday');
      await page.waitForFunction((d) => new URL(location.href).searchParams.get('start_date') === d, day(z.zone, -1));
      assert.deepEqual([params(page).get('start_date'), params(page).get('end_date')], [day(z.zone, -1), day(z.zone, -1)]);
      await page.waitForFunction((d) => document.querySelector('[data-testid="comparison"]')?.textContent?.startsWith(`${d},`), day(z.zone, -1));

      await page.getByLabel('Date range').selectOption('today');
      await page.waitForFunction((d) => document.querySelector('[data-testid="comparison"]')?.textContent?.startsWith(`${d} until`), day(z.zone));
      assert.deepEqual([params(page).get('start_date'), params(page).get('end_date')], [day(z.zone), day(z.zone)]);
      assert.match(await page.getByTestId('comparison').textContent() ?? '',
        new RegExp(`^${day(z.zone)} until (\\d\\d:\\d\\d), compared with ${day(z.zone, -1)} until \\1 \\(${z.zone.replace('/', '\\/')}\\); spend comes by whole day`));
      assert.equal(await kpiChange(page, 'spend'), 'no comparison');
      await page.context().close();
    }
  });

  test('an owner sets the time zone in the settings: a refused name is shown with the reason and not saved, a zone changes every view', async () => {
    const moving = await zoned('Moving', 'Pacific/Kiritimati', '+14:00');
    const page = await signedInPage(browser, `${base}/settings?workspace=${moving.ws.id}`, 'ada@example.com', errors);
    const field = page.getByLabel('Time zone (IANA name');
    assert.equal(await field.inputValue(), 'Pacific/Kiritimati');
    await field.fill('Mars/Base');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    assert.equal(await page.getByRole('alert').textContent(), 'Not saved: timezone: Invalid timezone: Mars/Base. Use an IANA time zone name such as Europe/Berlin');
    assert.equal((await owner.get(`/dashboard/api/settings?workspace=${moving.ws.id}`)).body.settings.timezone, 'Pacific/Kiritimati');
    assert.equal(await page.getByTestId('time-zone').textContent(), 'Time zone: Pacific/Kiritimati');

    await field.fill('pacific/pago_pago');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('Saved. Every view now shows the days of Pacific/Pago_Pago.').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="time-zone"]')?.textContent === 'Time zone: Pacific/Pago_Pago');
    assert.equal(await field.inputValue(), 'Pacific/Pago_Pago');
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Overview' }).click();
    await page.waitForSelector('[data-testid="comparison"]');
    assert.deepEqual([await page.getByLabel('From', { exact: true }).inputValue(), await page.getByLabel('To', { exact: true }).inputValue()], [day(pagoPago.zone, -7), day(pagoPago.zone, -1)]);
    assert.equal(await page.getByTestId('comparison').textContent(),
      `${day(pagoPago.zone, -7)} to ${day(pagoPago.zone, -1)}, compared with ${day(pagoPago.zone, -14)} to ${day(pagoPago.zone, -8)} (Pacific/Pago_Pago).`);
    await page.context().close();
  });

  test('every view shows the zone', async () => {
    const page = await overview(kiritimati);
    for (const view of ['Attribution', 'Conversions', 'Profit', 'Live', 'Settings', 'Overview']) {
      await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: view }).click();
      await page.waitForFunction((v) => document.querySelector('main h1')?.textContent === v, view);
      assert.equal(await page.getByTestId('time-zone').textContent(), 'Time zone: Pacific/Kiritimati', view);
    }
    await page.getByLabel('Workspace').selectOption(String(pagoPago.ws.id));
    await page.waitForFunction(() => document.querySelector('[data-testid="time-zone"]')?.textContent === 'Time zone: Pacific/Pago_Pago');
    assert.deepEqual([await page.getByLabel('From', { exact: true }).inputValue(), await page.getByLabel('To', { exact: true }).inputValue()], [day(pagoPago.zone, -7), day(pagoPago.zone, -1)]);
    await page.context().close();
  });
});
