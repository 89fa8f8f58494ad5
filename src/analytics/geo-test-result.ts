import type { Clickhouse } from '../store/clickhouse.ts';
import type { GeoTest } from '../store/app/geo-tests.ts';
import { DAY_MS, dayOf, dayStart, formatDay } from '../kit/calendar/days.ts';
import { differenceInDifferences } from './geo-lift.ts';
import { geoTestDaily } from './queries/geo/geo-test-daily.ts';
import { pixelScope, type Reader } from './query-scope.ts';

/** Cents to the workspace currency, 2 places. */
const cents = (value: number) => Math.round(value) / 100;

const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const days = (first: number, last: number) => Array.from({ length: Math.max(0, (last - first) / DAY_MS + 1) }, (_, i) => formatDay(first + i * DAY_MS));

/**
 * A geo test's status on the workspace's calendar and, once it has two complete days, its result
 * (src/analytics/geo-lift.ts) over its complete days so far against its pre-test days.
 */
export async function geoTestResult(ch: Clickhouse, reader: Reader, test: GeoTest, timeZone: string, nowMs: number) {
  const today = dayOf(nowMs, timeZone);
  const [start, end] = [dayMs(test.start_date), dayMs(test.end_date)];
  const status = today < start ? 'scheduled' : today <= end ? 'running' : 'completed';
  const lastComplete = Math.min(end, today - DAY_MS);
  const preFirst = start - test.pre_days * DAY_MS;
  const range = { startMs: dayStart(preFirst, timeZone), endMs: dayStart(Math.max(lastComplete, start - DAY_MS) + DAY_MS, timeZone) - 1, timeZone };
  const rows = await geoTestDaily(ch, pixelScope(reader, range), test);
  const byDay = new Map(rows.map((r) => [r.day, { treatment: Number(r.treatment_cents), control: Number(r.control_cents) }]));
  const of = (day: string) => byDay.get(day) ?? { treatment: 0, control: 0 };
  const lift = differenceInDifferences(days(preFirst, start - DAY_MS).map(of), days(start, lastComplete).map(of));
  if (!lift) return { status, results: null, note: 'Results need two complete days of the test' };
  return {
    status,
    results: {
      method: 'difference_in_differences',
      pre_days: lift.pre_days,
      test_days: lift.test_days,
      daily_revenue: {
        treatment_before: cents(lift.treatment_pre), treatment_during: cents(lift.treatment_test),
        control_before: cents(lift.control_pre), control_during: cents(lift.control_test),
      },
      lift_per_day: cents(lift.lift_per_day),
      interval_95: [cents(lift.low), cents(lift.high)],
      lift_total: cents(lift.lift_per_day * lift.test_days),
      relative_lift: lift.relative_lift === null ? null : Math.round(lift.relative_lift * 10_000) / 10_000,
    },
  };
}

