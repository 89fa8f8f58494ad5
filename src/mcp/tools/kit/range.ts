import { DAY_MS, defaultRange, formatDay } from '../../../kit/dates.ts';
import { boundMs, type Range } from '../../../kit/range.ts';
import { InvalidInput } from '../../../kit/errors.ts';

export const MAX_RANGE_DAYS = 731;

/** `date_from`/`date_to` (whole UTC days) to a range; a bound left out takes the data API's default. */
export function toolRange(input: { date_from?: string; date_to?: string }, nowMs: number): Range & { days: number } {
  const fallback = defaultRange(nowMs);
  const startMs = boundMs({ name: 'date_from', value: input.date_from, edge: 'start', fallbackMs: fallback.startMs }, 'day');
  const endMs = boundMs({ name: 'date_to', value: input.date_to, edge: 'end', fallbackMs: fallback.endMs }, 'day');
  if (startMs > endMs) throw new InvalidInput('date_from must not be after date_to');
  const days = Math.round((endMs + 1 - startMs) / DAY_MS);
  if (days > MAX_RANGE_DAYS) throw new InvalidInput(`the range is limited to ${MAX_RANGE_DAYS} days`);
  return { startMs, endMs, days };
}

export function rangeOut(range: Range): { date_from: string; date_to: string } {
  return { date_from: formatDay(range.startMs), date_to: formatDay(range.endMs) };
}

/** Cents to the workspace currency, 2 places. */
export const money = (cents: number) => Math.round(cents) / 100;

export const ratio = (numerator: number, denominator: number, places = 4): number | null =>
  denominator === 0 ? null : Math.round((numerator / denominator) * 10 ** places) / 10 ** places;
