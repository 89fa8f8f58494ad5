import { DAY_MS, MINUTE_MS, MIN_YEAR, dayOf, dayStart, defaultRange, formatDay, readBound, SUPPORTED_YEARS, type BoundProblem } from './days.ts';
import { InvalidInput } from '../errors.ts';
import { UTC, instantOfWallClock, zoneOffset } from './zones.ts';

/** A span of time, both ends included, and the time zone whose calendar days it is read in. */
export interface Range {
  startMs: number;
  endMs: number;
  /** IANA name (canonical spelling, `canonicalTimeZone`): day buckets and ads dates are its days. */
  timeZone: string;
}

/** The contract's refusal of a bad bound, word for word; what is wrong goes in the error's `detail`. */
export const DATE_MESSAGE = 'Invalid start_date or end_date parameter';

/** The forms a bound may take: days only (the tools' date arguments) or days and timestamps (the data API). */
export type BoundForms = 'day' | 'day or timestamp';

const FORMS: Record<BoundForms, string> = { day: 'YYYY-MM-DD', 'day or timestamp': 'YYYY-MM-DD or YYYY-MM-DD HH:MM:SS' };

/** Longest piece of a refused value echoed back. */
const MAX_SHOWN = 40;

/** What is wrong with the bound `name`, in a sentence that names it, the accepted form and the value sent. */
export function boundMessage(name: string, value: string, problem: BoundProblem, forms: BoundForms): string {
  const got = `(got ${value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value})`;
  switch (problem) {
    case 'form':
      return `${name} must be ${FORMS[forms]} ${got}`;
    case 'years':
      return `${name} must be in the years ${SUPPORTED_YEARS} ${got}`;
    case 'calendar':
      return `${name} is not a calendar day ${got}`;
    case 'time':
      return `${name} is not a valid time of day ${got}`;
  }
}

/**
 * One bound of a range in epoch milliseconds, `fallbackMs` when left out. When it is not a bound:
 * an `InvalidInput` that says what is wrong, or, given a fixed `message`, that message with what is
 * wrong as its detail.
 */
export function boundMs(
  bound: { name: string; value: string | undefined; edge: 'start' | 'end'; fallbackMs: number },
  forms: BoundForms,
  zone: string,
  message?: string,
): number {
  if (bound.value === undefined) return bound.fallbackMs;
  const read = readBound(bound.value, bound.edge, zone);
  if ('problem' in read) {
    const problem = boundMessage(bound.name, bound.value, read.problem, forms);
    throw message ? new InvalidInput(message, problem) : new InvalidInput(problem);
  }
  return read.ms;
}

/** A range as a request names it: its bounds and zone as text, not yet resolved. */
export interface RangeText {
  start_date?: string;
  end_date?: string;
  timezone?: string;
}

/**
 * A request that goes beside a resolved `Range`: it carries no text bounds, so nothing below the
 * edge that resolved the range can resolve them again (differently).
 */
export type Undated<T> = Omit<T, keyof RangeText> & { [K in keyof RangeText]?: never };

/** The request without its text bounds, for a callee given the range they resolved to. */
export function undated<T extends RangeText>(request: T): Undated<T> {
  const { start_date, end_date, timezone, ...rest } = request;
  return rest as Undated<T>;
}

/**
 * Resolves the date range in `timezone` (a canonical zone name, UTC when left out): a bare day is
 * that zone's calendar day; a bound left out takes the default range's (`defaultRange`).
 */
export function resolveRange(input: RangeText, now = Date.now()): Range {
  const timeZone = input.timezone ?? UTC;
  const fallback = defaultRange(now, timeZone);
  const startMs = boundMs({ name: 'start_date', value: input.start_date, edge: 'start', fallbackMs: fallback.startMs }, 'day or timestamp', timeZone, DATE_MESSAGE);
  const endMs = boundMs({ name: 'end_date', value: input.end_date, edge: 'end', fallbackMs: fallback.endMs }, 'day or timestamp', timeZone, DATE_MESSAGE);
  if (startMs > endMs) throw new InvalidInput('start_date must be before end_date');
  return { startMs, endMs, timeZone };
}

/**
 * A range of whole calendar days of `timeZone` (days only, no timestamps), the bounds named as the
 * caller names them; a bound left out takes the default range's. At most `maxDays` days, counted
 * as calendar days whatever their length.
 */
export function resolveDayRange(
  bounds: { from: { name: string; value: string | undefined }; to: { name: string; value: string | undefined } },
  timeZone: string,
  maxDays: number,
  now = Date.now(),
): Range & { days: number } {
  const fallback = defaultRange(now, timeZone);
  const startMs = boundMs({ ...bounds.from, edge: 'start', fallbackMs: fallback.startMs }, 'day', timeZone);
  const endMs = boundMs({ ...bounds.to, edge: 'end', fallbackMs: fallback.endMs }, 'day', timeZone);
  if (startMs > endMs) throw new InvalidInput(`${bounds.from.name} must not be after ${bounds.to.name}`);
  const days = (dayOf(endMs, timeZone) - dayOf(startMs, timeZone)) / DAY_MS + 1;
  if (days > maxDays) throw new InvalidInput(`the range is limited to ${maxDays} days`);
  return { startMs, endMs, timeZone, days };
}

/** The whole calendar days of `timeZone` from `first` through `last` (each given as midnight UTC of its date). */
export function daysRange(first: number, last: number, timeZone: string): Range {
  return { startMs: dayStart(first, timeZone), endMs: dayStart(last + DAY_MS, timeZone) - 1, timeZone };
}

/** Every calendar day of a day range, `YYYY-MM-DD`, in its zone. */
export function dayList(range: Range & { days: number }): string[] {
  const first = dayOf(range.startMs, range.timeZone);
  return Array.from({ length: range.days }, (_, i) => formatDay(first + i * DAY_MS));
}

/** The range's first and last calendar day in its zone, `YYYY-MM-DD`: what `Date` columns (ads `dt`) are compared with. */
export function rangeDays(range: Range): { day_start: string; day_end: string } {
  return { day_start: formatDay(range.startMs, range.timeZone), day_end: formatDay(range.endMs, range.timeZone) };
}

/**
 * The calendar months (in the range's zone) the range touches, in order: each whole month and the
 * part of it inside the range (the same span for a month the range covers entirely).
 */
export function monthsOf(range: Range): { month: Range; inRange: Range }[] {
  const months: { month: Range; inRange: Range }[] = [];
  for (let cursor = range.startMs; cursor <= range.endMs; ) {
    const [year, month] = formatDay(cursor, range.timeZone).split('-').map(Number) as [number, number];
    const startMs = dayStart(Date.UTC(year, month - 1, 1), range.timeZone);
    const nextMs = dayStart(Date.UTC(year, month, 1), range.timeZone);
    months.push({
      month: { startMs, endMs: nextMs - 1, timeZone: range.timeZone },
      inRange: { startMs: Math.max(startMs, range.startMs), endMs: Math.min(nextMs - 1, range.endMs), timeZone: range.timeZone },
    });
    cursor = nextMs;
  }
  return months;
}

/**
 * A period derived from a request's range (the one before it, a year before), refused as its
 * start_date would be when it begins before the years a bound may name: the stores hold no earlier
 * day, and ClickHouse reads an earlier `Date` as 1970-01-01, so its numbers would be another period's.
 */
export function supportedPeriod<R extends Range>(period: R): R {
  const first = formatDay(period.startMs, period.timeZone);
  if (Number(first.slice(0, 4)) < MIN_YEAR) throw new InvalidInput(DATE_MESSAGE, boundMessage('start_date', first, 'years', 'day or timestamp'));
  return period;
}

/**
 * The period a range is compared with (the dashboard's overview): as many calendar days right before it. A range
 * that runs past `now` (it holds today) is compared up to the same time of day, cut at the start
 * of the current minute: its first `minute - start` milliseconds with the previous period's. The
 * cut is whole minutes so that everyone who opens the overview within a minute asks the same
 * question, and one computation answers them all (the result cache keys on the range).
 */
export function previousPeriod(range: Range, now: number): Range & { partial: boolean } {
  const zone = range.timeZone;
  const firstDay = dayOf(range.startMs, zone);
  const partial = range.endMs > now;
  const endMs = partial ? Math.max(Math.floor(now / MINUTE_MS) * MINUTE_MS - 1, range.startMs) : range.endMs;
  if (dayStart(firstDay, zone) !== range.startMs) {
    // A range of timestamps, not days: the same length right before it.
    const length = endMs - range.startMs + 1;
    return supportedPeriod({ startMs: range.startMs - length, endMs: range.startMs - 1, timeZone: zone, partial });
  }
  const days = Math.round((dayOf(range.endMs, zone) - firstDay) / DAY_MS) + 1;
  const previousFirstDay = firstDay - days * DAY_MS;
  const startMs = dayStart(previousFirstDay, zone);
  if (!partial) return supportedPeriod({ startMs, endMs: range.startMs - 1, timeZone: zone, partial });
  // The same time of day on the clock, not the same number of hours: a clock change in either
  // period would otherwise move the cut by an hour.
  const sinceFirstMidnight = endMs + zoneOffset(endMs, zone) - firstDay;
  return supportedPeriod({ startMs, endMs: instantOfWallClock(previousFirstDay + sinceFirstMidnight, zone), timeZone: zone, partial });
}
