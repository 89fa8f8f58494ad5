/**
 * The dashboard reads every view on the store's calendar (docs/dashboard.md, "The store's
 * calendar"): the workspace's time zone, whatever the URL says, and the "Last 7 days" preset when
 * the URL names no dates.
 */
import { z } from 'zod';
import { DAY_MS, DEFAULT_RANGE_DAYS, dayOf, formatDay } from '../kit/calendar/days.ts';
import { rangeDays, resolveRange, type Range } from '../kit/calendar/range.ts';
import { DATE_ALIASES, dateShape, parseWith } from '../api/params.ts';

/** The dates a view reads when the URL names none: the 7 complete days ending yesterday. */
export function defaultDays(timeZone: string, now: number): { start_date: string; end_date: string } {
  const today = dayOf(now, timeZone);
  return { start_date: formatDay(today - DEFAULT_RANGE_DAYS * DAY_MS), end_date: formatDay(today - DAY_MS) };
}

/** A dashboard request's query on the store's calendar: its zone, and the default days when it names no dates. */
export function onStoreCalendar<Q extends { start_date?: unknown; end_date?: unknown }>(query: Q, timeZone: string, now: number): Q & { timezone: string } {
  const dated = query.start_date !== undefined || query.end_date !== undefined;
  return { ...query, ...(dated ? {} : defaultDays(timeZone, now)), timezone: timeZone };
}

/** A view's range: the URL's dates as calendar days of the workspace's zone (`onStoreCalendar`). */
export function viewRange(query: { start_date?: string; end_date?: string }, timeZone: string, now: number): Range {
  return resolveRange(onStoreCalendar(query, timeZone, now), now);
}

const daysQuery = { schema: z.object(dateShape), aliases: DATE_ALIASES };

/** The range of a view that reads only dates (and `workspace`): the data API's date parameters, on the store's calendar. */
export function daysOfView(query: unknown, timeZone: string, now: number): Range {
  return viewRange(parseWith(daysQuery, query, ['workspace']), timeZone, now);
}

/** The range's first and last calendar day (`rangeDays`) and its zone, as the views name them. */
export function viewDays(range: Range): { start_date: string; end_date: string; timezone: string } {
  const { day_start, day_end } = rangeDays(range);
  return { start_date: day_start, end_date: day_end, timezone: range.timeZone };
}
