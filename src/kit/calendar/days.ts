/**
 * Date handling for the data API: `YYYY-MM-DD` days (calendar days of a time zone, UTC unless
 * one is given) and `YYYY-MM-DD HH:MM:SS` timestamps (UTC unless they carry an offset).
 */
import { UTC, localDay, startOfLocalDay } from './zones.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-]\d{2}:?\d{2})?$/;
export const MIN_YEAR = 1970;
const MAX_YEAR = 2299;
export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;

/** Why a value is not a range bound: not in either form, a year outside 1970-2299, no such day, no such time. */
export type BoundProblem = 'form' | 'years' | 'calendar' | 'time';

export const SUPPORTED_YEARS = `${MIN_YEAR} to ${MAX_YEAR}`;

function dayProblem(year: number, month: number, day: number): BoundProblem | null {
  if (year < MIN_YEAR || year > MAX_YEAR) return 'years';
  if (month < 1 || month > 12 || day < 1) return 'calendar';
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate() ? null : 'calendar';
}

/** The first instant of a calendar day (given as midnight UTC of that date) in `zone`. */
export function dayStart(dayUtcMs: number, zone: string): number {
  return zone === UTC ? dayUtcMs : startOfLocalDay(dayUtcMs, zone);
}

/**
 * Reads a range bound. A bare day means its first millisecond (`start`) or its last (`end`) in
 * `zone` (23 or 25 hours apart on the days clocks change); a full timestamp is used as given.
 * Returns epoch milliseconds, or why the value is not a bound.
 */
export function readBound(value: string, bound: 'start' | 'end', zone = UTC): { ms: number } | { problem: BoundProblem } {
  const day = DAY.exec(value);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const problem = dayProblem(y, m, d);
    if (problem) return { problem };
    const start = Date.UTC(y, m - 1, d);
    return { ms: bound === 'start' ? dayStart(start, zone) : dayStart(start + DAY_MS, zone) - 1 };
  }
  const ts = TIMESTAMP.exec(value);
  if (!ts) return { problem: 'form' };
  const [y, m, d, hh, mm, ss] = ts.slice(1, 7).map(Number);
  const problem = dayProblem(y, m, d);
  if (problem) return { problem };
  if (hh > 23 || mm > 59 || ss > 59) return { problem: 'time' };
  const fraction = ts[7] ? Math.floor(Number(ts[7]) * 1000) : 0;
  let ms = Date.UTC(y, m - 1, d, hh, mm, ss) + fraction;
  const offset = ts[8];
  if (offset && offset !== 'Z') {
    const sign = offset[0] === '-' ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    const offsetHours = Number(digits.slice(0, 2));
    const offsetMinutes = Number(digits.slice(2));
    if (offsetHours > 23 || offsetMinutes > 59) return { problem: 'time' };
    ms -= sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  return { ms };
}

/** `readBound`'s milliseconds, or null when the value is not a bound. */
export function parseBound(value: string, bound: 'start' | 'end', zone = UTC): number | null {
  const read = readBound(value, bound, zone);
  return 'ms' in read ? read.ms : null;
}

export function startOfUtcDay(ms: number): number {
  return ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
}

/** Days before today at which a range starts when none is given (the data API and the tools alike). */
export const DEFAULT_RANGE_DAYS = 7;

/** The calendar day of `ms` in `zone`, as midnight UTC of that date. */
export function dayOf(ms: number, zone: string): number {
  return zone === UTC ? startOfUtcDay(ms) : Date.parse(localDay(ms, zone));
}

/** The default range: from the start of the day `DEFAULT_RANGE_DAYS` days ago through the end of today, in `zone`. */
export function defaultRange(now: number, zone = UTC): { startMs: number; endMs: number } {
  const today = dayOf(now, zone);
  return { startMs: dayStart(today - DEFAULT_RANGE_DAYS * DAY_MS, zone), endMs: dayStart(today + DAY_MS, zone) - 1 };
}

/** `YYYY-MM-DD HH:MM:SS` (seconds precision, as shown in pagination). */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** `YYYY-MM-DD HH:MM:SS.mmm`, the form bound to DateTime64(3) parameters. */
export function formatTimestampMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23).replace('T', ' ');
}

/** The calendar day of `ms`, `YYYY-MM-DD`, in `zone` (UTC unless given). */
export function formatDay(ms: number, zone = UTC): string {
  return zone === UTC ? new Date(ms).toISOString().slice(0, 10) : localDay(ms, zone);
}
