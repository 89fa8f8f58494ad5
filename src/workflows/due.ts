/**
 * When a workflow is due (docs/workflows.md, "When each trigger is evaluated"): the latest due
 * time at or before now, as a key that names it. A due time is evaluated once (the key is claimed
 * in app state); one missed while no server ran is caught up once, when one runs again.
 */
import { DAY_MS } from '../kit/calendar/days.ts';
import { localDay, zoneOffset } from '../kit/calendar/zones.ts';
import type { TriggerType } from '../store/app/workflows.ts';

/** Schedules and ad fatigue run at this hour of the workspace's day. */
export const DAILY_HOUR = 8;
/** Metric thresholds are checked this often. */
export const THRESHOLD_EVERY_MS = 15 * 60_000;

export interface Due {
  /** Names the due time: `daily:2026-11-26`, `threshold:2026-11-26T08:15:00.000Z`, `conversions:2026-11-26T10:05:00.000Z`. */
  key: string;
  atMs: number;
}

/** The instant of `hour`:00 on calendar day `day` (YYYY-MM-DD) in `zone`. */
function localHour(day: string, hour: number, zone: string): number {
  const wall = Date.parse(`${day}T00:00:00Z`) + hour * 3_600_000;
  return wall - zoneOffset(wall - zoneOffset(wall, zone), zone);
}

const previousDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
const isMonday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() === 1;

/** The latest DAILY_HOUR at or before now on a day `accepts` takes (going back at most 8 days). */
function latestDailyHour(nowMs: number, zone: string, accepts: (day: string) => boolean): { day: string; atMs: number } {
  let day = localDay(nowMs, zone);
  for (let i = 0; i < 8; i++, day = previousDay(day)) {
    const atMs = localHour(day, DAILY_HOUR, zone);
    if (atMs <= nowMs && accepts(day)) return { day, atMs };
  }
  throw new Error('no due day in the last week');
}

/**
 * The due time of a trigger at `nowMs` in the workspace's `zone`. New conversions are due at the
 * newest sale conversion's time (`newestConversionMs`), once per newest conversion; without any,
 * nothing is due.
 */
export function dueOf(type: TriggerType, nowMs: number, zone: string, newestConversionMs: number | null): Due | null {
  switch (type) {
    case 'daily_schedule': {
      const { day, atMs } = latestDailyHour(nowMs, zone, () => true);
      return { key: `daily:${day}`, atMs };
    }
    case 'weekly_schedule': {
      const { day, atMs } = latestDailyHour(nowMs, zone, isMonday);
      return { key: `weekly:${day}`, atMs };
    }
    case 'ad_fatigue': {
      const { day, atMs } = latestDailyHour(nowMs, zone, () => true);
      return { key: `fatigue:${day}`, atMs };
    }
    case 'metric_threshold': {
      const atMs = Math.floor(nowMs / THRESHOLD_EVERY_MS) * THRESHOLD_EVERY_MS;
      return { key: `threshold:${new Date(atMs).toISOString()}`, atMs };
    }
    case 'new_conversion':
      return newestConversionMs === null ? null : { key: `conversions:${new Date(newestConversionMs).toISOString()}`, atMs: newestConversionMs };
  }
}
