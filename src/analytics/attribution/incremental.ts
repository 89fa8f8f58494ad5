import { nonNegativeLeastSquares } from './nnls.ts';

/**
 * The data-driven model's estimator (docs/attribution.md, "data_driven"): a linear-probability
 * model of "bought" on "which reporting sources the visitor's touchpoints show", fitted by weighted
 * non-negative least squares over the scope's visitor patterns:
 *
 *   P(buy | sources S seen) = baseline + sum over c in S of lift(c),   baseline >= 0, lift >= 0
 *
 * Every visitor of the scope is one observation (buyers, non-buyers, visitors without any
 * touchpoint); visitors that saw the same set of sources share one pattern, so the fit reads at
 * most 2^k patterns, never the visitors themselves. Weighted by visitors, the fit is exactly the
 * per-visitor least squares.
 */

/** Visitors that saw exactly `sources` (sorted reporting sources; empty: no touchpoint), and how many of them bought. */
export interface VisitorPattern {
  sources: string[];
  visitors: number;
  buyers: number;
}

/** Below either, the fit stands on too little data and the model credits as linear does. */
export const MIN_FIT_BUYERS = 100;
export const MIN_FIT_VISITORS = 1_000;

export type FitMethod = 'nonnegative_linear_probability' | 'linear_fallback';

export interface IncrementalFit {
  /** Reporting sources with a fitted lift, sorted. */
  sources: string[];
  /** Each source's lift on the chance to buy, in `sources` order (>= 0). */
  lifts: number[];
  /** The chance to buy without any touchpoint. */
  baseline: number;
  visitors: number;
  buyers: number;
  method: FitMethod;
}

/** Fits the lifts and the baseline to the patterns, or says the data are too few (method linear_fallback). */
export function fitIncremental(patterns: readonly VisitorPattern[]): IncrementalFit {
  const sources = [...new Set(patterns.flatMap((p) => p.sources))].sort();
  const visitors = patterns.reduce((sum, p) => sum + p.visitors, 0);
  const buyers = patterns.reduce((sum, p) => sum + p.buyers, 0);
  if (buyers < MIN_FIT_BUYERS || visitors < MIN_FIT_VISITORS) {
    return { sources, lifts: sources.map(() => 0), baseline: 0, visitors, buyers, method: 'linear_fallback' };
  }
  // Column 0 is the baseline (every visitor), column 1 + i the source i seen.
  const index = new Map(sources.map((s, i) => [s, i + 1]));
  const n = sources.length + 1;
  const a = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const g = new Array<number>(n).fill(0);
  for (const p of patterns) {
    const columns = [0, ...p.sources.map((s) => index.get(s)!)];
    for (const i of columns) {
      g[i]! += p.buyers;
      for (const j of columns) a[i]![j]! += p.visitors;
    }
  }
  const beta = nonNegativeLeastSquares(a, g);
  return { sources, lifts: beta.slice(1), baseline: beta[0]!, visitors, buyers, method: 'nonnegative_linear_probability' };
}

/**
 * The lift of `source` that makes its incremental share of the conversions it touched equal
 * `share` (a lift test's measured answer), the other lifts and the baseline as fitted: over the
 * patterns that show the source, sum(buyers x lift / (baseline + lift + other lifts)) / sum(buyers)
 * = share. The left side grows with the lift, so bisection finds it; a share of 1 (or more) needs
 * an unbounded lift and gets the largest one the search reaches, a share of 0 (or less) gets 0.
 */
export function calibratedLift(fit: IncrementalFit, patterns: readonly VisitorPattern[], source: string, share: number): number {
  const lift = new Map(fit.sources.map((s, i) => [s, fit.lifts[i]!]));
  const touched = patterns
    .filter((p) => p.sources.includes(source) && p.buyers > 0)
    .map((p) => ({ buyers: p.buyers, rest: fit.baseline + p.sources.reduce((sum, s) => sum + (s === source ? 0 : lift.get(s) ?? 0), 0) }));
  const buyers = touched.reduce((sum, p) => sum + p.buyers, 0);
  if (share <= 0 || buyers === 0) return 0;
  const shareAt = (l: number) => touched.reduce((sum, p) => sum + (p.rest + l > 0 ? (p.buyers * l) / (p.rest + l) : p.buyers), 0) / buyers;
  let [low, high] = [0, 1];
  while (shareAt(high) < share && high < 1e6) high *= 2;
  for (let i = 0; i < 100; i++) {
    const middle = (low + high) / 2;
    if (shareAt(middle) < share) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/**
 * A finished geo test's answer as a lift test's: the treatment regions ran `source` and the control
 * regions did not, and their sales rose by `relativeLift` over what the control regions predicted.
 * Then relativeLift / (1 + relativeLift) of the treatment regions' sales were caused by the source,
 * a share of all sales; over the scope's buyers that is the share of the conversions the source
 * touched: that times all buyers over the buyers whose pattern shows the source (at most 1). A
 * lift of 0 or less says the source caused nothing.
 */
export function geoTestShare(relativeLift: number, patterns: readonly VisitorPattern[], source: string): number {
  const buyers = patterns.reduce((sum, p) => sum + p.buyers, 0);
  const touched = patterns.filter((p) => p.sources.includes(source)).reduce((sum, p) => sum + p.buyers, 0);
  if (relativeLift <= 0 || touched === 0) return 0;
  return Math.min(1, ((relativeLift / (1 + relativeLift)) * buyers) / touched);
}
