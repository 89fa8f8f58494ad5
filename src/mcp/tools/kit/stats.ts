/** Small statistics used by the computed tools; pure functions with unit tests. */

/** Means of two equally long series and the sums of their centred products and squares. */
function moments(xs: number[], ys: number[]): { mx: number; my: number; sxy: number; sxx: number; syy: number } {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return { mx, my, sxy, sxx, syy };
}

/** Pearson correlation of two equally long series; null when either is constant or shorter than 3. */
export function pearson(xs: number[], ys: number[]): number | null {
  if (xs.length < 3 || ys.length !== xs.length) return null;
  const { sxy, sxx, syy } = moments(xs, ys);
  if (sxx === 0 || syy === 0) return null;
  return Math.round((sxy / Math.sqrt(sxx * syy)) * 10_000) / 10_000;
}

/** Standard normal CDF (Abramowitz and Stegun 7.1.26 through erf; error below 1.5e-7). */
export function normalCdf(z: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(z) / Math.SQRT2));
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(z * z) / 2);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

export interface ProportionTest {
  z: number | null;
  p_value: number | null;
  significant: boolean;
}

/** Two-sided two-proportion z-test (pooled) of successes/trials of B against A. */
export function twoProportionTest(aSuccess: number, aTrials: number, bSuccess: number, bTrials: number, alpha = 0.05): ProportionTest {
  if (aTrials === 0 || bTrials === 0) return { z: null, p_value: null, significant: false };
  const pooled = (aSuccess + bSuccess) / (aTrials + bTrials);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / aTrials + 1 / bTrials));
  if (se === 0) return { z: null, p_value: null, significant: false };
  const z = (bSuccess / bTrials - aSuccess / aTrials) / se;
  const p = 2 * (1 - normalCdf(Math.abs(z)));
  return { z: Math.round(z * 1000) / 1000, p_value: Math.round(p * 10_000) / 10_000, significant: p < alpha };
}

/** A concave response curve `revenue = a · spend^b` fitted to daily points (docs/budget.md). */
export interface PowerCurve {
  a: number;
  /** Elasticity: the share by which revenue grows per share of spend; kept in [0, 1] (no increasing returns). */
  b: number;
  /** Fit of the log-log line, 0 to 1. */
  r2: number;
}

/**
 * Least squares of ln(revenue) on ln(spend) over the points where both are positive; null with
 * fewer than 3 such points or when spend never varies among them (no slope to read). The
 * elasticity is clamped to [0, 1] and `a` refitted through the means for the clamped slope.
 */
export function fitPowerCurve(spend: number[], revenue: number[]): PowerCurve | null {
  const points = spend.map((s, i) => [s, revenue[i]!] as const).filter(([s, r]) => s > 0 && r > 0);
  if (points.length < 3) return null;
  const xs = points.map(([s]) => Math.log(s));
  const ys = points.map(([, r]) => Math.log(r));
  const { mx, my, sxy, sxx, syy } = moments(xs, ys);
  if (sxx < 1e-12) return null;
  const b = Math.min(1, Math.max(0, sxy / sxx));
  const a = Math.exp(my - b * mx);
  const residual = xs.reduce((sum, x, i) => sum + (ys[i]! - (my + b * (x - mx))) ** 2, 0);
  const r2 = syy === 0 ? 1 : Math.max(0, 1 - residual / syy);
  return { a, b, r2 };
}

/** The curve's slope at `spend`: revenue from one more unit of spend there. */
export const marginalReturn = (curve: PowerCurve, spend: number): number => (spend > 0 ? curve.a * curve.b * spend ** (curve.b - 1) : 0);

/** Coefficient of variation (standard deviation over mean, population); null for an empty or zero-mean list. */
export function variation(values: number[]): number | null {
  if (values.length === 0) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (mean === 0) return null;
  const sd = Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length);
  return sd / mean;
}
