/**
 * GET /v3/attribution and attribution.explain: one conversion's touchpoints, every model's shares
 * and the data-driven chain, all worked out by hand. The fixture is test/fixtures/markov-shop.ts with its
 * cancelled order (workspace "shop", range 2026-03-01..2026-03-07, 7-day window):
 * - buyer 1: facebook c1 03-01 10:00 (session 11), facebook c9 03-02 10:00 (12), google c2 03-03
 *   10:00 (13); purchase T1 03-03 10:30, 100.00.
 * - buyer 2: facebook c1 03-04, no purchase. buyer 3: google c2 03-05 11:00; T2 03-05 12:00, 200.00.
 * - buyer 4: untagged 03-06 08:00; T3 03-06 08:10, 50.00 (organic).
 * - buyer 3 also bought T4 03-05 13:00, 80.00, an order since cancelled: no sale, in no chain.
 *
 * The chain (admin key): start->meta 2, start->google 1; meta->google 1, meta->null 1;
 * google->conversion 2. P = 2/3; without meta 1/3 (effect 1/2), without google 0 (effect 1).
 * T1's path meta, meta, google under each model:
 *   first_click meta 1; last_click google 1; linear meta 2/3, google 1/3; u_shaped 40/20/40 %, so
 *   meta 0.6, google 0.4; any_click 1 each; total_impact (no email or organic) = linear;
 *   data_driven meta 1/2 / (1/2 + 1) = 1/3, google 2/3.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { purchase as shopPurchase, seedMarkovShop } from '../fixtures/markov-shop.ts';
import { bearer, callTool, toolOk } from '../mcp/rpc.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';

let t: TestApp;
let shop: TestWorkspace;

const RANGE = 'start_date=2026-03-01&end_date=2026-03-07';

const purchase = (tx: string, dt: string, session: number, visitor: number, cents: number) => shopPurchase(shop.id, tx, dt, session, visitor, cents);

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  await seedMarkovShop(t.stores, shop.id, { cancelledOrder: true });
});

after(() => t.close());

const explain = async (query: string, headers = shop.headers) => injectGet(t, `/v3/attribution?${query}`, headers);

const touch = (session_id: string, started_at: string, source: string, raw_source: string, campaign: string) =>
  ({ session_id, started_at, source, raw_source, campaign, adgroup: '', ad: '', campaign_name: '', adgroup_name: '', ad_name: '' });

const T1_TOUCHES = [
  touch('11', '2026-03-01 10:00:00', 'meta', 'facebook', 'c1'),
  touch('12', '2026-03-02 10:00:00', 'meta', 'facebook', 'c9'),
  touch('13', '2026-03-03 10:00:00', 'google', 'google', 'c2'),
];

/** Every model's shares when one source has the whole path. */
const whole = (source: string) => Object.fromEntries(
  ['last_click', 'first_click', 'linear', 'u_shaped', 'total_impact', 'any_click', 'markov', 'data_driven'].map((m) => [m, { [source]: 1 }]),
);

/**
 * The data-driven fit of the shop: 4 visitors, 3 of them buyers, far below the threshold, so
 * data_driven credits as linear, says so in `fit.method`, and has no lift to show but zeros.
 */
const fallbackFit = (sources: string[]) => ({
  lifts: Object.fromEntries(sources.map((s) => [s, 0])), calibrated_sources: [], baseline: 0, fit: { visitors: 4, buyers: 3, method: 'linear_fallback' },
});

describe('GET /v3/attribution', () => {
  test("explains T1: its touchpoints, every model's shares side by side, the chain's removal effects", async () => {
    const { status, body } = await explain(`transaction_id=T1&${RANGE}`);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body, {
      data: {
        transaction_id: 'T1',
        dt: '2026-03-03 10:30:00',
        revenue: 100,
        source: 'google',
        touchpoints: T1_TOUCHES,
        credit: {
          last_click: { meta: 0, google: 1 },
          first_click: { meta: 1, google: 0 },
          linear: { meta: 0.6667, google: 0.3333 },
          u_shaped: { meta: 0.6, google: 0.4 },
          total_impact: { meta: 0.6667, google: 0.3333 },
          any_click: { meta: 1, google: 1 },
          markov: { meta: 0.3333, google: 0.6667 },
          data_driven: { meta: 0.6667, google: 0.3333 },
        },
        removal_effects: { google: 1, meta: 0.5 },
        paths: { converting: 2, non_converting: 1 },
        ...fallbackFit(['google', 'meta']),
        incremental_revenue: { meta: 66.67, google: 33.33 },
      },
    });
  });

  test('an organic conversion has no touchpoints and every model gives it to organic', async () => {
    const { status, body } = await explain(`transaction_id=T3&${RANGE}`);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.data, {
      transaction_id: 'T3', dt: '2026-03-06 08:10:00', revenue: 50, source: 'organic', touchpoints: [],
      credit: whole('organic'), removal_effects: { google: 1, meta: 0.5 }, paths: { converting: 2, non_converting: 1 },
      ...fallbackFit(['google', 'meta']), incremental_revenue: {},
    });
  });

  test('exclude_source removes google before every model and from the chain: T1 is all meta, T2 organic', async () => {
    // Chain without google: start->meta 2; meta->conversion 1 (T1), meta->null 1 (buyer 2): effect of meta 1.
    const t1 = await explain(`transaction_id=T1&${RANGE}&exclude_source=google`);
    assert.deepEqual(t1.body.data, {
      transaction_id: 'T1', dt: '2026-03-03 10:30:00', revenue: 100, source: 'meta', touchpoints: T1_TOUCHES.slice(0, 2),
      credit: whole('meta'), removal_effects: { meta: 1 }, paths: { converting: 1, non_converting: 1 },
      ...fallbackFit(['meta']), incremental_revenue: { meta: 100 },
    });
    const t2 = await explain(`transaction_id=T2&${RANGE}&exclude_source=google`);
    assert.deepEqual([t2.body.data.source, t2.body.data.touchpoints, t2.body.data.credit], ['organic', [], whole('organic')]);
  });

  test('the window decides the path: with 1 day, T1 has only its google touch', async () => {
    // 1-day window: T1 sees google (03-03) only; buyer 2's meta (03-04) and T2's google are in it.
    // Chain: start->google 2 (T1, T2), start->meta 1; google->conversion 2, meta->null 1.
    // P = 2/3; without google 0 (effect 1); without meta 2/3 (effect 0).
    const { body } = await explain(`transaction_id=T1&${RANGE}&attribution_window=1`);
    assert.deepEqual(body.data.touchpoints, T1_TOUCHES.slice(2));
    assert.deepEqual(body.data.credit, whole('google'));
    assert.deepEqual(body.data.removal_effects, { google: 1, meta: 0 });
    assert.deepEqual(body.data.paths, { converting: 2, non_converting: 1 });
  });

  test('a key that sees meta and organic: no google touch, no google state, no google-only order', async () => {
    // Its chain: T1 -> meta -> conversion, buyer 2 -> meta -> null; T2 has no touch it sees.
    const key = await shop.keyHeaders(['read:meta', 'read:organic']);
    const t1 = await explain(`transaction_id=T1&${RANGE}`, key);
    assert.equal(t1.status, 200, JSON.stringify(t1.body));
    assert.deepEqual(t1.body.data, {
      transaction_id: 'T1', dt: '2026-03-03 10:30:00', revenue: 100, source: 'meta', touchpoints: T1_TOUCHES.slice(0, 2),
      credit: whole('meta'), removal_effects: { meta: 1 }, paths: { converting: 1, non_converting: 1 },
      ...fallbackFit(['meta']), incremental_revenue: { meta: 100 },
    });
    assert.deepEqual(await explain(`transaction_id=T2&${RANGE}`, key), { status: 404, body: { message: 'Not found' } });
    assert.equal((await explain(`transaction_id=T3&${RANGE}`, key)).status, 200);
  });

  test('a key without read:organic does not find an organic order', async () => {
    const key = await shop.keyHeaders(['read:google']);
    assert.deepEqual(await explain(`transaction_id=T3&${RANGE}`, key), { status: 404, body: { message: 'Not found' } });
  });

  test("data_driven learns buying from the counted names only: a lead is not a buyer when the workspace counts purchases", async () => {
    const leads = await createTestWorkspace(t.stores);
    await seedMarkovShop(t.stores, leads.id);
    // Visitor 2, who never bought, leaves a lead after its facebook visit.
    await insertRows(t.stores, 'conversions', [{ ...shopPurchase(leads.id, 'L1', '2026-03-04 09:10:00', 21, 2, 0), name: 'lead' }]);
    const fitOf = async (names: string[]) => {
      await updateSettings(t.stores.db, leads.id, { conversion_names: names });
      const { status, body } = await explain(`transaction_id=T1&${RANGE}`, leads.headers);
      assert.equal(status, 200, JSON.stringify(body));
      return (body as { data: { fit: unknown } }).data.fit;
    };
    assert.deepEqual(await fitOf(['purchase']), { visitors: 4, buyers: 3, method: 'linear_fallback' });
    assert.deepEqual(await fitOf(['*']), { visitors: 4, buyers: 4, method: 'linear_fallback' });
  });

  test('404 for an unknown id, one outside the range, and a cancelled order', async () => {
    for (const query of [`transaction_id=NOPE&${RANGE}`, 'transaction_id=T1&start_date=2026-03-04&end_date=2026-03-07', `transaction_id=T4&${RANGE}`]) {
      assert.deepEqual(await explain(query), { status: 404, body: { message: 'Not found' } }, query);
    }
  });

  test('without dates a conversion of the last 90 days is found, an older one is not', async () => {
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    await insertRows(t.stores, 'conversions', [
      purchase('RECENT', `${day(80)} 12:00:00`, 71, 7, 1000),
      purchase('OLD', `${day(95)} 12:00:00`, 72, 7, 1000),
    ]);
    assert.equal((await explain('transaction_id=RECENT')).status, 200);
    assert.deepEqual(await explain('transaction_id=OLD'), { status: 404, body: { message: 'Not found' } });
  });

  test('timezone reads the dates as local days: 03-03 in Kiritimati (UTC+14) ends before T1, 03-04 holds it', async () => {
    const zone = 'timezone=Pacific/Kiritimati';
    assert.deepEqual(await explain(`transaction_id=T1&start_date=2026-03-03&end_date=2026-03-03&${zone}`), { status: 404, body: { message: 'Not found' } });
    const found = await explain(`transaction_id=T1&start_date=2026-03-04&end_date=2026-03-04&${zone}`);
    assert.deepEqual([found.status, found.body.data?.dt], [200, '2026-03-03 10:30:00'], 'timestamps stay UTC');
    const unknown = await explain('transaction_id=T1&timezone=Mars/Olympus');
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.message, /^Invalid timezone: Mars\/Olympus/);
  });

  test('400s like the other endpoints, 403 for a source the key cannot see', async () => {
    assert.deepEqual(await explain(RANGE), { status: 400, body: { message: 'transaction_id is required' } });
    assert.deepEqual(await explain(`transaction_id=T1&attribution_window=3`), {
      status: 400, body: { message: 'Invalid attribution_window: 3. Accepted values: 1, 7, 28, 90, 180, 365' },
    });
    assert.deepEqual(await explain('transaction_id=T1&attribution_model=linear'), {
      status: 400, body: { message: 'Unknown parameter: attribution_model' },
    });
    const key = await shop.keyHeaders(['read:meta']);
    assert.deepEqual(await explain(`transaction_id=T1&${RANGE}&exclude_source=google`, key), {
      status: 403, body: { message: 'You do not have access to the requested sources' },
    });
  });
});

describe('attribution.explain', () => {
  test('answers what GET /v3/attribution answers', async () => {
    const result = await toolOk(t.app, bearer(shop.headers), 'attribution.explain', { transaction_id: 'T1', date_from: '2026-03-01', date_to: '2026-03-07' });
    assert.deepEqual(result.attribution, (await explain(`transaction_id=T1&${RANGE}`)).body.data);
  });

  test("a restricted key's answer leaves its hidden channels out; an order it cannot see is not_found", async () => {
    const key = bearer(await shop.keyHeaders(['read:meta', 'read:organic']));
    const result = await toolOk(t.app, key, 'attribution.explain', { transaction_id: 'T1', date_from: '2026-03-01', date_to: '2026-03-07' });
    assert.deepEqual([result.attribution.touchpoints.length, result.attribution.credit.linear, result.attribution.removal_effects], [2, { meta: 1 }, { meta: 1 }]);
    const hidden = await callTool(t.app, key, 'attribution.explain', { transaction_id: 'T2', date_from: '2026-03-01', date_to: '2026-03-07' });
    assert.equal(hidden.result?.isError, true);
    assert.equal(hidden.result?.structuredContent.error.code, 'not_found');
  });

  test('a source named like an object property ("valueOf", "constructor") is refused as an unknown source (-32602), not an internal error', async () => {
    const key = bearer(await shop.keyHeaders(['read:meta', 'read:organic']));
    for (const name of ['valueOf', 'constructor']) {
      const reply = await callTool(t.app, key, 'attribution.explain', { transaction_id: 'T1', ignore_sources: [name] });
      assert.equal(reply.error?.code, -32602, JSON.stringify(reply));
      assert.match(reply.error!.message, new RegExp(`Invalid exclude_source: ${name}\\. Accepted values: meta,`));
    }
  });
});

/**
 * Names beside ids, workspace "named": a facebook click (session 51, 2026-03-02 09:00) with campaign
 * c7, ad group g7 and ad a7, then the purchase N1 (2026-03-02 09:30, 60.00). The ad rows name them:
 * c7 "Winter sale" (renamed from "Winter" by a later import of the same day), g7 "Lookalikes", a7
 * "Red boots video". Ids no ad row names (the google click's campaign c8) stay with an empty name.
 */
describe('names beside ids on the path', () => {
  let named: TestWorkspace;
  before(async () => {
    named = await createTestWorkspace(t.stores, 'named');
    await insertRows(t.stores, 'events', [
      { store_id: named.id, dt: '2026-03-01 09:00:00', name: 'pageview', session_id: 50, visitor_id: 5, pathname: '/', adv_source: 'google', adv_campaign_id: 'c8' },
      { store_id: named.id, dt: '2026-03-02 09:00:00', name: 'pageview', session_id: 51, visitor_id: 5, pathname: '/', adv_source: 'facebook', adv_campaign_id: 'c7', adv_adgroup_id: 'g7', adv_ad_id: 'a7' },
    ]);
    await insertRows(t.stores, 'conversions', [{
      store_id: named.id, dt: '2026-03-02 09:30:00', name: 'purchase', session_id: 51, visitor_id: 5, transaction_id: 'N1', transaction_gross_revenue: 6_000,
    }]);
    const ad = (version: number, campaign_name: string) => ({
      store_id: named.id, dt: '2026-03-02', source: 'meta', campaign_id: 'c7', campaign_name, adgroup_id: 'g7', adgroup_name: 'Lookalikes', ad_id: 'a7', ad_name: 'Red boots video', spend: 1_000, version,
    });
    await insertRows(t.stores, 'ads', [ad(1, 'Winter'), ad(2, 'Winter sale')]);
  });

  const NAMED_PATH = [
    { session_id: '50', started_at: '2026-03-01 09:00:00', source: 'google', raw_source: 'google', campaign: 'c8', adgroup: '', ad: '', campaign_name: '', adgroup_name: '', ad_name: '' },
    {
      session_id: '51', started_at: '2026-03-02 09:00:00', source: 'meta', raw_source: 'facebook', campaign: 'c7', adgroup: 'g7', ad: 'a7',
      campaign_name: 'Winter sale', adgroup_name: 'Lookalikes', ad_name: 'Red boots video',
    },
  ];

  test('GET /v3/attribution and attribution.explain name each touchpoint\'s campaign, ad group and ad as the ad rows do', async () => {
    const { status, body } = await injectGet(t, `/v3/attribution?transaction_id=N1&${RANGE}`, named.headers);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.data.touchpoints, NAMED_PATH);
    const { attribution } = await toolOk(t.app, bearer(named.headers), 'attribution.explain', { transaction_id: 'N1', date_from: '2026-03-01', date_to: '2026-03-07' });
    assert.deepEqual(attribution.touchpoints, NAMED_PATH);
    // The report's campaign row carries the same name.
    const report = await injectGet(t, `/v3/report?${RANGE}&breakdown=campaign&source=meta&metrics=revenue`, named.headers);
    assert.deepEqual(report.body.data.map((r: any) => [r.campaign, r.campaign_name]), [['c7', 'Winter sale']]);
  });
});
