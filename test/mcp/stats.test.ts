/** Unit tests of the dense statistics behind correlations, A/B results and ad fatigue (no fixture). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalCdf, pearson, twoProportionTest } from '../../src/mcp/tools/kit/stats.ts';
import { fatigueOf } from '../../src/analytics/ad-fatigue.ts';

test('pearson is 1 for a perfect line, -1 for a falling one, null for constant or short series', () => {
  assert.equal(pearson([1, 2, 3, 4], [10, 20, 30, 40]), 1);
  assert.equal(pearson([1, 2, 3], [3, 2, 1]), -1);
  assert.equal(pearson([1, 1, 1], [1, 2, 3]), null);
  assert.equal(pearson([1, 2], [1, 2]), null);
  // hand-computed: x = [1000, 4000, 0], y = [0, 10000, 0] -> 0.9707
  assert.equal(pearson([1000, 4000, 0], [0, 10000, 0]), 0.9707);
});

test('normalCdf matches the standard normal table', () => {
  assert.equal(Math.round(normalCdf(0) * 1e4) / 1e4, 0.5);
  assert.equal(Math.round(normalCdf(1.96) * 1e4) / 1e4, 0.975);
  assert.equal(Math.round(normalCdf(-1) * 1e4) / 1e4, 0.1587);
});

test('twoProportionTest: 200/1000 against 260/1000 is significant, small samples are not', () => {
  // pooled 0.23, se = sqrt(0.23 * 0.77 * 0.002) = 0.018820, z = 0.06 / se = 3.188
  assert.deepEqual(twoProportionTest(200, 1000, 260, 1000), { z: 3.188, p_value: 0.0014, significant: true });
  assert.deepEqual(twoProportionTest(1, 2, 1, 1), { z: 0.866, p_value: 0.3865, significant: false });
  assert.deepEqual(twoProportionTest(0, 0, 1, 1), { z: null, p_value: null, significant: false });
});

test('fatigueOf scores a steady ad 0 and a single-day ad null', () => {
  const day = (clicks: number, reach: number) => ({
    source: 'meta', ad_id: 'a', ad_name: 'a', campaign_name: 'c', day: '2026-11-01', spend_cents: 100, impressions: 1000, clicks, reach,
  });
  assert.equal(fatigueOf([day(10, 900), day(10, 900), day(10, 900), day(10, 900)]).score, 0);
  assert.equal(fatigueOf([day(10, 900)]).score, null);
  // CTR -25 % (30 of 60 points), frequency +50 % (20 of 40 points)
  assert.equal(fatigueOf([day(40, 1000), day(30, 1000 / 1.5)]).score, 50);
});
