/**
 * The attribution bench's ground truth (bench/attribution/synthetic-journeys.ts): the generator
 * orders touches by role and draws buyers at the stated chance, and the true shares and errors are
 * the arithmetic the docs state, checked on numbers worked out by hand.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generate, meanAbsoluteError, trueShares, type Scenario } from '../../bench/attribution/synthetic-journeys.ts';

const roles: Scenario = {
  name: 'roles',
  description: 'every shopper sees all three; tiktok first, email last',
  shoppers: 2_000,
  base: 0.1,
  channels: [
    { channel: 'email', source: 'email', lift: 0, reach: 1, position: 'late' },
    { channel: 'facebook', source: 'meta', lift: 0.2, reach: 1, position: 'any' },
    { channel: 'tiktok', source: 'tiktok', lift: 0.3, reach: 1, position: 'early' },
  ],
};

describe('synthetic journeys', () => {
  test('early channels come first and late ones last; the same seed gives the same shoppers', () => {
    const { journeys, reached } = generate(roles);
    assert.ok(journeys.every((j) => j.touches.join(',') === 'tiktok,facebook,email'));
    assert.deepEqual(Object.fromEntries(reached), { email: 2000, meta: 2000, tiktok: 2000 });
    assert.deepEqual(generate(roles).journeys, journeys);
  });

  test('buyers are drawn at base plus the lifts seen: 60 % here, within four standard errors', () => {
    const buyers = generate(roles).journeys.filter((j) => j.converted).length;
    // sd of the count = sqrt(2000 * 0.6 * 0.4) = 21.9
    assert.ok(Math.abs(buyers - 1200) < 4 * 21.9, String(buyers));
  });

  test('an intent touch follows the decision and gets no share of the truth', () => {
    const intent: Scenario = { ...roles, intent: { channel: 'google', source: 'google', buyers: 1, others: 0 } };
    const { journeys, reached } = generate(intent);
    assert.ok(journeys.every((j) => (j.touches.at(-1) === 'google') === j.converted));
    assert.deepEqual(Object.fromEntries(trueShares(intent, reached)), { email: 0, meta: 0.4, tiktok: 0.6, google: 0 });
  });

  test('true shares are lift times reach over their sum; the error is the mean absolute difference', () => {
    // meta: 0.04 x 500 = 20, google: 0.02 x 500 = 10, tiktok: 0.06 x 300 = 18; sum 48.
    const scenario: Scenario = { ...roles, channels: [
      { channel: 'facebook', source: 'meta', lift: 0.04, reach: 0.5, position: 'any' },
      { channel: 'google', source: 'google', lift: 0.02, reach: 0.5, position: 'any' },
      { channel: 'tiktok', source: 'tiktok', lift: 0.06, reach: 0.3, position: 'any' },
    ] };
    const truth = trueShares(scenario, new Map([['meta', 500], ['google', 500], ['tiktok', 300]]));
    assert.deepEqual([...truth].map(([s, v]) => [s, Math.round(v * 1e6) / 1e6]), [['meta', 0.416667], ['google', 0.208333], ['tiktok', 0.375]]);
    // |0.5 - 20/48| + |0.5 - 10/48| + |0 - 18/48| = 4/48 + 14/48 + 18/48 = 36/48; mean 0.25.
    const error = meanAbsoluteError(truth, new Map([['meta', 0.5], ['google', 0.5]]));
    assert.ok(Math.abs(error - 0.25) < 1e-12, String(error));
  });
});
