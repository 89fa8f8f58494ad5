/**
 * conversions.get-recent: "what led to my last 3 orders" in one call. Fixture (workspace "recent",
 * dates counted back from today, default settings: last_click, 7-day window):
 * - visitor 1: facebook c1 5 days ago 10:00 (session 101), google c2 4 days ago 10:00 (102);
 *   R1 4 days ago 10:30 in session 102, 120.00.
 * - visitor 2: tiktok 3 days ago 09:00 (201); R2 3 days ago 09:30 in it, 30.00.
 * - visitor 3: untagged 2 days ago 08:00 (301); R3 2 days ago 08:10 in it, 45.00: organic, no path.
 * - visitor 4: google yesterday 07:00 (401); R4 yesterday 07:30 in it, 99.00, an order since
 *   cancelled: not a sale, never listed.
 * - visitor 5: facebook 20 days ago (501); R5 8 days ago in an untagged session (502), 10.00: its
 *   facebook click is outside the 7-day window, so its path is empty.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { bearer, toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

function event(session: number, visitor: number, dt: string, extra: object = {}) {
  return { store_id: ws.id, dt, name: 'pageview', session_id: session, visitor_id: visitor, pathname: '/', ...extra };
}

const purchase = (tx: string, dt: string, session: number, visitor: number, cents: number) =>
  ({ store_id: ws.id, name: 'purchase', transaction_currency: 'USD', transaction_id: tx, dt, session_id: session, visitor_id: visitor, transaction_gross_revenue: cents });

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'recent');
  await insertRows(t.stores, 'events', [
    event(101, 1, `${day(5)} 10:00:00`, { adv_source: 'facebook', adv_campaign_id: 'c1' }),
    event(102, 1, `${day(4)} 10:00:00`, { adv_source: 'google', adv_campaign_id: 'c2' }),
    event(201, 2, `${day(3)} 09:00:00`, { adv_source: 'tiktok' }),
    event(301, 3, `${day(2)} 08:00:00`),
    event(401, 4, `${day(1)} 07:00:00`, { adv_source: 'google', adv_campaign_id: 'c2' }),
    event(501, 5, `${day(20)} 10:00:00`, { adv_source: 'facebook', adv_campaign_id: 'c1' }),
    event(502, 5, `${day(8)} 10:00:00`),
  ]);
  await insertRows(t.stores, 'conversions', [
    purchase('R1', `${day(4)} 10:30:00`, 102, 1, 12000),
    purchase('R2', `${day(3)} 09:30:00`, 201, 2, 3000),
    purchase('R3', `${day(2)} 08:10:00`, 301, 3, 4500),
    purchase('R4', `${day(1)} 07:30:00`, 401, 4, 9900),
    purchase('R5', `${day(8)} 10:05:00`, 502, 5, 1000),
  ]);
  await insertRows(t.stores, 'orders', [{
    store_id: ws.id, transaction_id: 'R4', dt: `${day(1)} 07:30:00`, gross_revenue: 9900, currency: 'USD', status: 'cancelled', version: 1,
  }]);
});

after(() => t.close());

const touch = (session_id: string, started_at: string, source: string, raw_source: string, campaign: string) =>
  ({ session_id, started_at, source, raw_source, campaign, adgroup: '', ad: '', campaign_name: '', adgroup_name: '', ad_name: '' });

const order = (tx: string, dt: string, revenue: number, session_source: string, path?: object[]) =>
  ({ dt, name: 'purchase', transaction_id: tx, revenue, customer_id: '', is_new_customer: '0', session_source, ...(path ? { path } : {}) });

const META_C1 = touch('101', `${day(5)} 10:00:00`, 'meta', 'facebook', 'c1');
const GOOGLE_C2 = touch('102', `${day(4)} 10:00:00`, 'google', 'google', 'c2');

describe('conversions.get-recent', () => {
  test('what led to my last 3 orders: the newest sales with their paths, the cancelled order left out', async () => {
    const result = await toolOk(t.app, bearer(ws.headers), 'conversions.get-recent', { limit: 3, with_path: true });
    assert.deepEqual(result, {
      conversions: [
        order('R3', `${day(2)} 08:10:00`, 45, 'organic', []),
        order('R2', `${day(3)} 09:30:00`, 30, 'tiktok', [touch('201', `${day(3)} 09:00:00`, 'tiktok', 'tiktok', '')]),
        order('R1', `${day(4)} 10:30:00`, 120, 'google', [META_C1, GOOGLE_C2]),
      ],
      settings_applied: { conversion_names: ['*'] },
    });
  });

  test('without with_path the rows come alone; a click outside the window is no part of a path', async () => {
    const bare = await toolOk(t.app, bearer(ws.headers), 'conversions.get-recent', { limit: 20 });
    assert.deepEqual(bare.conversions.map((c: { transaction_id: string }) => c.transaction_id), ['R3', 'R2', 'R1', 'R5']);
    assert.equal('path' in bare.conversions[0], false);
    const all = await toolOk(t.app, bearer(ws.headers), 'conversions.get-recent', { limit: 4, with_path: true });
    assert.deepEqual(all.conversions[3], order('R5', `${day(8)} 10:05:00`, 10, 'organic', []));
  });

  test('source filters by the conversion\'s own session, as /v3/conversions does', async () => {
    const result = await toolOk(t.app, bearer(ws.headers), 'conversions.get-recent', { source: ['tiktok'] });
    assert.deepEqual(result.conversions, [order('R2', `${day(3)} 09:30:00`, 30, 'tiktok')]);
  });

  test('a read:google key lists the orders of its sessions, with the paths it may see', async () => {
    const key = bearer(await ws.keyHeaders(['read:google']));
    const result = await toolOk(t.app, key, 'conversions.get-recent', { with_path: true });
    assert.deepEqual(result.conversions, [order('R1', `${day(4)} 10:30:00`, 120, 'google', [GOOGLE_C2])]);
  });
});
