/**
 * The first-order Markov chain of the data-driven model (docs/attribution.md, "data_driven"), solved
 * exactly: no simulation, one small linear system per removal.
 *
 * States: start, one per reporting source, and the two ends, conversion and null. The data are the
 * transition counts of the scope's journeys (`ChainCounts`); the probability of a step a -> b is
 * count(a -> b) / count(a -> any). Writing p(s) for the probability of reaching conversion from
 * state s, every source state satisfies
 *
 *   p(s) = sum over sources t of P(s -> t) p(t)  +  P(s -> conversion)
 *
 * and P = sum over sources t of P(start -> t) p(t). Removing source X sends every step into X to
 * null, which is the same system with p(X) = 0: P(-X) comes from the system without X's row and
 * column. removal_effect(X) = (P - P(-X)) / P, 0 when P is 0.
 */

/** Transition counts of the scope's journeys, keyed by reporting source. */
export interface ChainCounts {
  /** Journeys whose first state is the source (start -> source). */
  starts: Map<string, number>;
  /** Steps between two sources (consecutive repeats are collapsed, so never a source to itself). */
  steps: Map<string, Map<string, number>>;
  /** Journeys that end in conversion right after the source. */
  conversions: Map<string, number>;
  /** Journeys that end without conversion (null) right after the source. */
  nulls: Map<string, number>;
}

export interface SolvedChain {
  /** The source states, by name. */
  sources: string[];
  /** P: the probability of reaching conversion from start. */
  conversionProbability: number;
  /** removal_effect of each source, in `sources` order. */
  removalEffects: number[];
  /** How many journeys the chain stood on. */
  paths: { converting: number; non_converting: number };
}

const sum = (values: Iterable<number>) => {
  let total = 0;
  for (const v of values) total += v;
  return total;
};

export function emptyCounts(): ChainCounts {
  return { starts: new Map(), steps: new Map(), conversions: new Map(), nulls: new Map() };
}

/** Adds `n` journeys that visit `states` (sources, oldest first, repeats collapsed) and end as said. */
export function addJourney(counts: ChainCounts, states: readonly string[], converted: boolean, n = 1): void {
  if (states.length === 0) return;
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + n);
  add(counts.starts, states[0]!);
  for (let i = 1; i < states.length; i++) {
    const from = states[i - 1]!;
    const row = counts.steps.get(from) ?? new Map<string, number>();
    counts.steps.set(from, row);
    add(row, states[i]!);
  }
  add(converted ? counts.conversions : counts.nulls, states[states.length - 1]!);
}

/**
 * Solves `a x = b` by Gaussian elimination with partial pivoting. The systems here are I - Q with
 * Q substochastic and every state able to reach an end, so they are nonsingular and well
 * conditioned; at a few dozen states this is microseconds.
 */
export function solveLinear(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const top = m[col]!;
    for (let r = col + 1; r < n; r++) {
      const row = m[r]!;
      const factor = row[col]! / top[col]!;
      if (factor === 0) continue;
      for (let c = col; c <= n; c++) row[c]! -= factor * top[c]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    const row = m[r]!;
    let rest = row[n]!;
    for (let c = r + 1; c < n; c++) rest -= row[c]! * x[c]!;
    x[r] = rest / row[r]!;
  }
  return x;
}

/** P, the probability of reaching conversion from start, with the sources in `removed` sent to null. */
function conversionProbability(counts: ChainCounts, sources: string[], removed: ReadonlySet<string>): number {
  const kept = sources.filter((s) => !removed.has(s));
  const index = new Map(kept.map((s, i) => [s, i]));
  // Every source has at least one step out: each of its visits is followed by a state or an end.
  const out = (s: string) => sum(counts.steps.get(s)?.values() ?? []) + (counts.conversions.get(s) ?? 0) + (counts.nulls.get(s) ?? 0);
  const a = kept.map((s, i) => {
    const row = new Array<number>(kept.length).fill(0);
    row[i] = 1;
    for (const [to, n] of counts.steps.get(s) ?? []) {
      const j = index.get(to);
      if (j !== undefined) row[j]! -= n / out(s);
    }
    return row;
  });
  const b = kept.map((s) => (counts.conversions.get(s) ?? 0) / out(s));
  const p = kept.length ? solveLinear(a, b) : [];
  const started = sum(counts.starts.values());
  if (started === 0) return 0;
  return sum(kept.map((s, i) => ((counts.starts.get(s) ?? 0) / started) * p[i]!));
}

/** The chain's P and every source's removal effect. */
export function solveChain(counts: ChainCounts): SolvedChain {
  const sources = [...counts.starts.keys(), ...counts.steps.keys(), ...counts.conversions.keys(), ...counts.nulls.keys()];
  const unique = [...new Set(sources)].sort();
  const p = conversionProbability(counts, unique, new Set());
  const removalEffects = unique.map((source) => (p > 0 ? (p - conversionProbability(counts, unique, new Set([source]))) / p : 0));
  return {
    sources: unique,
    conversionProbability: p,
    // A removal can only lower P; rounding must not make an effect a hair below 0.
    removalEffects: removalEffects.map((e) => Math.max(0, e)),
    paths: { converting: sum(counts.conversions.values()), non_converting: sum(counts.nulls.values()) },
  };
}
