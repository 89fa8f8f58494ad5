/**
 * The data-driven chain's arithmetic (src/analytics/attribution/markov.ts), checked two independent
 * ways: small fixtures whose P and removal effects are worked out by hand below, and a brute-force
 * walk-by-walk sum over small random chains (no linear algebra), which must agree with
 * the exact solve.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addJourney, emptyCounts, solveChain, type ChainCounts } from '../../src/analytics/attribution/markov.ts';

function chainOf(journeys: [string[], boolean, number?][]): ChainCounts {
  const counts = emptyCounts();
  for (const [states, converted, n] of journeys) addJourney(counts, states, converted, n);
  return counts;
}

const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} != ${expected}`);

function assertChain(counts: ChainCounts, expected: { p: number; effects: Record<string, number>; converting: number; nonConverting: number }) {
  const solved = solveChain(counts);
  assert.deepEqual(solved.sources, Object.keys(expected.effects).sort());
  close(solved.conversionProbability, expected.p, 'P');
  solved.sources.forEach((s, i) => close(solved.removalEffects[i]!, expected.effects[s]!, `removal effect of ${s}`));
  assert.deepEqual(solved.paths, { converting: expected.converting, non_converting: expected.nonConverting });
}

describe('removal effects on hand-computed chains', () => {
  test('meta -> google converts, meta alone does not, google alone converts', () => {
    // Steps: start->meta 2, start->google 1; meta->google 1, meta->null 1; google->conversion 2.
    // p(google) = 1; p(meta) = 1/2 * p(google) = 1/2; P = 2/3 * 1/2 + 1/3 * 1 = 2/3.
    // Without meta: start->meta goes to null, P = 1/3 * 1 = 1/3, effect (2/3 - 1/3) / (2/3) = 1/2.
    // Without google: p(meta) = 0 and P = 0, effect 1.
    assertChain(chainOf([[['meta', 'google'], true], [['meta'], false], [['google'], true]]), {
      p: 2 / 3, effects: { meta: 1 / 2, google: 1 }, converting: 2, nonConverting: 1,
    });
  });

  test('a cycle: meta -> google -> meta converts, google and meta alone do not', () => {
    // Steps: start->meta 2, start->google 1; meta->google 1, meta->conversion 1, meta->null 1;
    // google->meta 1, google->null 1.
    // p(meta) = 1/3 p(google) + 1/3, p(google) = 1/2 p(meta) => p(meta) = 2/5, p(google) = 1/5;
    // P = 2/3 * 2/5 + 1/3 * 1/5 = 1/3.
    // Without meta: p(google) = 0, P = 0, effect 1.
    // Without google: p(meta) = 1/3, P = 2/3 * 1/3 = 2/9, effect (1/3 - 2/9) / (1/3) = 1/3.
    assertChain(chainOf([[['meta', 'google', 'meta'], true], [['google'], false], [['meta'], false]]), {
      p: 1 / 3, effects: { meta: 1, google: 1 / 3 }, converting: 1, nonConverting: 2,
    });
  });

  test('a channel that only ever leads to null has effect 0; counts weigh journeys', () => {
    // 3 x email -> google -> conversion, 1 x tiktok -> null, 1 x google -> null.
    // p(google) = 3/4 (3 conversions of 4 exits); p(email) = p(google) = 3/4; p(tiktok) = 0.
    // P = 3/5 * 3/4 + 1/5 * 0 + 1/5 * 3/4 = 3/5. Without email: P = 1/5 * 3/4 = 3/20, effect 3/4.
    // Without google: P = 0, effect 1. Without tiktok: P unchanged, effect 0.
    assertChain(chainOf([[['email', 'google'], true, 3], [['tiktok'], false], [['google'], false]]), {
      p: 3 / 5, effects: { email: 3 / 4, google: 1, tiktok: 0 }, converting: 3, nonConverting: 2,
    });
  });

  test('no conversion at all: P is 0 and every effect is 0', () => {
    assertChain(chainOf([[['meta', 'google'], false]]), { p: 0, effects: { meta: 0, google: 0 }, converting: 0, nonConverting: 1 });
  });

  test('no journey at all: an empty chain', () => {
    assert.deepEqual(solveChain(emptyCounts()), { sources: [], conversionProbability: 0, removalEffects: [], paths: { converting: 0, non_converting: 0 } });
  });
});

/**
 * P by walking the chain, without any equation: every walk from start, with the probability of its
 * steps multiplied, summed over the walks that end in conversion. Walks of the same length that
 * stand on the same state are summed before the next step (otherwise cycles make their number grow
 * without bound); walking stops once less than 1e-15 of the mass is still on the way.
 */
function walkP(counts: ChainCounts, removed: string | null): number {
  const total = (m: Map<string, number> | undefined) => [...(m?.values() ?? [])].reduce((a, b) => a + b, 0);
  const started = total(counts.starts);
  let converted = 0;
  let onTheWay = new Map([...counts.starts].map(([first, n]) => [first, n / started]));
  while ([...onTheWay.values()].reduce((a, b) => a + b, 0) > 1e-15) {
    const next = new Map<string, number>();
    for (const [state, mass] of onTheWay) {
      if (state === removed) continue;
      const out = total(counts.steps.get(state)) + (counts.conversions.get(state) ?? 0) + (counts.nulls.get(state) ?? 0);
      converted += (mass * (counts.conversions.get(state) ?? 0)) / out;
      for (const [to, n] of counts.steps.get(state) ?? []) next.set(to, (next.get(to) ?? 0) + (mass * n) / out);
    }
    onTheWay = next;
  }
  return converted;
}

describe('the exact solve against brute-force walks', () => {
  const source = fc.constantFrom('meta', 'google', 'tiktok', 'email');
  const journey = fc.tuple(fc.array(source, { minLength: 1, maxLength: 5 }), fc.boolean(), fc.integer({ min: 1, max: 5 }));

  test('P and P(-X) agree on random chains of up to four sources', () => {
    fc.assert(
      fc.property(fc.array(journey, { minLength: 1, maxLength: 12 }), (journeys) => {
        // Collapse repeats as the chain's SQL does.
        const counts = chainOf(journeys.map(([states, converted, n]) => [states.filter((s, i) => s !== states[i - 1]), converted, n]));
        const solved = solveChain(counts);
        const p = walkP(counts, null);
        assert.ok(Math.abs(solved.conversionProbability - p) < 1e-9, `P ${solved.conversionProbability} vs walks ${p}`);
        solved.sources.forEach((s, i) => {
          const without = walkP(counts, s);
          const effect = p > 0 ? (p - without) / p : 0;
          assert.ok(Math.abs(solved.removalEffects[i]! - effect) < 1e-6, `${s}: ${solved.removalEffects[i]} vs walks ${effect}`);
        });
      }),
      { numRuns: 200, seed: 23 },
    );
  });
});
