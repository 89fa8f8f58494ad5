/**
 * The result of a geo test by difference in differences over days: each day's gap between the
 * treatment regions' and the control regions' revenue, averaged over the test days, minus the same
 * average over the days before the test. The control regions carry what would have happened
 * anyway (season, a sale, an outage), the days before carry the regions' usual difference.
 * The 95 % interval is normal: the two means' standard errors (sample variance over days) added
 * in quadrature, times 1.96. It needs two days on each side.
 */
export interface GeoLift {
  pre_days: number;
  test_days: number;
  /** Mean daily revenue per group and period, in cents. */
  treatment_pre: number;
  treatment_test: number;
  control_pre: number;
  control_test: number;
  /** Extra daily revenue of the treatment regions, in cents, and its 95 % interval. */
  lift_per_day: number;
  low: number;
  high: number;
  /** lift_per_day over the treatment's expected daily revenue without the treatment; null when that is not positive. */
  relative_lift: number | null;
}

export interface DayRevenue {
  treatment: number;
  control: number;
}

const mean = (values: number[]) => values.reduce((a, v) => a + v, 0) / values.length;
const sampleVariance = (values: number[]) => {
  const m = mean(values);
  return values.reduce((a, v) => a + (v - m) ** 2, 0) / (values.length - 1);
};

export const Z_95 = 1.959963984540054;

/** Null when either period has fewer than two days. */
export function differenceInDifferences(pre: DayRevenue[], test: DayRevenue[]): GeoLift | null {
  if (pre.length < 2 || test.length < 2) return null;
  const gap = (days: DayRevenue[]) => days.map((d) => d.treatment - d.control);
  const [preGap, testGap] = [gap(pre), gap(test)];
  const lift = mean(testGap) - mean(preGap);
  const se = Math.sqrt(sampleVariance(preGap) / pre.length + sampleVariance(testGap) / test.length);
  const treatmentPre = mean(pre.map((d) => d.treatment));
  const controlPre = mean(pre.map((d) => d.control));
  const controlTest = mean(test.map((d) => d.control));
  const expected = treatmentPre + (controlTest - controlPre);
  return {
    pre_days: pre.length,
    test_days: test.length,
    treatment_pre: treatmentPre,
    treatment_test: mean(test.map((d) => d.treatment)),
    control_pre: controlPre,
    control_test: controlTest,
    lift_per_day: lift,
    low: lift - Z_95 * se,
    high: lift + Z_95 * se,
    relative_lift: expected > 0 ? lift / expected : null,
  };
}
