import { dayList, rangeDays, resolveDayRange, type Range } from '../../../kit/calendar/range.ts';
import type { ToolContext } from './tool.ts';

export const MAX_RANGE_DAYS = 731;

/**
 * `date_from`/`date_to` (whole calendar days of `timezone`, the workspace's when left out) to a
 * range; a bound left out takes the data API's default. `days` counts calendar days, whatever their length.
 */
export function toolRange(ctx: Pick<ToolContext, 'now' | 'timeZone'>, input: { date_from?: string; date_to?: string; timezone?: string }): Range & { days: number } {
  const bounds = { from: { name: 'date_from', value: input.date_from }, to: { name: 'date_to', value: input.date_to } };
  return resolveDayRange(bounds, input.timezone ?? ctx.timeZone, MAX_RANGE_DAYS, ctx.now());
}

export function rangeOut(range: Range): { date_from: string; date_to: string; timezone: string } {
  const { day_start, day_end } = rangeDays(range);
  return { date_from: day_start, date_to: day_end, timezone: range.timeZone };
}

export { money, ratio } from '../../../kit/numbers.ts';
