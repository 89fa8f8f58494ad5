/**
 * attribution_model=markov through /v3/report and analytics.query, with every number worked
 * out by hand. Fixture test/fixtures/markov-shop.ts (workspace "shop", range 2026-03-01..2026-03-07, 7-day window):
 * - buyer 1 (visitor 1): facebook c1 03-01 10:00, facebook c9 03-02 10:00, google c2 03-03 10:00;
 *   purchase T1 03-03 10:30, 100.00.                 journey: meta -> google -> conversion
 * - buyer 2 (visitor 2): facebook c1 03-04 09:00, no purchase.   journey: meta -> null
 * - buyer 3 (visitor 3): google c2 03-05 11:00; purchase T2 03-05 12:00, 200.00.  google -> conversion
 * - buyer 4 (visitor 4): untagged 03-06 08:00; purchase T3 03-06 08:10, 50.00: organic, not in the chain.
 *
 * The chain: start->meta 2, start->google 1; meta->google 1, meta->null 1; google->conversion 2.
 * p(google) = 1, p(meta) = 1/2, P = 2/3 * 1/2 + 1/3 * 1 = 2/3.
 * Without meta: P = 1/3, removal effect (2/3 - 1/3) / (2/3) = 1/2. Without google: P = 0, effect 1.
 * T1 is split meta 1/2 / (1/2 + 1) = 1/3 (33.33, on the c9 touch, meta's last), google 2/3 (66.67);
 * T2 goes to google whole; T3 is organic. google 266.67 and 1.6667 conversions, meta 33.33 and
 * 0.3333, organic 50.00 and 1; the rows sum to the totals, 350.00 and 3.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { gg, pageview, seedMarkovShop } from '../fixtures/markov-shop.ts';
import { toolOk, bearer } from '../mcp/rpc.ts';
import { cli } from '../dashboard/helpers.ts';

let t: TestApp;
let shop: TestWorkspace;

const RANGE = 'start_date=2026-03-01&end_date=2026-03-07';
const MK = `${RANGE}&attribution_model=markov`;
const METRICS = 'metrics=revenue,conversions';

const event = (session: number, visitor: number, dt: string, extra: object = {}) => pageview(shop.id, session, visitor, dt, extra);

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  await seedMarkovShop(t.stores, shop.id);
});

after(() => t.close());

const report = async (query: string, headers = shop.headers) => {
  const { status, body } = await injectGet(t, `/v3/report?${query}`, headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
};

describe('markov on /v3/report', () => {
  test('splits each conversion over its path by removal effects; rows sum to the totals', async () => {
    const body = await report(`${MK}&breakdown=source&${METRICS}`);
    assert.deepEqual(body.data, [
      { source: 'google', revenue: 266.67, conversions: 1.6667 },
      { source: 'organic', revenue: 50, conversions: 1 },
      { source: 'meta', revenue: 33.33, conversions: 0.3333 },
    ]);
    assert.deepEqual(body.totals, { revenue: 350, conversions: 3 });
  });

  test('campaign rows: a source share goes to its last touchpoint in the path', async () => {
    const body = await report(`${MK}&breakdown=campaign&${METRICS}`);
    assert.deepEqual(body.data, [
      { source: 'google', campaign: 'c2', campaign_name: '', revenue: 266.67, conversions: 1.6667 },
      { source: 'organic', campaign: '', campaign_name: '', revenue: 50, conversions: 1 },
      { source: 'meta', campaign: 'c9', campaign_name: '', revenue: 33.33, conversions: 0.3333 },
      // c1's sessions make a row; its touches were never meta's last.
      { source: 'meta', campaign: 'c1', campaign_name: '', revenue: 0, conversions: 0 },
    ]);
  });

  test('click date mode books each share on its touchpoint day', async () => {
    const body = await report(`${MK}&interval=day&attribution_date=click&metrics=revenue`);
    assert.deepEqual(body.data, [
      { date: '2026-03-01', revenue: 0 },
      { date: '2026-03-02', revenue: 33.33 },
      { date: '2026-03-03', revenue: 66.67 },
      { date: '2026-03-04', revenue: 0 },
      { date: '2026-03-05', revenue: 200 },
      { date: '2026-03-06', revenue: 50 },
    ]);
  });

  test('exclude_source rebuilds the chain without the source: meta alone, T2 organic', async () => {
    // Chain without google: start->meta 2; meta->conversion 1 (T1), meta->null 1. Effect of meta 1.
    const body = await report(`${MK}&breakdown=source&${METRICS}&exclude_source=google`);
    assert.deepEqual(body.data, [
      { source: 'organic', revenue: 250, conversions: 2 },
      { source: 'meta', revenue: 100, conversions: 1 },
      { source: 'google', revenue: 0, conversions: 0 },
    ]);
  });

  test('a key that sees meta and organic learns from a chain of meta alone, and sees nothing of the google-only order', async () => {
    // Its chain: T1 -> [meta] converting, buyer 2 -> [meta] null; T2 has no touch it sees and is not in it.
    // T1 gives meta everything; T2 goes to its google touch, which the key does not see (not organic).
    const key = await shop.keyHeaders(['read:meta', 'read:organic']);
    const body = await report(`${MK}&breakdown=source&${METRICS}`, key);
    assert.deepEqual(body.data, [
      { source: 'meta', revenue: 100, conversions: 1 },
      { source: 'organic', revenue: 50, conversions: 1 },
    ]);
    assert.deepEqual(body.totals, { revenue: 150, conversions: 2 });
  });

  test('analytics.query gives the same numbers', async () => {
    const result = await toolOk(t.app, bearer(shop.headers), 'analytics.query', {
      filters: { date_from: '2026-03-01', date_to: '2026-03-07' }, breakdown: 'source', metrics: ['revenue', 'conversions'], attribution_model: 'markov',
    });
    assert.deepEqual(result.rows, (await report(`${MK}&breakdown=source&${METRICS}`)).data);
    assert.equal(result.settings_applied.attribution_model, 'markov');
  });

  test('the chain is kept until the data version moves: new rows count after the next raise', async () => {
    // Buyer 5: google 03-06 without purchase, inserted past every raise. Then google: 2 conversions
    // of 3 exits, p(google) = 2/3, p(meta) = 1/3, P = 1/2 * 1/3 + 1/2 * 2/3 = 1/2; without meta
    // 1/3 (effect 1/3), without google 0 (effect 1): T1 is split meta 1/4, google 3/4.
    // Straight into the engine, without the raise that insertRows (like every storing path) makes.
    await t.stores.ch.insertNdjson('events', JSON.stringify(event(51, 5, '2026-03-06 15:00:00', gg)));
    const kept = await report(`${MK}&breakdown=source&metrics=revenue`);
    assert.deepEqual(kept.data.map((r: { source: string; revenue: number }) => [r.source, r.revenue]), [['google', 266.67], ['organic', 50], ['meta', 33.33]]);
    const outcome = await cli(t, ['settings', 'set', '--workspace', String(shop.id), 'payment_fee_percent=0']);
    assert.ok('result' in outcome, JSON.stringify(outcome));
    const fresh = await report(`${MK}&breakdown=source&metrics=revenue`);
    assert.deepEqual(fresh.data.map((r: { source: string; revenue: number }) => [r.source, r.revenue]), [['google', 275], ['organic', 50], ['meta', 25]]);
  });
});
