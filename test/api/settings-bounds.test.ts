/**
 * Settings that cannot break a workspace: every stored setting is bounded (400 naming the setting
 * and the bound), and the longest list allowed, 100,000 excluded transaction ids, still gives
 * /v3/report and analytics.query their numbers on both analytics transports, since the list reaches
 * the engine as a table and never as a query parameter. The owner saves through the dashboard.
 * Fixture: workspace "Shop" (owner ada) with purchases T1..T4 of 100, 200, 300 and 400.00 in
 * sessions from facebook, google, tiktok and untagged traffic on 2026-03-02, and platform orders
 * O-5 (500.00) and O-6 named #1006 (600.00) that no pixel conversion matches;
 * include_unattributed is on.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { createUser, signIn, type Signed } from '../dashboard/helpers.ts';
import { toolOk } from '../mcp/rpc.ts';

let t: TestApp;
let shop: TestWorkspace;
let ada: Signed;

const RANGE = 'start_date=2026-03-01&end_date=2026-03-07';
const TOTALS = `${RANGE}&metrics=revenue,conversions`;
const fillers = (n: number) => Array.from({ length: n }, (_, i) => `FILL-${String(i).padStart(6, '0')}`);

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  await createUser(t, 'ada@example.com', shop.id);
  ada = await signIn(t, 'ada@example.com');
  const sources = ['facebook', 'google', 'tiktok', ''];
  await insertRows(t.stores, 'events', sources.map((source, i) => ({
    store_id: shop.id, dt: `2026-03-02 1${i}:00:00`, name: 'pageview', session_id: i + 1, visitor_id: i + 1, adv_source: source, pathname: '/',
  })));
  await insertRows(t.stores, 'conversions', sources.map((_, i) => ({
    store_id: shop.id, dt: `2026-03-02 1${i}:05:00`, name: 'purchase', session_id: i + 1, visitor_id: i + 1,
    transaction_id: `T${i + 1}`, transaction_gross_revenue: 10000 * (i + 1), transaction_currency: 'USD',
  })));
  await insertRows(t.stores, 'orders', [
    { store_id: shop.id, transaction_id: 'O-5', dt: '2026-03-03 09:00:00', gross_revenue: 50000, version: 1 },
    { store_id: shop.id, transaction_id: 'O-6', order_name: '#1006', dt: '2026-03-03 10:00:00', gross_revenue: 60000, version: 1 },
  ]);
  assert.equal((await saveSettings({ include_unattributed: true })).status, 200);
});
after(() => t.close());

const saveSettings = (body: unknown) => ada.send('PUT', `/dashboard/api/settings?workspace=${shop.id}`, body);
const report = (query: string) => injectGet(t, `/v3/report?${query}`, shop.headers);
const toolTotals = async () => (await toolOk(t.app, shop.headers, 'analytics.query', {
  metrics: ['revenue', 'conversions'], filters: { date_from: '2026-03-01', date_to: '2026-03-07' },
})) as { totals: Record<string, number>; settings_applied: Record<string, unknown> };

describe('100,000 excluded transaction ids', () => {
  const list = [...fillers(99_997), 'T2', 'O-5', '#1006'];

  test('are saved, and /v3/report and analytics.query answer 200 with those transactions left out', async () => {
    assert.deepEqual((await report(TOTALS)).body.totals, { revenue: 2100, conversions: 6 });
    const saved = await saveSettings({ excluded_transaction_ids: list });
    assert.equal(saved.status, 200);
    assert.equal(saved.body.settings.excluded_transaction_ids.length, 100_000);
    // T2 by its id, O-5 by its id and O-6 by its name #1006: 100 + 300 + 400 left.
    const rows = await report(`${TOTALS}&breakdown=source`);
    assert.equal(rows.status, 200);
    assert.deepEqual(rows.body.totals, { revenue: 800, conversions: 3 });
    assert.deepEqual(rows.body.data.map((r: { source: string; revenue: number }) => [r.source, r.revenue]),
      [['organic', 400], ['tiktok', 300], ['meta', 100], ['google', 0]]);
    const learned = await report(`${TOTALS}&attribution_model=markov`);
    assert.deepEqual([learned.status, learned.body.totals], [200, { revenue: 800, conversions: 3 }], 'the Markov chain reads the list too');
    const tool = await toolTotals();
    assert.deepEqual(tool.totals, { revenue: 800, conversions: 3 });
    assert.equal(tool.settings_applied.excluded_transaction_count, 100_000);
    assert.deepEqual(tool.settings_applied.excluded_transaction_ids, list.slice(0, 100), 'the first 100, so that no answer carries megabytes of ids');
  });

  test('one more id is 400 naming the setting and the bound, and nothing changes', async () => {
    const refused = await saveSettings({ excluded_transaction_ids: [...list, 'T1'], refund_netting: true });
    assert.deepEqual(refused, { status: 400, body: { message: 'excluded_transaction_ids: at most 100000 ids' } });
    assert.deepEqual((await report(TOTALS)).body.totals, { revenue: 800, conversions: 3 });
    assert.equal((await ada.get(`/dashboard/api/settings?workspace=${shop.id}`)).body.settings.refund_netting, false);
  });

  test('a list stored before the bound existed, longer than it, still gives every report its numbers', async () => {
    const old = [...fillers(149_999), 'T4'];
    const row = await t.stores.db.selectFrom('workspaces').select('settings').where('id', '=', shop.id).executeTakeFirstOrThrow();
    await t.stores.db.updateTable('workspaces').set({ settings: JSON.stringify({ ...JSON.parse(row.settings), excluded_transaction_ids: old }) }).where('id', '=', shop.id).execute();
    assert.deepEqual((await report(TOTALS)).body.totals, { revenue: 1700, conversions: 5 });
    assert.deepEqual((await toolTotals()).totals, { revenue: 1700, conversions: 5 });
    const other = await saveSettings({ refund_netting: false });
    assert.equal(other.status, 200, 'a change of another setting leaves the stored list as it is');
    assert.equal(other.body.settings.excluded_transaction_ids.length, 150_000);
    assert.equal((await saveSettings({ excluded_transaction_ids: [] })).status, 200);
    assert.deepEqual((await report(TOTALS)).body.totals, { revenue: 2100, conversions: 6 });
  });
});

describe('every other setting is bounded too', () => {
  test('each refusal names the setting and its bound, and stores nothing', async () => {
    const refusals: [unknown, string][] = [
      [{ excluded_transaction_ids: ['ok', ''] }, 'excluded_transaction_ids: each id must be a string of 1 to 200 characters'],
      [{ excluded_transaction_ids: ['x'.repeat(201)] }, 'excluded_transaction_ids: each id must be a string of 1 to 200 characters'],
      [{ excluded_transaction_ids: [['T1']] }, 'excluded_transaction_ids: each id must be a string of 1 to 200 characters'],
      [{ excluded_transaction_ids: 'T1' }, 'excluded_transaction_ids: must be a list of ids'],
      [{ ignore_sources: Array(51).fill('meta') }, 'ignore_sources: at most 50 sources'],
      [{ ignore_sources: ['meta', 'friendster'] }, `ignore_sources: unknown source friendster. Sources: ${['meta', 'facebook', 'instagram', 'google', 'tiktok', 'pinterest', 'snapchat', 'microsoft', 'bing', 'openai', 'outbrain', 'taboola', 'organic', 'audience_network', 'messenger', 'threads', 'whatsapp', 'email', 'creator'].join(', ')}`],
      [{ payment_fee_fixed: 1_000_001 }, 'payment_fee_fixed: at most 1000000 cents'],
      [{ payment_fee_fixed: 1.5 }, 'payment_fee_fixed: must be a whole number of cents'],
      [{ timezone: `Europe/${'x'.repeat(60)}` }, 'timezone: Invalid timezone: (too long). Use an IANA time zone name such as Europe/Berlin'],
      [{ currency: 'EURO' }, 'currency: Invalid string: must match pattern /^[A-Z]{3}$/'],
    ];
    for (const [body, message] of refusals) {
      assert.deepEqual(await saveSettings(body), { status: 400, body: { message } }, JSON.stringify(body).slice(0, 80));
    }
    const stored = (await ada.get(`/dashboard/api/settings?workspace=${shop.id}`)).body.settings;
    assert.deepEqual([stored.ignore_sources, stored.payment_fee_fixed, stored.timezone, stored.currency], [[], 0, 'UTC', 'USD']);
  });

  test('a change names only what it changes: the other settings keep their stored values', async () => {
    assert.equal((await saveSettings({ currency: 'EUR', ignore_sources: ['email', 'email'] })).status, 200);
    const saved = await saveSettings({ refund_netting: true });
    assert.deepEqual([saved.body.settings.currency, saved.body.settings.ignore_sources, saved.body.settings.include_unattributed], ['EUR', ['email'], true]);
  });
});
