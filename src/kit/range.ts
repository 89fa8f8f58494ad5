import { defaultRange, parseBound } from './dates.ts';
import { InvalidInput } from './errors.ts';

/** A closed span of time in epoch milliseconds, both ends included. */
export interface Range {
  startMs: number;
  endMs: number;
}

/** The refusal of a bound that is neither a day nor a timestamp (also the data API schema's). */
export const DATE_MESSAGE = 'Invalid start_date or end_date parameter';

/** Resolves the date range; a bound left out takes the default range's (`defaultRange`). */
export function resolveRange(input: { start_date?: string; end_date?: string }, now = Date.now()): Range {
  const fallback = defaultRange(now);
  const startMs = input.start_date === undefined ? fallback.startMs : parseBound(input.start_date, 'start');
  const endMs = input.end_date === undefined ? fallback.endMs : parseBound(input.end_date, 'end');
  if (startMs === null || endMs === null) throw new InvalidInput(DATE_MESSAGE);
  if (startMs > endMs) throw new InvalidInput('start_date must be before end_date');
  return { startMs, endMs };
}
