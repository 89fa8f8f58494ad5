/** Small statistics used by the computed tools; pure functions with unit tests. */

/** Pearson correlation of two equally long series; null when either is constant or shorter than 3. */
export function pearson(xs: number[], ys: number[]): number | null {
  const n = xs.length;
  if (n < 3 || ys.length !== n) return null;
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
