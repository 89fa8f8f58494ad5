/**
 * Attribution arithmetic, stated on hand-built paths and checked by running each model's own SQL
 * (the same expressions the report uses) in embedded ClickHouse. A path is a list of touchpoints
 * [time, session id, raw channel]; the conversion happens at CONV unless a case says otherwise.
 * Results are [session id, reporting source, weight] per touch in path order; session 0 with
 * source organic is the fallback touch of a conversion that has no eligible touchpoint.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Clickhouse } from '../../src/store/clickhouse.ts';
import { openTestClickhouse } from '../helper.ts';
import { ATTRIBUTION_MODELS, attributionColumns, touchSql, type ModelName } from '../../src/analytics/attribution/index.ts';
import { reportingSourceSql } from '../../src/analytics/dimensions.ts';

let ch: Clickhouse;
let close: () => Promise<void>;

before(async () => {
  ({ ch, close } = await openTestClickhouse());
});

after(() => close());

const CONV = '2026-03-08 12:00:00.000';
type Touch = [ts: string, sessionId: number, channel: string];

/** What markov binds: the chain's removal effect per reporting source, and the channels the key sees (null: all). */
interface MarkovChain {
  effects: Record<string, number>;
  visible?: string[];
}

/** A chain in which every source of these paths has the same effect: markov is then even shares over platforms. */
const EVEN_CHAIN: MarkovChain = { effects: { meta: 0.5, google: 0.5, email: 0.5, tiktok: 0.5, pinterest: 0.5, creator: 0.5 } };

const chainParams = (chain: MarkovChain) => ({
  mk_sources: Object.keys(chain.effects),
  mk_effects: Object.values(chain.effects),
  mk_restricted: chain.visible ? 1 : 0,
  mk_channels: chain.visible ?? [],
});

/** What data_driven binds: each source's lift, the baseline, lift tests, the channels the key sees. */
interface IncrementalLifts {
  lifts: Record<string, number>;
  baseline: number;
  fallback?: boolean;
  tests?: { source: string; start: string; end: string; lift: number }[];
  visible?: string[];
}

/** Every source of these paths adds the same and nothing happens without them: data_driven is then even shares over platforms. */
const EVEN_LIFTS: IncrementalLifts = { lifts: { meta: 0.1, google: 0.1, email: 0.1, tiktok: 0.1, pinterest: 0.1, creator: 0.1 }, baseline: 0 };

const liftParams = (fit: IncrementalLifts) => ({
  dd_fallback: fit.fallback ? 1 : 0,
  dd_sources: Object.keys(fit.lifts),
  dd_lifts: Object.values(fit.lifts),
  dd_baseline: fit.baseline,
  dd_cal_sources: (fit.tests ?? []).map((t) => t.source),
  dd_cal_starts: (fit.tests ?? []).map((t) => t.start),
  dd_cal_ends: (fit.tests ?? []).map((t) => t.end),
  dd_cal_lifts: (fit.tests ?? []).map((t) => t.lift),
  dd_restricted: fit.visible ? 1 : 0,
  dd_channels: fit.visible ?? [],
});

async function attribute(
  model: ModelName,
  touches: Touch[],
  options: { conv?: string; window?: number; excluded?: string[]; chain?: MarkovChain; fit?: IncrementalLifts } = {},
): Promise<[number, string, number][]> {
  const pathSql = `arrayMap(x -> ${touchSql({ ts: 'x.1', session_id: 'x.2', channel: 'x.3', source: reportingSourceSql('x.3') })},
    arrayZip({ts:Array(DateTime64(3, 'UTC'))}, {sid:Array(UInt64)}, {channel:Array(String)}))`;
  const fallback = touchSql({ ts: 'conv_ts', channel: "''", source: "'organic'" });
  const bound = { ...chainParams(options.chain ?? EVEN_CHAIN), ...liftParams(options.fit ?? EVEN_LIFTS) };
  const { eligible, credits } = attributionColumns(model, { path: 'path', convTs: 'conv_ts', fallback, bound });
  // An organic touch with no weight is no credit (the report keeps credits above 0): data_driven's empty remainder.
  const sql = `SELECT arrayMap(c -> (c.1.session_id, c.1.source, round(c.2, 4)), arrayFilter(c -> c.1.session_id != 0 OR c.2 > 0, ${credits})) AS out
    FROM (SELECT ${pathSql} AS path, {conv:DateTime64(3, 'UTC')} AS conv_ts, ${eligible} AS eligible)`;
  const rows = await ch.query<{ out: [string, string, number][] }>('test-attribution', sql, {
    ts: touches.map((t) => t[0]),
    sid: touches.map((t) => t[1]),
    channel: touches.map((t) => t[2]),
    conv: options.conv ?? CONV,
    window_days: options.window ?? 7,
    excluded_channels: options.excluded ?? [],
    ...bound,
  });
  return rows[0]!.out.map(([sid, source, weight]) => [Number(sid), source, weight]);
}

const ONE: Touch[] = [['2026-03-05 10:00:00', 1, 'facebook']];
const TWO: Touch[] = [
  ['2026-03-05 10:00:00', 1, 'facebook'],
  ['2026-03-06 10:00:00', 2, 'google'],
];
const THREE: Touch[] = [...TWO, ['2026-03-07 10:00:00', 3, 'email']];
const FIVE: Touch[] = [
  ['2026-03-02 10:00:00', 1, 'facebook'],
  ['2026-03-03 10:00:00', 2, 'google'],
  ['2026-03-04 10:00:00', 3, 'instagram'],
  ['2026-03-05 10:00:00', 4, 'email'],
  ['2026-03-06 10:00:00', 5, 'tiktok'],
];

const weights = (rows: [number, string, number][]) => rows.map((r) => r[2]);

describe('attribution models on hand-built paths', () => {
  test('a single touchpoint gets 100 % under every model', async () => {
    for (const model of ATTRIBUTION_MODELS) {
      assert.deepEqual(await attribute(model, ONE), [[1, 'meta', 1]], model);
    }
  });

  test('two touchpoints: last 0/1, first 1/0, linear, u_shaped and total_impact 50/50, any_click 1/1', async () => {
    assert.deepEqual(weights(await attribute('last_click', TWO)), [0, 1]);
    assert.deepEqual(weights(await attribute('first_click', TWO)), [1, 0]);
    assert.deepEqual(weights(await attribute('linear', TWO)), [0.5, 0.5]);
    assert.deepEqual(weights(await attribute('u_shaped', TWO)), [0.5, 0.5]);
    assert.deepEqual(weights(await attribute('total_impact', TWO)), [0.5, 0.5]);
    assert.deepEqual(weights(await attribute('any_click', TWO)), [1, 1]);
  });

  test('three touchpoints: linear thirds, u_shaped 40/20/40, total_impact drops the email touch', async () => {
    assert.deepEqual(await attribute('last_click', THREE), [[1, 'meta', 0], [2, 'google', 0], [3, 'email', 1]]);
    assert.deepEqual(weights(await attribute('first_click', THREE)), [1, 0, 0]);
    assert.deepEqual(weights(await attribute('linear', THREE)), [0.3333, 0.3333, 0.3333]);
    assert.deepEqual(weights(await attribute('u_shaped', THREE)), [0.4, 0.2, 0.4]);
    assert.deepEqual(weights(await attribute('total_impact', THREE)), [0.5, 0.5, 0]);
    assert.deepEqual(weights(await attribute('any_click', THREE)), [1, 1, 1]);
  });

  test('five touchpoints: u_shaped splits 20 % over three middles; any_click credits meta once, on instagram', async () => {
    assert.deepEqual(weights(await attribute('last_click', FIVE)), [0, 0, 0, 0, 1]);
    assert.deepEqual(weights(await attribute('first_click', FIVE)), [1, 0, 0, 0, 0]);
    assert.deepEqual(weights(await attribute('linear', FIVE)), [0.2, 0.2, 0.2, 0.2, 0.2]);
    assert.deepEqual(weights(await attribute('u_shaped', FIVE)), [0.4, 0.0667, 0.0667, 0.0667, 0.4]);
    assert.deepEqual(weights(await attribute('total_impact', FIVE)), [0.25, 0.25, 0.25, 0, 0.25]);
    assert.deepEqual(await attribute('any_click', FIVE), [
      [1, 'meta', 0], [2, 'google', 1], [3, 'meta', 1], [4, 'email', 1], [5, 'tiktok', 1],
    ]);
  });

  test('total_impact over only email and organic touches is plain linear', async () => {
    const path: Touch[] = [['2026-03-05 10:00:00', 1, 'email'], ['2026-03-06 10:00:00', 2, 'organic']];
    assert.deepEqual(await attribute('total_impact', path), [[1, 'email', 0.5], [2, 'organic', 0.5]]);
  });

  test('orders the path by time whatever the input order, and breaks ties in time by session id', async () => {
    const tied: Touch[] = [
      ['2026-03-06 10:00:00', 7, 'google'],
      ['2026-03-06 10:00:00', 5, 'tiktok'],
      ['2026-03-02 10:00:00', 9, 'facebook'],
    ];
    assert.deepEqual(await attribute('last_click', tied), [[9, 'meta', 0], [5, 'tiktok', 0], [7, 'google', 1]]);
    assert.deepEqual(weights(await attribute('first_click', tied)), [1, 0, 0]);
  });

  test('untagged sessions are not touchpoints', async () => {
    const path: Touch[] = [['2026-03-05 10:00:00', 1, 'google'], ['2026-03-07 10:00:00', 2, '']];
    assert.deepEqual(await attribute('last_click', path), [[1, 'google', 1]]);
  });

  test('an excluded channel leaves the path, so credit moves to the previous eligible touchpoint', async () => {
    assert.deepEqual(await attribute('last_click', THREE, { excluded: ['email'] }), [[1, 'meta', 0], [2, 'google', 1]]);
    assert.deepEqual(await attribute('linear', THREE, { excluded: ['google'] }), [[1, 'meta', 0.5], [3, 'email', 0.5]]);
    const creator: Touch[] = [['2026-03-05 10:00:00', 1, 'google'], ['2026-03-06 10:00:00', 2, 'influencer']];
    assert.deepEqual(await attribute('last_click', creator, { excluded: ['creator', 'influencer'] }), [[1, 'google', 1]]);
  });

  test('a path whose every touchpoint is excluded is credited to organic', async () => {
    assert.deepEqual(await attribute('linear', TWO, { excluded: ['facebook', 'google'] }), [[0, 'organic', 1]]);
  });

  test('a conversion with no session at all is credited to organic in full', async () => {
    for (const model of ATTRIBUTION_MODELS) assert.deepEqual(await attribute(model, []), [[0, 'organic', 1]], model);
  });

  test('the window includes a touch exactly window days before the conversion and one at the conversion instant', async () => {
    const edges: Touch[] = [
      ['2026-03-01 11:59:59.999', 1, 'facebook'],
      ['2026-03-01 12:00:00.000', 2, 'google'],
      ['2026-03-08 12:00:00.000', 3, 'tiktok'],
      ['2026-03-08 12:00:00.001', 4, 'pinterest'],
    ];
    assert.deepEqual(await attribute('linear', edges), [[2, 'google', 0.5], [3, 'tiktok', 0.5]]);
    assert.deepEqual(await attribute('first_click', edges, { window: 1 }), [[3, 'tiktok', 1]]);
    assert.deepEqual(await attribute('first_click', edges, { window: 28 }), [[1, 'meta', 1], [2, 'google', 0], [3, 'tiktok', 0]]);
  });
});

describe('markov weights for a given chain', () => {
  test('shares in proportion to the removal effects of the distinct platforms in the path', async () => {
    // 0.5 + 1 + 0.25 = 1.75: meta 0.5/1.75, google 1/1.75, email 0.25/1.75.
    const chain = { effects: { meta: 0.5, google: 1, email: 0.25 } };
    assert.deepEqual(await attribute('markov', THREE, { chain }), [[1, 'meta', 0.2857], [2, 'google', 0.5714], [3, 'email', 0.1429]]);
  });

  test("a platform's share goes to its last touchpoint: meta's on instagram, none on facebook", async () => {
    assert.deepEqual(weights(await attribute('markov', FIVE)), [0, 0.25, 0.25, 0.25, 0.25]);
  });

  test('effects that sum to 0 split equally', async () => {
    assert.deepEqual(weights(await attribute('markov', TWO, { chain: { effects: { meta: 0, google: 0 } } })), [0.5, 0.5]);
  });

  test('a platform that is no state of the chain gets nothing', async () => {
    const path: Touch[] = [['2026-03-05 10:00:00', 1, 'facebook'], ['2026-03-06 10:00:00', 2, 'tiktok']];
    assert.deepEqual(await attribute('markov', path, { chain: { effects: { meta: 0.3 } } }), [[1, 'meta', 1], [2, 'tiktok', 0]]);
  });

  test('organic touches are no states: a path of only organic touches goes to the last of them', async () => {
    const path: Touch[] = [['2026-03-05 10:00:00', 1, 'organic'], ['2026-03-06 10:00:00', 2, 'organic']];
    assert.deepEqual(await attribute('markov', path), [[1, 'organic', 0], [2, 'organic', 1]]);
    const mixed: Touch[] = [['2026-03-05 10:00:00', 1, 'google'], ['2026-03-06 10:00:00', 2, 'organic']];
    assert.deepEqual(await attribute('markov', mixed), [[1, 'google', 1], [2, 'organic', 0]]);
  });

  test('for a key that sees facebook only, hidden touches are no states, even of a visible platform', async () => {
    const path: Touch[] = [
      ['2026-03-04 10:00:00', 1, 'facebook'],
      ['2026-03-05 10:00:00', 2, 'instagram'],
      ['2026-03-06 10:00:00', 3, 'google'],
    ];
    const chain = { effects: { meta: 1, google: 1 }, visible: ['facebook'] };
    assert.deepEqual(await attribute('markov', path, { chain }), [[1, 'meta', 1], [2, 'meta', 0], [3, 'google', 0]]);
    // Of what it sees only an organic touch: as for a path of that touch alone, it gets everything.
    const organic: Touch[] = [['2026-03-05 10:00:00', 1, 'organic'], ['2026-03-06 10:00:00', 2, 'google']];
    assert.deepEqual(await attribute('markov', organic, { chain }), [[1, 'organic', 1], [2, 'google', 0]]);
    // Nothing it sees: the credit stays on a touch it does not see, never on organic or facebook.
    assert.deepEqual(await attribute('markov', [['2026-03-06 10:00:00', 2, 'google']], { chain }), [[2, 'google', 1]]);
  });
});

describe('data_driven weights for given lifts', () => {
  test('lift / (baseline + lifts seen) per platform, on its last touch; the rest to the organic touch', async () => {
    // 0.02 + 0.04 + 0.06 = 0.12: meta 0.04/0.12, google 0.06/0.12, organic 0.02/0.12.
    const fit = { lifts: { meta: 0.04, google: 0.06 }, baseline: 0.02 };
    assert.deepEqual(await attribute('data_driven', TWO, { fit }), [[1, 'meta', 0.3333], [2, 'google', 0.5], [0, 'organic', 0.1667]]);
    // meta's share on instagram, its last touch; email and tiktok have no lift and get nothing.
    const five = { lifts: { meta: 0.03, google: 0.01, tiktok: 0 }, baseline: 0.01 };
    assert.deepEqual(weights(await attribute('data_driven', FIVE, { fit: five })), [0, 0.2, 0.6, 0, 0, 0.2]);
  });

  test('a platform with lift 0 and no baseline: the conversion is organic in full; a path without touches too', async () => {
    assert.deepEqual(await attribute('data_driven', ONE, { fit: { lifts: { meta: 0 }, baseline: 0 } }), [[1, 'meta', 0], [0, 'organic', 1]]);
    assert.deepEqual(await attribute('data_driven', [], { fit: { lifts: { meta: 0.1 }, baseline: 0.01 } }), [[0, 'organic', 1]]);
  });

  test("a lift test replaces the platform's lift for conversions in its days only", async () => {
    const tests = [{ source: 'google', start: '2026-03-08 00:00:00', end: '2026-03-08 23:59:59', lift: 0 }];
    const fit = { lifts: { meta: 0.04, google: 0.06 }, baseline: 0.02, tests };
    assert.deepEqual(await attribute('data_driven', TWO, { fit }), [[1, 'meta', 0.6667], [2, 'google', 0], [0, 'organic', 0.3333]]);
    const later = [{ ...tests[0]!, start: '2026-03-09 00:00:00', end: '2026-03-09 23:59:59' }];
    assert.deepEqual(weights(await attribute('data_driven', TWO, { fit: { ...fit, tests: later } })), [0.3333, 0.5, 0.1667]);
  });

  test('too little data to fit: linear, nothing left over', async () => {
    assert.deepEqual(weights(await attribute('data_driven', THREE, { fit: { lifts: {}, baseline: 0, fallback: true } })), [0.3333, 0.3333, 0.3333]);
  });

  test('for a key that sees facebook only, hidden touches get nothing and their part is organic', async () => {
    const path: Touch[] = [['2026-03-05 10:00:00', 1, 'instagram'], ['2026-03-06 10:00:00', 2, 'facebook'], ['2026-03-07 10:00:00', 3, 'google']];
    const fit = { lifts: { meta: 0.05 }, baseline: 0.05, visible: ['facebook'] };
    assert.deepEqual(await attribute('data_driven', path, { fit }), [[1, 'meta', 0], [2, 'meta', 0.5], [3, 'google', 0], [0, 'organic', 0.5]]);
  });
});
