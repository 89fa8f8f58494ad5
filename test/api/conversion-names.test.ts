/**
 * Counted conversion names (docs/attribution.md, "Counted conversion names"): the workspace setting
 * `conversion_names` decides which names /v3/report, analytics.query and the dashboard count when a
 * request names none; a request's name wins; every answer says which names it counted;
 * metadata.list_schema lists the names with counts; conversions.get-recent filters by name.
 * Fixture (workspace "Names", all on the day before yesterday UTC, admin key), sessions and their conversions:
 *   session 1 facebook: purchase P1 100.00;   session 2 google: purchase P2 200.00
 *   session 3 facebook: lead (no id, 0.00);   session 4 untagged: lead (no id, 0.00)
 *   session 5 google: sign_up_newsletter SU1 5.00
 * Every session lands in A/B test "hero", sessions 1, 3 and 5 in variant A, 2 and 4 in B; sessions 1
 * and 3 add to cart; P1 and the first lead carry the coupon SPRING.
 * ads: facebook 60.00 and google 40.00 of spend that day. Hand-computed totals:
 *   every name (*):                5 conversions, 305.00, cpa 100 / 5 = 20
 *   purchase:                      2 conversions, 300.00, cpa 50; meta 1 / 100.00, google 1 / 200.00,
 *                                  organic (the untagged session) none
 *   lead (a request's name):       2 conversions, 0.00, cpa 50
 *   purchase,sign_up*:             3 conversions, 305.00
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { createUser, signIn, type Signed } from '../dashboard/helpers.ts';
import { toolOk } from '../mcp/rpc.ts';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { signedInPage } from '../dashboard/helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let ada: Signed;

/** Two days ago: conversions.get-recent reads the last 90 days. */
const DAY = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
const RANGE = `start_date=${DAY}&end_date=${DAY}`;
const METRICS = 'metrics=conversions,revenue,cpa';

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Names');
  await createUser(t, 'ada@example.com', shop.id);
  ada = await signIn(t, 'ada@example.com');
  const sessions = ['facebook', 'google', 'facebook', '', 'google'];
  await insertRows(t.stores, 'events', sessions.map((adv_source, i) => ({
    store_id: shop.id, dt: `${DAY} 1${i}:00:00`, name: 'pageview', session_id: i + 1, visitor_id: i + 1, adv_source, pathname: '/',
    entry_meta_keys: ['ab_test', 'ab_variant'], entry_meta_values: ['hero', i % 2 ? 'B' : 'A'],
  })));
  await insertRows(t.stores, 'events', [1, 3].map((session) => ({
    store_id: shop.id, dt: `${DAY} 1${session - 1}:01:00`, name: 'add_to_cart', session_id: session, visitor_id: session, adv_source: 'facebook', pathname: '/cart',
  })));
  const conversions: [string, string, number, string][] = [
    ['purchase', 'P1', 10_000, 'SPRING'], ['purchase', 'P2', 20_000, ''], ['lead', '', 0, 'SPRING'], ['lead', '', 0, ''], ['sign_up_newsletter', 'SU1', 500, ''],
  ];
  await insertRows(t.stores, 'conversions', conversions.map(([name, transaction_id, cents, coupon_code], i) => ({
    store_id: shop.id, dt: `${DAY} 1${i}:05:00`, name, session_id: i + 1, visitor_id: i + 1, transaction_id, transaction_gross_revenue: cents, transaction_currency: 'USD',
    transaction_country_code: 'US', coupon_code,
  })));
  await insertRows(t.stores, 'ads', [
    { store_id: shop.id, dt: DAY, source: 'facebook', adaccount_id: 'A1', campaign_id: 'c1', ad_id: 'f1', spend: 6_000, version: 1 },
    { store_id: shop.id, dt: DAY, source: 'google', adaccount_id: 'G1', campaign_id: 'g1', ad_id: 'g1', spend: 4_000, version: 1 },
  ]);
});
let browser: Browser | undefined;
after(async () => {
  await browser?.close();
  await t.close();
});

const saveSettings = (body: unknown) => ada.send('PUT', `/dashboard/api/settings?workspace=${shop.id}`, body);
const report = async (query: string) => {
  const { status, body } = await injectGet(t, `/v3/report?${RANGE}&${METRICS}${query}`, shop.headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
};
const query = (filters: object = {}) => toolOk(t.app, shop.headers, 'analytics.query', {
  metrics: ['conversions', 'revenue', 'cpa'], filters: { date_from: DAY, date_to: DAY, ...filters },
});
const overview = async () => {
  const { status, body } = await ada.get(`/dashboard/api/overview?workspace=${shop.id}&${RANGE}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
};

async function withNames<T>(names: string, run: () => Promise<T>): Promise<T> {
  const saved = await saveSettings({ conversion_names: names });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  try {
    return await run();
  } finally {
    assert.equal((await saveSettings({ conversion_names: ['*'] })).status, 200);
  }
}

describe('the default, *', () => {
  test('counts every name, as before the setting existed, and says so', async () => {
    assert.deepEqual((await report('')).totals, { conversions: 5, revenue: 305, cpa: 20 });
    const tool = await query();
    assert.deepEqual(tool.totals, { conversions: 5, revenue: 305, cpa: 20 });
    assert.deepEqual(tool.settings_applied.conversion_names, ['*']);
    assert.deepEqual(tool.attribution.conversion_names, ['*']);
    const shown = await overview();
    assert.deepEqual([shown.totals.conversions, shown.totals.revenue, shown.settings_applied.conversion_names], [5, 305, ['*']]);
  });
});

describe('conversion_names=purchase', () => {
  test('changes conversions, revenue and cpa on /v3/report, analytics.query and the dashboard', async () => {
    await withNames('purchase', async () => {
      const body = await report('&breakdown=source');
      assert.deepEqual(body.totals, { conversions: 2, revenue: 300, cpa: 50 });
      assert.deepEqual(body.data.map((r: { source: string; conversions: number; revenue: number }) => [r.source, r.conversions, r.revenue]),
        [['google', 1, 200], ['meta', 1, 100], ['organic', 0, 0]]);
      const tool = await query();
      assert.deepEqual([tool.totals, tool.settings_applied.conversion_names], [{ conversions: 2, revenue: 300, cpa: 50 }, ['purchase']]);
      const shown = await overview();
      assert.deepEqual([shown.totals.conversions, shown.totals.revenue, shown.settings_applied.conversion_names], [2, 300, ['purchase']]);
      const settings = await ada.get(`/dashboard/api/settings?workspace=${shop.id}`);
      assert.deepEqual(settings.body.settings.conversion_names, ['purchase']);
    });
  });

  test('a request\'s name filter wins over the setting, and the answer names it', async () => {
    await withNames('purchase', async () => {
      assert.deepEqual((await report('&name=lead')).totals, { conversions: 2, revenue: 0, cpa: 50 });
      const tool = await query({ conversion_name: 'lead' });
      assert.deepEqual([tool.totals, tool.settings_applied.conversion_names], [{ conversions: 2, revenue: 0, cpa: 50 }, ['lead']]);
      const shown = await ada.get(`/dashboard/api/report?workspace=${shop.id}&${RANGE}&${METRICS}&name=lead`);
      assert.deepEqual([shown.body.totals, shown.body.settings_applied.conversion_names], [{ conversions: 2, revenue: 0, cpa: 50 }, ['lead']]);
    });
  });
});

describe('the order-basis tools', () => {
  test('hourly, map, geo candidates, A/B results, offer opportunities and journeys count the counted names and say so', async () => {
    const counts = async () => {
      const args = { date_from: DAY, date_to: DAY };
      const { hourly } = await toolOk(t.app, shop.headers, 'hourly.get-data', args);
      const { map } = await toolOk(t.app, shop.headers, 'map.get-data', args);
      const { geo_candidates } = await toolOk(t.app, shop.headers, 'geo-testing.get-candidates', { ...args, min_conversions: 1 });
      const { results } = await toolOk(t.app, shop.headers, 'ab-testing.get-results', { ...args, test_id: 'hero' });
      const { opportunities } = await toolOk(t.app, shop.headers, 'offers.get-opportunities', args);
      const { journeys } = await toolOk(t.app, shop.headers, 'journeys.get-data', args);
      const sum = (rows: { conversions: number }[]) => rows.reduce((total, row) => total + row.conversions, 0);
      return [
        sum(hourly.hours), sum(map.places), sum(geo_candidates.candidates), results.variants.map((v: { conversions: number }) => v.conversions),
        opportunities.cart_abandonment.map((c: { channel: string; cart_sessions: number; converted_cart_sessions: number }) => [c.channel, c.cart_sessions, c.converted_cart_sessions]),
        opportunities.coupons.map((c: { coupon_code: string; conversions: number }) => [c.coupon_code, c.conversions]),
        sum(journeys.paths),
        ...[hourly, map, geo_candidates, results, opportunities, journeys].map((answer) => answer.settings_applied),
      ];
    };
    const every = { conversion_names: ['*'] };
    assert.deepEqual(await counts(), [5, 5, 5, [3, 2], [['facebook', 2, 2]], [['SPRING', 2]], 5, every, every, every, every, every, every]);
    await withNames('purchase', async () => {
      const purchase = { conversion_names: ['purchase'] };
      assert.deepEqual(await counts(), [2, 2, 2, [1, 1], [['facebook', 2, 1]], [['SPRING', 1]], 2, purchase, purchase, purchase, purchase, purchase, purchase]);
    });
  });
});

describe('a list with a wildcard, purchase,sign_up*', () => {
  test('counts the purchases and every name that begins sign_up, and nothing else', async () => {
    await withNames('purchase, sign_up*', async () => {
      assert.deepEqual((await report('')).totals, { conversions: 3, revenue: 305, cpa: 33.33 });
      assert.deepEqual((await query()).settings_applied.conversion_names, ['purchase', 'sign_up*']);
    });
  });

  test('an underscore or a dot in a name is literal, not a pattern', async () => {
    await withNames('sign.up*,purchas_', async () => {
      assert.deepEqual((await report('')).totals, { conversions: 0, revenue: 0, cpa: null });
    });
  });
});

describe('conversion names in metadata.list_schema', () => {
  test('lists each name of the range with its conversions and revenue, and whether reports count it', async () => {
    await withNames('purchase', async () => {
      const { schema } = await toolOk(t.app, shop.headers, 'metadata.list_schema', { date_from: DAY, date_to: DAY });
      assert.deepEqual(schema.conversion_names, {
        date_from: DAY, date_to: DAY, timezone: 'UTC',
        names: [
          { name: 'lead', conversions: 2, revenue: 0, counted: false },
          { name: 'purchase', conversions: 2, revenue: 300, counted: true },
          { name: 'sign_up_newsletter', conversions: 1, revenue: 5, counted: false },
        ],
        settings_applied: { conversion_names: ['purchase'] },
      });
    });
  });

  test('a key limited to google sees the names of its own sessions only; the dashboard lists the same', async () => {
    const google = await shop.keyHeaders(['read:google']);
    const { schema } = await toolOk(t.app, google, 'metadata.list_schema', { date_from: DAY, date_to: DAY });
    assert.deepEqual(schema.conversion_names.names.map((n: { name: string; conversions: number }) => [n.name, n.conversions]),
      [['purchase', 1], ['sign_up_newsletter', 1]]);
    const { status, body } = await ada.get(`/dashboard/api/conversions/names?workspace=${shop.id}&${RANGE}`);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.names.map((n: { name: string; conversions: number; counted: boolean }) => [n.name, n.conversions, n.counted]),
      [['lead', 2, true], ['purchase', 2, true], ['sign_up_newsletter', 1, true]]);
    assert.deepEqual([body.conversion_names, body.range], [['*'], { start_date: DAY, end_date: DAY, timezone: 'UTC' }]);
  });
});

describe('conversions.get-recent', () => {
  const recent = (args: object) => toolOk(t.app, shop.headers, 'conversions.get-recent', { limit: 20, ...args });
  const names = (answer: { conversions: { name: string; transaction_id: string }[] }) => answer.conversions.map((c) => `${c.name}:${c.transaction_id}`);

  test('a name filter lists only that name, a pattern the names it matches', async () => {
    const leads = await recent({ name: 'lead' });
    assert.deepEqual([names(leads), leads.settings_applied], [['lead:', 'lead:'], { conversion_names: ['lead'] }]);
    assert.deepEqual(names(await recent({ name: 'sign_up*' })), ['sign_up_newsletter:SU1']);
  });

  test('without one it lists the names the workspace counts', async () => {
    assert.equal((await recent({})).conversions.length, 5);
    await withNames('purchase', async () => {
      const purchases = await recent({});
      assert.deepEqual([names(purchases), purchases.settings_applied], [['purchase:P2', 'purchase:P1'], { conversion_names: ['purchase'] }]);
    });
  });
});

describe('hostile values of the setting', () => {
  test('are refused with a 400 naming the setting, and nothing changes', async () => {
    const refusals: [unknown, string][] = [
      ["purchase'; DROP TABLE conversions --", 'conversion_names: each name must be 1-64 letters, digits or _ . : - with * matching any run of characters'],
      [['purchase', 'le ad'], 'conversion_names: each name must be 1-64 letters, digits or _ . : - with * matching any run of characters'],
      ['x'.repeat(65), 'conversion_names: each name must be 1-64 letters, digits or _ . : - with * matching any run of characters'],
      [Array.from({ length: 21 }, (_, i) => `name${i}`), 'conversion_names: at most 20 names'],
      ['', 'conversion_names: at least one name (* counts every name)'],
      [[], 'conversion_names: at least one name (* counts every name)'],
      [42, 'conversion_names: must be a list of names'],
      [[{ name: 'purchase' }], 'conversion_names: each name must be 1-64 letters, digits or _ . : - with * matching any run of characters'],
    ];
    for (const [value, message] of refusals) {
      assert.deepEqual(await saveSettings({ conversion_names: value }), { status: 400, body: { message } }, JSON.stringify(value));
    }
    assert.deepEqual((await ada.get(`/dashboard/api/settings?workspace=${shop.id}`)).body.settings.conversion_names, ['*']);
    assert.deepEqual((await report('')).totals, { conversions: 5, revenue: 305, cpa: 20 });
  });
});

describe('the dashboard in Chromium', () => {
  test('the conversions view lists the names with counts and filters by one; the settings view saves the names the overview then counts', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    const errors: string[] = [];
    const page = await signedInPage(browser, `${base}/conversions?workspace=${shop.id}&${RANGE}`, 'ada@example.com', errors);
    const chip = (name: string) => page.locator(`button.chip[data-name="${name}"]`);
    await chip('lead').waitFor();
    assert.deepEqual(await page.locator('button.chip[data-name]').allInnerTexts(),
      ['lead · 2 · $0.00', 'purchase · 2 · $300.00', 'sign_up_newsletter · 1 · $5.00']);
    assert.equal(await page.getByTestId('counted-names').textContent(), 'Conversions counted: every name (*)');
    await chip('lead').click();
    await page.waitForURL(/name=lead/);
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 2);
    assert.deepEqual(await page.locator('tbody tr td:nth-child(2)').allInnerTexts(), ['lead', 'lead']);

    await page.goto(`${base}/settings?workspace=${shop.id}`);
    await page.getByLabel(/Conversion names the reports count/).fill('purchase');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved.').waitFor();
    try {
      await page.goto(`${base}/?workspace=${shop.id}&${RANGE}`);
      await page.getByText('Conversions counted: purchase').waitFor();
      await page.goto(`${base}/conversions?workspace=${shop.id}&${RANGE}`);
      await chip('lead').waitFor();
      assert.deepEqual(await page.locator('button.chip[data-name]').allInnerTexts(),
        ['lead · 2 · $0.00 (not counted)', 'purchase · 2 · $300.00', 'sign_up_newsletter · 1 · $5.00 (not counted)']);
      await page.goto(`${base}/settings?workspace=${shop.id}`);
      await page.getByLabel(/Conversion names the reports count/).fill('le ad');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByRole('alert').waitFor();
      assert.match(await page.getByRole('alert').textContent() ?? '', /conversion_names: each name must be 1-64 letters/);
    } finally {
      assert.equal((await saveSettings({ conversion_names: ['*'] })).status, 200);
    }
    assert.deepEqual(errors, []);
  });
});
