/**
 * data_driven against a known truth, through the real insert path and the real /v3/report: shoppers
 * generated with known channel lifts (bench/attribution/synthetic-journeys.ts, the worlds of the
 * attribution-truth bench), stored as events and purchases, attributed by every model. On the worlds
 * with random exposure, data_driven's channel shares land within 4 points (mean absolute error) of
 * the truth and at most half the error of the best rule. In the world where a touch follows the
 * decision to buy, observational data cannot tell; a lift test entered with the CLI sets that
 * source's share of the conversions it touched to the test's value, and the explanation of an order
 * it touched shows the tested lift it was credited with.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { cli } from '../dashboard/helpers.ts';
import { bearer, toolOk } from '../mcp/rpc.ts';
import { SCENARIOS, generate, meanAbsoluteError, randomExposure, trueShares, type Generated, type Scenario } from '../../bench/attribution/synthetic-journeys.ts';
import { RANGE, channelShares, journeyRows } from '../../bench/suites/attribution-truth.ts';
import { visitorPatterns } from '../../src/analytics/queries/attribution/visitor-patterns.ts';
import { resolveRange } from '../../src/kit/calendar/range.ts';
import { channelsOfAll } from '../../src/analytics/sources.ts';

const RULES = ['last_click', 'first_click', 'linear', 'u_shaped', 'total_impact', 'any_click'];
const QUERY = `start_date=${RANGE.start_date}&end_date=${RANGE.end_date}&attribution_window=7&breakdown=source`;

let t: TestApp;

before(async () => {
  t = await startTestApp();
});

after(() => t.close());

async function world(scenario: Scenario): Promise<{ shop: TestWorkspace; generated: Generated }> {
  const shop = await createTestWorkspace(t.stores, scenario.name);
  const generated = generate(scenario);
  const { events, conversions } = journeyRows(shop.id, generated.journeys);
  await insertRows(t.stores, 'events', events);
  await insertRows(t.stores, 'conversions', conversions);
  return { shop, generated };
}

async function report(shop: TestWorkspace, model: string, metrics = 'conversions') {
  const { status, body } = await injectGet(t, `/v3/report?${QUERY}&attribution_model=${model}&metrics=${metrics}`, shop.headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

describe('data_driven on worlds with random exposure', () => {
  for (const scenario of SCENARIOS.filter(randomExposure)) {
    test(`${scenario.name}: within 4 points of the truth and at most half the best rule's error`, async () => {
      const { shop, generated } = await world(scenario);
      const truth = trueShares(scenario, generated.reached);
      const error = async (model: string) => meanAbsoluteError(truth, channelShares((await report(shop, model)).data));
      const learned = await error('data_driven');
      const rules = await Promise.all(RULES.map(error));
      const best = Math.min(...rules);
      assert.ok(learned <= 0.04, `data_driven is ${(learned * 100).toFixed(1)} points from the truth`);
      assert.ok(learned <= best / 2, `data_driven ${(learned * 100).toFixed(1)} against the best rule's ${(best * 100).toFixed(1)}`);
    });
  }
});

describe('a lift test for the touch that follows the decision', () => {
  test("sets that source's share of the conversions it touched to the test's value, and the answer names it", async () => {
    const scenario = SCENARIOS.find((s) => s.intent)!;
    const { shop, generated } = await world(scenario);
    const source = scenario.intent!.source;
    const touched = generated.journeys.filter((j) => j.converted && j.touches.includes(scenario.intent!.channel)).length;
    const metrics = ['conversions', 'incremental_conversions', 'incremental_revenue', 'iroas'];
    const credited = async () => {
      const body = await report(shop, 'data_driven', metrics.join(','));
      // The tool answers the same rows and says which settings and lift tests it applied.
      const tool = await toolOk(t.app, bearer(shop.headers), 'analytics.query', {
        filters: { date_from: RANGE.start_date, date_to: RANGE.end_date }, breakdown: 'source', metrics, attribution_model: 'data_driven', attribution_window: 7,
      });
      assert.deepEqual(tool.rows, body.data);
      const share = Number(body.data.find((r: { source: string }) => r.source === source)?.conversions ?? 0) / touched;
      return { body, applied: tool.settings_applied, share };
    };
    // One order the tested source touched, explained: the lifts data_driven credited it with.
    const order = `S${generated.journeys.findIndex((j) => j.converted && j.touches.includes(scenario.intent!.channel)) + 1}`;
    const explained = async () => {
      const { status, body } = await injectGet(t, `/v3/attribution?transaction_id=${order}&start_date=${RANGE.start_date}&end_date=${RANGE.end_date}&attribution_window=7`, shop.headers);
      assert.equal(status, 200, JSON.stringify(body));
      const { lifts, baseline, credit, calibrated_sources } = body.data;
      // The shares are those lifts' own: each source on the path gets lift / (baseline + the path's lifts).
      const onPath = Object.keys(credit.data_driven).filter((s) => s !== 'organic');
      const sum = onPath.reduce((total, s) => total + lifts[s], 0);
      for (const s of onPath) assert.ok(Math.abs(credit.data_driven[s] - lifts[s] / (baseline + sum)) < 0.002, `${s}: ${JSON.stringify(body.data)}`);
      return { lifts, calibrated_sources };
    };
    const fitted = await explained();
    assert.deepEqual(fitted.calibrated_sources, []);
    const before = await credited();
    // Observational data cannot tell: the touch that only follows decisions looks like the strongest channel.
    assert.ok(before.share > 0.5, String(before.share));
    assert.deepEqual([before.applied.calibrated_sources, before.applied.attribution_fallback], [[], null]);

    const added = await cli(t, ['lift-test', 'add', '--workspace', String(shop.id), '--source', source,
      '--start', RANGE.start_date, '--end', RANGE.end_date, '--incremental-share', '0.1', '--interval', '0.05,0.15']);
    assert.ok('result' in added, JSON.stringify(added));
    const after = await credited();
    assert.ok(Math.abs(after.share - 0.1) < 0.01, `share of the conversions ${source} touched: ${after.share}`);
    assert.deepEqual(after.applied.calibrated_sources, [source]);
    // The explanation shows the tested lift it used, not the fitted one, and names the source calibrated.
    const calibrated = await explained();
    assert.deepEqual(calibrated.calibrated_sources, [source]);
    assert.ok(calibrated.lifts[source] < fitted.lifts[source], JSON.stringify([calibrated, fitted]));
    assert.deepEqual({ ...calibrated.lifts, [source]: 0 }, { ...fitted.lifts, [source]: 0 });

    // What the channels caused: every row's credit but organic's; no spend, so no iROAS.
    const rows: Record<string, number | string | null>[] = after.body.data;
    const caused = rows.filter((r) => r.source !== 'organic').reduce((sum, r) => sum + Number(r.conversions), 0);
    assert.ok(Math.abs(Number(after.body.totals.incremental_conversions) - caused) < 0.01);
    assert.ok(Math.abs(Number(after.body.totals.incremental_revenue) - caused * 100) < 1);
    assert.equal(rows.find((r) => r.source === 'organic')!.incremental_conversions, 0);
    assert.ok(rows.every((r) => r.iroas === null));
    const total = rows.reduce((sum, r) => sum + Number(r.conversions), 0);
    assert.ok(Math.abs(total - after.body.totals.conversions) < 0.01, 'rows sum to the total');
    assert.equal(after.body.totals.conversions, generated.journeys.filter((j) => j.converted).length);

    // A key that sees meta only: its fit knows meta alone, no lift test of google applies, and it sees meta's rows only.
    const metaKey = await shop.keyHeaders(['read:meta']);
    const restricted = await injectGet(t, `/v3/report?${QUERY}&attribution_model=data_driven&metrics=conversions,incremental_conversions`, metaKey);
    assert.equal(restricted.status, 200, JSON.stringify(restricted.body));
    assert.deepEqual(restricted.body.data.map((r: { source: string }) => r.source), ['meta']);
    const seen = await toolOk(t.app, bearer(metaKey), 'analytics.query', {
      filters: { date_from: RANGE.start_date, date_to: RANGE.end_date }, metrics: ['conversions'], attribution_model: 'data_driven', attribution_window: 7,
    });
    assert.deepEqual(seen.settings_applied.calibrated_sources, []);
  });
});

describe('a finished geo test of the decision-following source', () => {
  test("calibrates it as a lift test would: its relative lift as the share of the conversions it touched", async () => {
    const scenario = SCENARIOS.find((s) => s.intent)!;
    const { shop, generated } = await world(scenario);
    const source = scenario.intent!.source;
    // Sales by country: DE 100 a day and FR 80 in the 7 days before the range; over the range DE 130, FR 80.
    // The control predicts DE at 100 during the test, so the relative lift is 30 / 100 = 0.3.
    const day = (offset: number) => new Date(Date.parse(`${RANGE.start_date}T12:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
    const sale = (offset: number, country: string, amount: number, n: number) => ({
      store_id: shop.id, dt: day(offset), name: 'purchase', session_id: 9_000_000 + n, visitor_id: 9_000_000 + n,
      transaction_id: `G${n}`, transaction_gross_revenue: amount * 100, transaction_currency: 'USD', transaction_country_code: country,
    });
    const sales = [];
    for (let offset = -7; offset < 20; offset++) sales.push(sale(offset, 'DE', offset < 0 ? 100 : 130, 2 * (offset + 7)), sale(offset, 'FR', 80, 2 * (offset + 7) + 1));
    await insertRows(t.stores, 'conversions', sales);
    const created = await cli(t, ['geo-test', 'create', '--workspace', String(shop.id), '--name', 'Brand search on', '--treatment', 'DE', '--control', 'FR',
      '--start', RANGE.start_date, '--end', RANGE.end_date, '--pre-days', '7', '--source', source]);
    assert.ok('result' in created, JSON.stringify(created));
    const { tests } = await toolOk(t.app, bearer(shop.headers), 'geo-testing.get-tests', {});
    const relative = Number(tests[0].results.relative_lift);
    assert.ok(Math.abs(relative - 0.3) < 1e-9, String(relative));

    const body = await report(shop, 'data_driven');
    const tool = await toolOk(t.app, bearer(shop.headers), 'analytics.query', {
      filters: { date_from: RANGE.start_date, date_to: RANGE.end_date }, breakdown: 'source', metrics: ['conversions'], attribution_model: 'data_driven', attribution_window: 7,
    });
    assert.deepEqual(tool.settings_applied.calibrated_sources, [source]);
    // 0.3 / 1.3 of all sales were caused; every buyer bought once, so that over the buyers google touched.
    const buyers = Number(body.totals.conversions);
    const touched = generated.journeys.filter((j) => j.converted && j.touches.includes(scenario.intent!.channel)).length;
    const expected = Math.min(1, ((relative / (1 + relative)) * buyers) / touched);
    const credited = Number(body.data.find((r: { source: string }) => r.source === source)?.conversions ?? 0);
    assert.ok(Math.abs(credited / touched - expected) < 0.01, `${credited / touched} against ${expected}`);
  });
});

describe('too little data', () => {
  test('under the threshold data_driven credits as linear and says so', async () => {
    const scenario = SCENARIOS[0]!;
    const shop = await createTestWorkspace(t.stores, 'small');
    const { events, conversions } = journeyRows(shop.id, generate(scenario, 300).journeys);
    await insertRows(t.stores, 'events', events);
    await insertRows(t.stores, 'conversions', conversions);
    assert.deepEqual((await report(shop, 'data_driven', 'conversions,revenue')).data, (await report(shop, 'linear', 'conversions,revenue')).data);
    const tool = await toolOk(t.app, bearer(shop.headers), 'analytics.query', {
      filters: { date_from: RANGE.start_date, date_to: RANGE.end_date }, metrics: ['conversions', 'incremental_conversions'], attribution_model: 'data_driven',
    });
    assert.equal(tool.settings_applied.attribution_fallback, 'linear');
    assert.equal(tool.totals.incremental_conversions, null, 'the fallback does not know what would have happened anyway');
    const linear = await report(shop, 'linear', 'conversions,incremental_conversions,iroas');
    assert.deepEqual([linear.totals.incremental_conversions, linear.totals.iroas], [null, null], 'no incremental metrics under a rule');
  });
});

describe('who counts as a buyer', () => {
  test('a conversion of a counted name: every name, exact names and * patterns', async () => {
    const shop = await createTestWorkspace(t.stores, 'names');
    const visit = (visitor: number, channel: string) => ({ store_id: shop.id, dt: '2026-01-05 10:00:00', name: 'pageview', session_id: visitor, visitor_id: visitor, pathname: '/', adv_source: channel });
    const convert = (visitor: number, name: string) => ({ store_id: shop.id, dt: '2026-01-05 11:00:00', name, session_id: visitor, visitor_id: visitor, transaction_id: name === 'purchase' ? `P${visitor}` : '', transaction_gross_revenue: 1000, transaction_currency: 'USD' });
    await insertRows(t.stores, 'events', [visit(1, 'google'), visit(2, 'google'), visit(3, ''), visit(4, 'facebook')]);
    await insertRows(t.stores, 'conversions', [convert(1, 'purchase'), convert(2, 'lead'), convert(3, 'sign_up_newsletter')]);
    const buyers = async (conversionNames: string[]) => {
      const patterns = await visitorPatterns(t.stores.ch, {
        workspaceId: shop.id, range: resolveRange({ start_date: '2026-01-01', end_date: '2026-01-10' }, Date.now()), visibleChannels: null,
        excludedTransactions: [], conversionNames, attribution: { windowDays: 7, dateMode: 'conversion', excludedChannels: [] },
      });
      return Object.fromEntries(patterns.map((p) => [p.sources.join('+') || '(none)', [p.visitors, p.buyers]]));
    };
    assert.deepEqual(await buyers(['*']), { google: [2, 2], '(none)': [1, 1], meta: [1, 0] });
    assert.deepEqual(await buyers(['purchase']), { google: [2, 1], '(none)': [1, 0], meta: [1, 0] });
    assert.deepEqual(await buyers(['lead', 'sign_up*']), { google: [2, 1], '(none)': [1, 1], meta: [1, 0] });
  });
});

describe('whose touchpoints make a pattern', () => {
  test('visitors sharing a customer id are one, a conversion counts for its own customer id first, channels the app does not name are sources too', async () => {
    const shop = await createTestWorkspace(t.stores, 'identities');
    const visit = (session: number, visitor: number, day: string, channel: string, customer = '') =>
      ({ store_id: shop.id, dt: `${day} 10:00:00`, name: 'pageview', session_id: session, visitor_id: visitor, pathname: '/', adv_source: channel, customer_id: customer });
    const buy = (visitor: number, day: string, customer = '') =>
      ({ store_id: shop.id, dt: `${day} 11:00:00`, name: 'purchase', session_id: visitor * 10, visitor_id: visitor, customer_id: customer, transaction_id: `P${visitor}`, transaction_gross_revenue: 1000, transaction_currency: 'USD' });
    await insertRows(t.stores, 'events', [
      // ann: visitors 1 and 2 (google; facebook and instagram, both meta), visitor 2 buys.
      visit(11, 1, '2026-01-02', 'google', 'ann'), visit(21, 2, '2026-01-03', 'facebook', 'ann'), visit(22, 2, '2026-01-04', 'instagram', 'ann'),
      // Visitor 3: influencer (creator), a channel the app does not name, and an untagged session.
      visit(31, 3, '2026-01-02', 'influencer'), visit(32, 3, '2026-01-03', 'podcast'), visit(33, 3, '2026-01-04', ''),
      // Visitor 5's only session is before the scan range; visitor 6's bing session is in the window before the range.
      visit(51, 5, '2025-12-20', 'tiktok'), visit(61, 6, '2025-12-28', 'bing'),
      // bob (visitor 7) reads an email; the purchase below names ann, so it is ann's.
      visit(71, 7, '2026-01-06', 'email', 'bob'),
      visit(81, 8, '2026-01-02', 'podcast'), visit(82, 8, '2026-01-03', 'google'),
      // cy: visitors 9 and 10 heard of the shop on the radio and a podcast.
      visit(91, 9, '2026-01-02', 'radio', 'cy'), visit(101, 10, '2026-01-03', 'podcast', 'cy'), visit(102, 10, '2026-01-04', 'podcast', 'cy'),
      visit(111, 11, '2026-01-02', ''),
    ]);
    // Visitor 4 buys without any session.
    await insertRows(t.stores, 'conversions', [buy(2, '2026-01-05'), buy(4, '2026-01-05'), buy(7, '2026-01-07', 'ann'), buy(11, '2026-01-02')]);
    const patterns = async (visibleChannels: string[] | null, excludedChannels: string[]) => {
      const found = await visitorPatterns(t.stores.ch, {
        workspaceId: shop.id, range: resolveRange({ start_date: '2026-01-01', end_date: '2026-01-10' }, Date.now()), visibleChannels,
        excludedTransactions: [], conversionNames: ['*'], attribution: { windowDays: 7, dateMode: 'conversion', excludedChannels },
      });
      return Object.fromEntries(found.map((p) => [p.sources.join('+') || '(none)', [p.visitors, p.buyers]]));
    };
    assert.deepEqual(await patterns(null, []), {
      'google+meta': [1, 1], 'creator+podcast': [1, 0], '(none)': [2, 2], microsoft: [1, 0], email: [1, 0], 'google+podcast': [1, 0], 'podcast+radio': [1, 0],
    });
    assert.deepEqual(await patterns(null, ['podcast', 'google']), {
      meta: [1, 1], creator: [1, 0], '(none)': [3, 2], microsoft: [1, 0], email: [1, 0], radio: [1, 0],
    });
    // A key that sees meta and organic: every visitor still counts, with the touchpoints it sees.
    assert.deepEqual(await patterns(channelsOfAll(['meta', 'organic']), []), { meta: [1, 1], '(none)': [7, 2] });
    assert.deepEqual(await patterns(['radio', 'google'], []), { google: [2, 1], radio: [1, 0], '(none)': [5, 2] });
  });
});
