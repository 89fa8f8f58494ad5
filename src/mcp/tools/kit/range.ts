import { DAY_MS, dayOf, defaultRange, formatDay } from '../../../kit/calendar/days.ts';
import { boundMs, rangeDays, type Range } from '../../../kit/calendar/range.ts';
import { InvalidInput } from '../../../kit/errors.ts';
import type { ToolContext } from './tool.ts';

export const MAX_RANGE_DAYS = 731;

/**
 * `date_from`/`date_to` (whole calendar days of `timezone`, the workspace's when left out) to a
 * range; a bound left out takes the data API's default. `days` counts calendar days, whatever their length.
 */
export function toolRange(ctx: Pick<ToolContext, 'now' | 'timeZone'>, input: { date_from?: string; date_to?: string; timezone?: string }): Range & { days: number } {
  const timeZone = input.timezone ?? ctx.timeZone;
  const nowMs = ctx.now();
  const fallback = defaultRange(nowMs, timeZone);
  const startMs = boundMs({ name: 'date_from', value: input.date_from, edge: 'start', fallbackMs: fallback.startMs }, 'day', timeZone);
  const endMs = boundMs({ name: 'date_to', value: input.date_to, edge: 'end', fallbackMs: fallback.endMs }, 'day', timeZone);
  if (startMs > endMs) throw new InvalidInput('date_from must not be after date_to');
  const days = (dayOf(endMs, timeZone) - dayOf(startMs, timeZone)) / DAY_MS + 1;
  if (days > MAX_RANGE_DAYS) throw new InvalidInput(`the range is limited to ${MAX_RANGE_DAYS} days`);
  return { startMs, endMs, timeZone, days };
}

/** Every calendar day of the range, `YYYY-MM-DD`, in its zone. */
export function rangeDayList(range: Range & { days: number }): string[] {
  const first = dayOf(range.startMs, range.timeZone);
  return Array.from({ length: range.days }, (_, i) => formatDay(first + i * DAY_MS));
}

export function rangeOut(range: Range): { date_from: string; date_to: string; timezone: string } {
  const { day_start, day_end } = rangeDays(range);
  return { date_from: day_start, date_to: day_end, timezone: range.timeZone };
}

export { money, ratio } from '../../../kit/numbers.ts';
