/** numerator / denominator rounded to `places` decimals; null when the denominator is 0. */
export const ratio = (numerator: number, denominator: number, places = 4): number | null =>
  denominator === 0 ? null : Math.round((numerator / denominator) * 10 ** places) / 10 ** places;

/** Cents to the workspace currency, 2 places. */
export const money = (cents: number) => Math.round(cents) / 100;
