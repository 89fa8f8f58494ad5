/**
 * The data-driven estimator's arithmetic (src/analytics/attribution/incremental.ts, nnls.ts) on
 * patterns whose answer is known: exact additive rates are fitted back exactly, a channel that
 * lowers the rate is held at 0 and the others refitted, too few buyers fall back, and a lift test's
 * share is met by the calibrated lift.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { nonNegativeLeastSquares } from '../../src/analytics/attribution/nnls.ts';
import { solveLinear } from '../../src/analytics/attribution/markov.ts';
import { calibratedLift, fitIncremental, geoTestShare, type VisitorPattern } from '../../src/analytics/attribution/incremental.ts';

const close = (actual: number, expected: number, what: string, within = 1e-9) =>
  assert.ok(Math.abs(actual - expected) < within, `${what}: ${actual} != ${expected}`);

/** Patterns whose buy rates are exactly baseline + the lifts seen. */
function additive(baseline: number, lifts: Record<string, number>, visitors = 10_000): VisitorPattern[] {
  const sources = Object.keys(lifts);
  return Array.from({ length: 2 ** sources.length }, (_, mask) => {
    const seen = sources.filter((_, i) => mask & (1 << i)).sort();
    return { sources: seen, visitors, buyers: visitors * (baseline + seen.reduce((sum, s) => sum + lifts[s]!, 0)) };
  });
}

describe('non-negative least squares', () => {
  test('equals the unconstrained solve when that is non-negative', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0.1, max: 5, noNaN: true }), { minLength: 3, maxLength: 3 }), (x) => {
      // A well-conditioned positive definite A; g = A x for a positive x.
      const a = [[4, 1, 0.5], [1, 3, 0.2], [0.5, 0.2, 2]];
      const g = a.map((row) => row.reduce((sum, v, j) => sum + v * x[j]!, 0));
      const beta = nonNegativeLeastSquares(a, g);
      solveLinear(a, g).forEach((v, i) => close(beta[i]!, v, `beta ${i}`, 1e-8));
    }));
  });

  test('holds a coefficient at 0 when the unconstrained one would be negative', () => {
    // Unconstrained: [2, -1]; with beta2 = 0, beta1 = g1 / a11 = 3 / 2.
    assert.deepEqual(nonNegativeLeastSquares([[2, 1], [1, 2]], [3, 0]).map((v) => Math.round(v * 1e9) / 1e9), [1.5, 0]);
  });
});

describe('the incremental fit', () => {
  test('recovers exact additive lifts and the baseline', () => {
    const fit = fitIncremental(additive(0.02, { meta: 0.04, google: 0.01, tiktok: 0.06 }));
    assert.equal(fit.method, 'nonnegative_linear_probability');
    assert.deepEqual(fit.sources, ['google', 'meta', 'tiktok']);
    close(fit.baseline, 0.02, 'baseline');
    [0.01, 0.04, 0.06].forEach((lift, i) => close(fit.lifts[i]!, lift, fit.sources[i]!));
    assert.deepEqual([fit.visitors, fit.buyers], [80_000, Math.round(fit.buyers)]);
  });

  test('a channel whose viewers buy less gets 0, never a negative lift', () => {
    const patterns = additive(0.05, { meta: 0.03, email: -0.02 });
    const fit = fitIncremental(patterns);
    assert.equal(fit.lifts[fit.sources.indexOf('email')], 0);
    assert.ok(fit.lifts[fit.sources.indexOf('meta')]! > 0);
  });

  test('fewer than 100 buyers or 1,000 visitors: linear fallback', () => {
    assert.equal(fitIncremental([{ sources: ['meta'], visitors: 5_000, buyers: 99 }]).method, 'linear_fallback');
    assert.equal(fitIncremental([{ sources: ['meta'], visitors: 999, buyers: 500 }]).method, 'linear_fallback');
  });
});

describe('a lift test as a lift', () => {
  test("the calibrated lift gives the source the test's share of the conversions it touched", () => {
    const patterns = additive(0.02, { meta: 0.04, google: 0.01 });
    const fit = fitIncremental(patterns);
    for (const share of [0, 0.05, 0.3, 0.9]) {
      const lift = calibratedLift(fit, patterns, 'google', share);
      const touched = patterns.filter((p) => p.sources.includes('google'));
      const meta = fit.lifts[fit.sources.indexOf('meta')]!;
      const credited = touched.reduce((sum, p) => sum + (p.buyers * lift) / (fit.baseline + lift + (p.sources.includes('meta') ? meta : 0)), 0);
      close(credited / touched.reduce((sum, p) => sum + p.buyers, 0), share, `share ${share}`, 1e-9);
    }
  });
});

describe('a geo test as a lift test', () => {
  test("the treatment regions' extra sales, as a share of the conversions the source touched", () => {
    // 300 buyers, 120 of them touched by google; a relative lift of 0.25 means 0.2 of all sales:
    // 60 conversions, half of the 120 google touched.
    const patterns: VisitorPattern[] = [
      { sources: [], visitors: 5000, buyers: 100 }, { sources: ['google'], visitors: 2000, buyers: 80 },
      { sources: ['google', 'meta'], visitors: 1000, buyers: 40 }, { sources: ['meta'], visitors: 2000, buyers: 80 },
    ];
    close(geoTestShare(0.25, patterns, 'google'), 0.5, 'share');
    assert.equal(geoTestShare(-0.1, patterns, 'google'), 0, 'a fall says the source caused nothing');
    assert.equal(geoTestShare(5, patterns, 'google'), 1, 'never above the conversions it touched');
    assert.equal(geoTestShare(0.25, patterns, 'tiktok'), 0, 'a source no buyer saw');
  });
});
