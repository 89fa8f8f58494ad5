/**
 * creators.get-creators: creators as the traffic shows them, checked against hand-counted numbers.
 * Fixture (workspace "Creators", UTC, range 2026-11-10 to 2026-11-11):
 *   session 1 lands with ref=maya on 11-10 10:00 and buys o1 (80.00, no coupon)        -> MAYA by ref
 *   session 2 lands with ref=MAYA on 11-10 11:00, buys nothing
 *   session 3 lands with ref=JONAS on 11-11 09:00 and buys o2 with coupon MAYA15 (50.00) -> MAYA: coupon beats ref
 *   session 4 lands from google (gclid) on 11-11 10:00 and buys o3 with coupon jonas (40.00) -> JONAS by coupon
 *   session 5 untagged on 11-11 12:00 buys o4 (30.00); the conversion has no coupon, the stored
 *             order o4 has JONAS20                                                        -> JONAS by the order's coupon
 *   session 6 untagged buys o5 with WELCOME10 (20.00) and o8 with MAYAX (10.00)          -> nobody
 *   session 7 lands with ref=THEO and buys o6 with THEO10 (90.00), but o6 is cancelled   -> not a sale
 *   session 8 lands with ref=LENA on 11-12, outside the range
 *   session 9 lands with the stored creator's own tracking code and buys o7 (20.00)
 * So: MAYA 2 sessions, 2 orders, 130.00; JONAS 1 session, 2 orders, 70.00 (JONAS, JONAS20);
 * the stored creator 1 session, 1 order, 20.00; THEO 1 session, nothing sold.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { callTool, toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;
let stored: { id: string; tracking_code: string };

const RANGE = { date_from: '2026-11-10', date_to: '2026-11-11' };

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Creators');
  stored = (await toolOk(t.app, ws.headers, 'creators.create', { name: 'Nora' })).creator;
  const visit = (session_id: number, dt: string, extra: object = {}) => ({
    store_id: ws.id, session_id, visitor_id: session_id, dt, name: 'pageview', ...extra,
  });
  const ref = (code: string) => ({ adv_source: 'creator', entry_meta_keys: ['ref'], entry_meta_values: [code] });
  await insertRows(t.stores, 'events', [
    visit(1, '2026-11-10 10:00:00.000', ref('maya')),
    visit(2, '2026-11-10 11:00:00.000', ref('MAYA')),
    visit(3, '2026-11-11 09:00:00.000', ref('JONAS')),
    visit(4, '2026-11-11 10:00:00.000', { adv_source: 'google', entry_meta_keys: ['gclid'], entry_meta_values: ['g-1'] }),
    visit(5, '2026-11-11 12:00:00.000'),
    visit(6, '2026-11-11 13:00:00.000'),
    visit(7, '2026-11-11 14:00:00.000', ref('THEO')),
    visit(8, '2026-11-12 09:00:00.000', ref('LENA')),
    visit(9, '2026-11-10 16:00:00.000', ref(stored.tracking_code)),
  ]);
  const purchase = (session_id: number, dt: string, transaction_id: string, cents: number, coupon_code = '') => ({
    store_id: ws.id, session_id, visitor_id: session_id, dt, name: 'purchase', transaction_id, transaction_gross_revenue: cents, coupon_code,
  });
  await insertRows(t.stores, 'conversions', [
    purchase(1, '2026-11-10 10:20:00.000', 'o1', 8_000),
    purchase(3, '2026-11-11 09:30:00.000', 'o2', 5_000, 'MAYA15'),
    purchase(4, '2026-11-11 10:10:00.000', 'o3', 4_000, 'jonas'),
    purchase(5, '2026-11-11 12:10:00.000', 'o4', 3_000),
    purchase(6, '2026-11-11 13:10:00.000', 'o5', 2_000, 'WELCOME10'),
    purchase(6, '2026-11-11 13:20:00.000', 'o8', 1_000, 'MAYAX'),
    purchase(7, '2026-11-11 14:10:00.000', 'o6', 9_000, 'THEO10'),
    purchase(8, '2026-11-12 09:10:00.000', 'o9', 7_000, 'LENA5'),
    purchase(9, '2026-11-10 16:10:00.000', 'o7', 2_000),
  ]);
  const order = (transaction_id: string, coupon_code: string, status = 'sale') => ({
    store_id: ws.id, transaction_id, dt: '2026-11-11 12:10:00', gross_revenue: 3_000, coupon_code, status, version: 1,
  });
  await insertRows(t.stores, 'orders', [order('o4', 'JONAS20'), order('o6', 'THEO10', 'cancelled')]);
});
after(() => t.close());

describe('creators.get-creators', () => {
  test('credits sessions by ref code and orders by creator coupon before ref, sales only, busiest first', async () => {
    const result = await toolOk(t.app, ws.headers, 'creators.get-creators', RANGE);
    const nora = result.creators.find((c: { code: string }) => c.code === stored.tracking_code);
    assert.equal(nora.creator.id, stored.id);
    assert.equal(nora.creator.name, 'Nora');
    assert.deepEqual(
      { ...result, creators: result.creators.map(({ creator: _, ...c }: { creator: unknown }) => c) },
      {
        date_from: '2026-11-10', date_to: '2026-11-11', timezone: 'UTC',
        creators: [
          { code: 'MAYA', sessions: 2, orders: 2, revenue: 130, coupon_codes: ['MAYA15'] },
          { code: 'JONAS', sessions: 1, orders: 2, revenue: 70, coupon_codes: ['JONAS', 'JONAS20'] },
          { code: stored.tracking_code, sessions: 1, orders: 1, revenue: 20, coupon_codes: [] },
          { code: 'THEO', sessions: 1, orders: 0, revenue: 0, coupon_codes: [] },
        ],
      },
    );
    assert.deepEqual(result.creators.filter((c: { creator: unknown }) => c.creator === null).map((c: { code: string }) => c.code), ['MAYA', 'JONAS', 'THEO']);
  });

  test('a stored creator without traffic is listed with zeros', async () => {
    const result = await toolOk(t.app, ws.headers, 'creators.get-creators', { date_from: '2026-10-01', date_to: '2026-10-02' });
    assert.deepEqual(result.creators.map(({ creator, ...c }: { creator: { id: string } }) => ({ ...c, id: creator.id })), [
      { code: stored.tracking_code, id: stored.id, sessions: 0, orders: 0, revenue: 0, coupon_codes: [] },
    ]);
  });

  test('a read:creators key reads what the admin reads; a key without the creator channel is refused', async () => {
    const admin = await toolOk(t.app, ws.headers, 'creators.get-creators', RANGE);
    assert.deepEqual(await toolOk(t.app, await ws.keyHeaders(['read:creators']), 'creators.get-creators', RANGE), admin);
    const refused = await callTool(t.app, await ws.keyHeaders(['read:google']), 'creators.get-creators', RANGE);
    assert.equal(refused.result?.structuredContent.error.code, 'permission_denied');
  });
});
