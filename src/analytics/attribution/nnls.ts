/**
 * Non-negative least squares for the small systems of the data-driven model (incremental.ts):
 * minimise sum_i w_i (y_i - x_i . beta)^2 subject to beta >= 0, given as its normal equations
 * A beta = g (A = X'WX, g = X'Wy). Cyclic coordinate descent: each step sets one coefficient to the
 * minimum of the quadratic along its axis, clipped at 0. The objective is convex, so this converges
 * to the constrained minimum; with a dozen or so coefficients a sweep is a few hundred flops and a
 * few thousand sweeps are well under a millisecond. No numeric library in the project's
 * dependencies solves a constrained problem; this is the whole of what is needed.
 */

const MAX_SWEEPS = 20_000;
const TOLERANCE = 1e-13;

/** The beta >= 0 that minimises 1/2 beta'A beta - g'beta, for a symmetric positive semi-definite A. */
export function nonNegativeLeastSquares(a: readonly (readonly number[])[], g: readonly number[]): number[] {
  const n = g.length;
  const beta = new Array<number>(n).fill(0);
  const scale = Math.max(1e-300, ...a.map((row, i) => Math.abs(row[i]!)));
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    let moved = 0;
    for (let j = 0; j < n; j++) {
      const row = a[j]!;
      const diagonal = row[j]!;
      // A coefficient no observation informs (a column of zeros) stays at 0.
      if (diagonal <= scale * 1e-15) continue;
      let gradient = -g[j]!;
      for (let k = 0; k < n; k++) gradient += row[k]! * beta[k]!;
      const next = Math.max(0, beta[j]! - gradient / diagonal);
      moved = Math.max(moved, Math.abs(next - beta[j]!));
      beta[j] = next;
    }
    if (moved <= TOLERANCE) break;
  }
  return beta;
}
