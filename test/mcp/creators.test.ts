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
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { callTool, toolOk } from './rpc.ts';
import { cli } from '../dashboard/helpers.ts';

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
      { ...result, revenue_basis: undefined, creators: result.creators.map(({ creator: _, ...c }: { creator: unknown }) => c) },
      {
        date_from: '2026-11-10', date_to: '2026-11-11', timezone: 'UTC', revenue_basis: undefined,
        creators: [
          { code: 'MAYA', codes: ['MAYA'], sessions: 2, orders: 2, revenue: 130, commission: null, coupon_codes: ['MAYA15'] },
          { code: 'JONAS', codes: ['JONAS'], sessions: 1, orders: 2, revenue: 70, commission: null, coupon_codes: ['JONAS', 'JONAS20'] },
          { code: stored.tracking_code, codes: [stored.tracking_code], sessions: 1, orders: 1, revenue: 20, commission: null, coupon_codes: [] },
          { code: 'THEO', codes: ['THEO'], sessions: 1, orders: 0, revenue: 0, commission: null, coupon_codes: [] },
        ],
      },
    );
    assert.deepEqual(result.creators.filter((c: { creator: unknown }) => c.creator === null).map((c: { code: string }) => c.code), ['MAYA', 'JONAS', 'THEO']);
  });

  test('a stored creator without traffic is listed with zeros', async () => {
    const result = await toolOk(t.app, ws.headers, 'creators.get-creators', { date_from: '2026-10-01', date_to: '2026-10-02' });
    assert.deepEqual(result.creators.map(({ creator, ...c }: { creator: { id: string } }) => ({ ...c, id: creator.id })), [
      { code: stored.tracking_code, codes: [stored.tracking_code], id: stored.id, sessions: 0, orders: 0, revenue: 0, commission: null, coupon_codes: [] },
    ]);
  });

  test('a read:creators key reads what the admin reads; a key without the creator channel is refused', async () => {
    const admin = await toolOk(t.app, ws.headers, 'creators.get-creators', RANGE);
    assert.deepEqual(await toolOk(t.app, await ws.keyHeaders(['read:creators']), 'creators.get-creators', RANGE), admin);
    const refused = await callTool(t.app, await ws.keyHeaders(['read:google']), 'creators.get-creators', RANGE);
    assert.equal(refused.result?.structuredContent.error.code, 'permission_denied');
  });

  /**
   * The report's creator channel over the same days (last click, 7 days): the sessions that landed
   * with a ref code and bought in them: o1 (MAYA, 80.00), o2 (landed with JONAS, 50.00), o7 (the
   * stored creator's code, 20.00) = 150.00; o3 came by google and o4 untagged, so their creator
   * coupons count for the creators (220.00 in all) but not for the channel.
   */
  test('the answer sets the report\'s creator-channel revenue beside the creators\' and says why they differ', async () => {
    const { revenue_basis: basis } = await toolOk(t.app, ws.headers, 'creators.get-creators', RANGE);
    const report = await injectGet(t, `/v3/report?start_date=${RANGE.date_from}&end_date=${RANGE.date_to}&source=creator&metrics=revenue`, ws.headers);
    assert.deepEqual([basis.revenue, basis.report_revenue, report.body.totals.revenue], [220, 150, 150]);
    assert.deepEqual(basis.attribution, { model: 'last_click', window: 7 });
    assert.match(basis.reason, /^revenue counts each sale order once for the creator whose coupon it carries/);
    assert.match(basis.reason, /under last_click with a 7-day window/);
  });

  test('a code linked to a stored creator counts for it: sessions, orders, coupons; a program applied gives commission on all of them', async () => {
    const { program } = await toolOk(t.app, ws.headers, 'creators.create-program', { name: 'Ten', commission: { type: 'percentage', rate_percent: 10 } });
    const kai = (await toolOk(t.app, ws.headers, 'creators.create', { name: 'Kai', program_id: program.id })).creator;
    const link = (id: string, code: string) => cli(t, ['creator', 'link-code', '--workspace', String(ws.id), '--creator', id, '--code', code]);
    assert.deepEqual(await link(kai.id, 'jonas'), { result: { creator: { id: kai.id, name: 'Kai', tracking_code: kai.tracking_code, codes: [kai.tracking_code, 'JONAS'] } } });
    assert.deepEqual(await link(kai.id, 'JONAS'), { result: { creator: { id: kai.id, name: 'Kai', tracking_code: kai.tracking_code, codes: [kai.tracking_code, 'JONAS'] } } }, 'linking again changes nothing');
    assert.deepEqual(await link(stored.id, 'Jonas'), { error: { message: `Code JONAS is already linked to creator ${kai.id} (Kai)` } });
    assert.deepEqual(await link(stored.id, kai.tracking_code), { error: { message: `Code ${kai.tracking_code} is already linked to creator ${kai.id} (Kai)` } });
    assert.deepEqual(await link(stored.id, 'MAYA'), { result: { creator: { id: stored.id, name: 'Nora', tracking_code: stored.tracking_code, codes: [stored.tracking_code, 'MAYA'] } } });

    const rows = async () => (await toolOk(t.app, ws.headers, 'creators.get-creators', RANGE)).creators.map(({ creator, ...c }: any) => ({ name: creator?.name ?? null, ...c }));
    // Nora: her own 1 session, 1 order, 20.00 and MAYA's 2 sessions, 2 orders, 130.00; Kai: JONAS's figures, no commission until the program applies.
    assert.deepEqual(await rows(), [
      { name: 'Nora', code: stored.tracking_code, codes: [stored.tracking_code, 'MAYA'], sessions: 3, orders: 3, revenue: 150, commission: null, coupon_codes: ['MAYA15'] },
      { name: 'Kai', code: kai.tracking_code, codes: [kai.tracking_code, 'JONAS'], sessions: 1, orders: 2, revenue: 70, commission: null, coupon_codes: ['JONAS', 'JONAS20'] },
      { name: null, code: 'THEO', codes: ['THEO'], sessions: 1, orders: 0, revenue: 0, commission: null, coupon_codes: [] },
    ]);
    assert.ok('result' in (await cli(t, ['creator-program', 'apply', '--workspace', String(ws.id), '--program', program.id])));
    assert.equal((await rows()).find((r: any) => r.name === 'Kai').commission, 7, '10 % of 70.00');
  });
});

/**
 * Commissions, workspace "Commissions" (UTC), range 2026-10-20 to 2026-11-10, which cuts October
 * and November. Every order carries its creator's tracking code as its coupon.
 *   Pia, 12.5 % of revenue: 80.00 (10-25) + 45.50 (11-05) = 125.50 -> 15.6875 -> 15.69
 *   Finn, 3.50 per order: 10.00 (10-21), 20.00 (11-02), 30.00 (11-09); 40.00 on 11-20 is outside -> 3 x 3.50 = 10.50
 *   Tara, tiered 5 % from 0, 10 % from 100.00, 15 % from 300.00 of a month's revenue:
 *     October: 120.00 in the range (10-28) and 200.00 before it (10-05): the month's 320.00 reaches 15 % -> 18.00
 *     November: 60.00 in the range (11-04) and 50.00 after it (11-25): the month's 110.00 reaches 10 % -> 6.00
 *     -> 24.00 (the range's own 180.00 would have given 10 %, 18.00)
 *   Owen, in a program nobody applied: 100.00 (11-01) -> null
 */
describe('commissions of applied creator programs', () => {
  let shop: TestWorkspace;
  const programs: Record<string, string> = {};
  const COMMISSION_RANGE = { date_from: '2026-10-20', date_to: '2026-11-10' };
  const cliOn = (action: 'apply' | 'unapply', program: string) => cli(t, ['creator-program', action, '--workspace', String(shop.id), '--program', program]);
  const commissions = async () => {
    const { creators } = await toolOk(t.app, shop.headers, 'creators.get-creators', COMMISSION_RANGE);
    return Object.fromEntries(creators.map((c: any) => [c.creator?.name ?? c.code, c.commission]));
  };

  before(async () => {
    shop = await createTestWorkspace(t.stores, 'Commissions');
    const rules: Record<string, object> = {
      Pia: { type: 'percentage', rate_percent: 12.5 },
      Finn: { type: 'fixed', amount_cents: 350 },
      Tara: { type: 'tiered', tiers: [{ min_revenue_cents: 0, rate_percent: 5 }, { min_revenue_cents: 10_000, rate_percent: 10 }, { min_revenue_cents: 30_000, rate_percent: 15 }] },
      Owen: { type: 'percentage', rate_percent: 50 },
    };
    const codes: Record<string, string> = {};
    for (const [name, commission] of Object.entries(rules)) {
      programs[name] = (await toolOk(t.app, shop.headers, 'creators.create-program', { name: `${name}'s deal`, commission })).program.id;
      codes[name] = (await toolOk(t.app, shop.headers, 'creators.create', { name, program_id: programs[name] })).creator.tracking_code;
    }
    const orders: [string, string, number][] = [
      ['Pia', '2026-10-25', 8_000], ['Pia', '2026-11-05', 4_550],
      ['Finn', '2026-10-21', 1_000], ['Finn', '2026-11-02', 2_000], ['Finn', '2026-11-09', 3_000], ['Finn', '2026-11-20', 4_000],
      ['Tara', '2026-10-05', 20_000], ['Tara', '2026-10-28', 12_000], ['Tara', '2026-11-04', 6_000], ['Tara', '2026-11-25', 5_000],
      ['Owen', '2026-11-01', 10_000],
    ];
    await insertRows(t.stores, 'conversions', orders.map(([name, day, cents], i) => ({
      store_id: shop.id, session_id: 100 + i, visitor_id: 100 + i, dt: `${day} 12:00:00.000`, name: 'purchase',
      transaction_id: `c${i}`, transaction_gross_revenue: cents, coupon_code: codes[name],
    })));
    for (const name of ['Pia', 'Finn', 'Tara']) assert.ok('result' in (await cliOn('apply', programs[name]!)));
  });

  test('each rule computed from the orders of the range; a program nobody applied earns nothing', async () => {
    assert.deepEqual(await commissions(), { Pia: 15.69, Finn: 10.5, Tara: 24, Owen: null });
    const { programs: stored } = await toolOk(t.app, shop.headers, 'creators.get-programs', {});
    assert.deepEqual(stored.map((p: any) => [p.name, p.applied]), [["Pia's deal", true], ["Finn's deal", true], ["Tara's deal", true], ["Owen's deal", false]]);
  });

  test('a range inside one month picks the tier by the whole month', async () => {
    const { creators } = await toolOk(t.app, shop.headers, 'creators.get-creators', { date_from: '2026-11-01', date_to: '2026-11-04' });
    // November's 110.00 reaches 10 %: 10 % of the 60.00 of 11-04.
    assert.equal(creators.find((c: any) => c.creator?.name === 'Tara').commission, 6);
  });

  test('un-applying a program takes its commission away, applying it again brings it back', async () => {
    assert.ok('result' in (await cliOn('unapply', programs.Pia!)));
    assert.equal((await commissions()).Pia, null);
    assert.ok('result' in (await cliOn('apply', programs.Pia!)));
    assert.equal((await commissions()).Pia, 15.69);
  });
});

/**
 * Months are those of the range's time zone: in New York, an order of 30.00 at 2026-11-01 02:00
 * UTC falls on October 31. With 80.00 on October 15, October holds 110.00 and reaches the 10 %
 * tier (5 % from 0, 10 % from 100.00); the range 2026-10-20 to 2026-11-10 holds the 30.00 -> 3.00.
 * In UTC the 30.00 is November's, which holds nothing else: 5 %, 1.50.
 */
test('a tiered commission reckons the months of the range\'s time zone', async () => {
  const shop = await createTestWorkspace(t.stores, 'New York commissions');
  const commission = { type: 'tiered', tiers: [{ min_revenue_cents: 0, rate_percent: 5 }, { min_revenue_cents: 10_000, rate_percent: 10 }] };
  const { program } = await toolOk(t.app, shop.headers, 'creators.create-program', { name: 'Tiers', commission });
  const { creator } = await toolOk(t.app, shop.headers, 'creators.create', { name: 'Ivy', program_id: program.id });
  await insertRows(t.stores, 'conversions', [['2026-10-15 12:00:00.000', 8_000], ['2026-11-01 02:00:00.000', 3_000]].map(([dt, cents], i) => ({
    store_id: shop.id, session_id: 200 + i, visitor_id: 200 + i, dt, name: 'purchase', transaction_id: `ny${i}`, transaction_gross_revenue: cents, coupon_code: creator.tracking_code,
  })));
  assert.ok('result' in (await cli(t, ['creator-program', 'apply', '--workspace', String(shop.id), '--program', program.id])));
  for (const [timezone, expected] of [['America/New_York', 3], ['UTC', 1.5]] as const) {
    const { creators } = await toolOk(t.app, shop.headers, 'creators.get-creators', { date_from: '2026-10-20', date_to: '2026-11-10', timezone });
    assert.deepEqual(creators.map((c: any) => [c.creator.name, c.revenue, c.commission]), [['Ivy', 30, expected]], timezone);
  }
});

/**
 * A tiered commission reckons a creator's month over all of its codes: Ren's tracking code brings
 * 60.00 and her linked code REN (coupon REN10) 50.00 in November 2026. The month's 110.00 reaches
 * the 10 % tier (5 % from 0, 10 % from 100.00): 11.00, where either code alone would stay at 5 %.
 */
test('a tiered commission picks the tier by the month\'s revenue of all the creator\'s codes', async () => {
  const shop = await createTestWorkspace(t.stores, 'Linked tiers');
  const commission = { type: 'tiered', tiers: [{ min_revenue_cents: 0, rate_percent: 5 }, { min_revenue_cents: 10_000, rate_percent: 10 }] };
  const { program } = await toolOk(t.app, shop.headers, 'creators.create-program', { name: 'Tiers', commission });
  const { creator } = await toolOk(t.app, shop.headers, 'creators.create', { name: 'Ren', program_id: program.id });
  await insertRows(t.stores, 'conversions', [[creator.tracking_code, 6_000], ['REN10', 5_000]].map(([coupon_code, cents], i) => ({
    store_id: shop.id, session_id: 300 + i, visitor_id: 300 + i, dt: `2026-11-0${i + 3} 12:00:00.000`, name: 'purchase', transaction_id: `ren${i}`, transaction_gross_revenue: cents, coupon_code,
  })));
  assert.ok('result' in (await cli(t, ['creator-program', 'apply', '--workspace', String(shop.id), '--program', program.id])));
  const read = async () => (await toolOk(t.app, shop.headers, 'creators.get-creators', { date_from: '2026-11-01', date_to: '2026-11-30' })).creators
    .map((c: any) => [c.creator?.name ?? null, c.code, c.revenue, c.commission]);
  // Before the link, no session landed with REN, so its coupon counts for nobody.
  assert.deepEqual(await read(), [['Ren', creator.tracking_code, 60, 3]]);
  assert.ok('result' in (await cli(t, ['creator', 'link-code', '--workspace', String(shop.id), '--creator', creator.id, '--code', 'REN'])));
  assert.deepEqual(await read(), [['Ren', creator.tracking_code, 110, 11]]);
});
