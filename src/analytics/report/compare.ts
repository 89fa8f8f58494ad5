import { DAY_MS, dayOf, dayStart, formatDay } from '../../kit/calendar/days.ts';
import { daysRange, supportedPeriod, type Range, type Undated } from '../../kit/calendar/range.ts';
import { DIMENSIONS, type Breakdown, type Interval } from '../dimensions.ts';
import { METRICS, type MetricName } from '../metrics.ts';
import { runReportIn, type ReportAuth, type ReportResult, type ReportRow } from './run.ts';
import type { ReportRequest } from './plan.ts';
import type { Clickhouse } from '../../store/clickhouse.ts';
import type { AppDatabase } from '../../store/app-db.ts';

/**
 * A report beside the same report over an earlier period (docs/attribution.md, "Comparing two
 * periods"): every row and the totals get `previous` (each metric over the earlier period) and
 * `change` (the relative change, a fraction). The earlier period is read by the same core with the
 * same arguments, so its numbers are those /v3/report gives for its dates.
 */

export const COMPARISONS = ['previous_period', 'previous_year'] as const;
export type Comparison = (typeof COMPARISONS)[number];

type Metrics = Record<string, number | null>;
/** A row or the totals with `previous` and `change` members beside the metrics. */
export type Compared = Record<string, string | number | null | Metrics>;

export interface ComparedReport extends Omit<ReportResult, 'rows' | 'totals'> {
  rows: Compared[];
  totals: Compared;
  comparison: { compare_to: Comparison; start_date: string; end_date: string };
}

/** Whether the range is whole calendar days of its zone (bare dates, or the default range). */
function wholeDays(range: Range): boolean {
  const first = dayOf(range.startMs, range.timeZone);
  const last = dayOf(range.endMs, range.timeZone);
  return dayStart(first, range.timeZone) === range.startMs && dayStart(last + DAY_MS, range.timeZone) - 1 === range.endMs;
}

/** The same date a year earlier; 29 February becomes the 28th. */
function yearEarlier(dayMs: number): number {
  const date = new Date(dayMs);
  const shifted = new Date(Date.UTC(date.getUTCFullYear() - 1, date.getUTCMonth(), 1, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()));
  const lastOfMonth = new Date(Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, 0)).getUTCDate();
  shifted.setUTCDate(Math.min(date.getUTCDate(), lastOfMonth));
  return shifted.getTime();
}

/**
 * The earlier period, in the range's zone. previous_period: the same number of calendar days
 * right before (the same length right before, for a range given as timestamps); previous_year: the
 * same calendar days (timestamps) a year earlier.
 */
export function comparisonRange(range: Range, compareTo: Comparison): Range {
  if (wholeDays(range)) {
    const first = dayOf(range.startMs, range.timeZone);
    const last = dayOf(range.endMs, range.timeZone);
    const [from, to] = compareTo === 'previous_year' ? [yearEarlier(first), yearEarlier(last)] : [2 * first - last - DAY_MS, first - DAY_MS];
    return supportedPeriod(daysRange(from, to, range.timeZone));
  }
  const [startMs, endMs] =
    compareTo === 'previous_year'
      ? [yearEarlier(range.startMs), yearEarlier(range.endMs)]
      : [2 * range.startMs - range.endMs - 1, range.startMs - 1];
  return supportedPeriod({ startMs, endMs, timeZone: range.timeZone });
}

/** The first day of each interval bucket the range touches, in order (weeks start on Monday). */
export function bucketDates(range: Range, interval: Interval): string[] {
  const buckets = new Set<string>();
  for (let day = dayOf(range.startMs, range.timeZone); day <= dayOf(range.endMs, range.timeZone); day += DAY_MS) {
    const date = new Date(day);
    if (interval === 'week') buckets.add(formatDay(day - ((date.getUTCDay() + 6) % 7) * DAY_MS));
    else if (interval === 'month') buckets.add(formatDay(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)));
    else buckets.add(formatDay(day));
  }
  return [...buckets];
}

/** The relative change from `previous` to `current`; null when either is null or the previous is 0. */
export function relativeChange(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  const change = (current - previous) / Math.abs(previous);
  return Math.round(change * 10_000) / 10_000 || 0;
}

const changes = (current: Metrics, previous: Metrics): Metrics =>
  Object.fromEntries(Object.keys(previous).map((m) => [m, relativeChange(current[m] ?? null, previous[m] ?? null)]));

/**
 * Runs the report over the range and the same report over the comparison period. Rows pair by
 * their breakdown keys and, with an interval, by position: the n-th day (week, month) of the range
 * with the n-th of the earlier period. A row with no counterpart compares with an empty one (sums 0, ratios null).
 */
export async function runComparedReport(
  stores: { ch: Clickhouse; db: AppDatabase },
  auth: ReportAuth,
  range: Range,
  request: Undated<ReportRequest>,
  compareTo: Comparison,
  now = Date.now(),
): Promise<ComparedReport> {
  const current = await runReportIn(stores, auth, range, request, now);
  const earlierRange = comparisonRange(range, compareTo);
  const metrics = Object.keys(current.totals);
  const keyNames = request.breakdown ? DIMENSIONS[request.breakdown as Breakdown].keys.map((k) => k.name) : [];
  const interval = request.interval as Interval | undefined;
  const ownBuckets = interval ? bucketDates(range, interval) : [];
  const earlierBuckets = interval ? bucketDates(earlierRange, interval) : [];
  /** The keys of a row's counterpart, or null when the earlier period has no such bucket. */
  const counterpart = (row: ReportRow): string[] | null => {
    const keys = keyNames.map((k) => String(row[k]));
    if (!interval) return keys;
    const date = earlierBuckets[ownBuckets.indexOf(String(row.date))];
    return date === undefined ? null : [date, ...keys];
  };
  const paired = keyNames.length || interval ? current.rows.map(counterpart) : [];
  const wanted = paired.filter((keys): keys is string[] => keys !== null);
  const earlier = await runReportIn(stores, auth, earlierRange, {
    ...request,
    metrics,
    sort_by: undefined,
    offset: 0,
    limit: Math.max(1, wanted.length),
    ...(wanted.length ? { row_keys: wanted } : {}),
  }, now);
  const byKeys = new Map(earlier.rows.map((row) => [JSON.stringify([...(interval ? [row.date] : []), ...keyNames.map((k) => row[k])]), row]));
  const previousOf = (i: number): Metrics => {
    if (!keyNames.length && !interval) return earlier.totals;
    const keys = paired[i];
    const row = keys ? byKeys.get(JSON.stringify(keys)) : undefined;
    return row ? Object.fromEntries(metrics.map((m) => [m, row[m] as number | null])) : nothingOf(metrics, current.rows[i]!);
  };
  const rows = current.rows.map((row, i) => {
    const previous = previousOf(i);
    return { ...row, previous, change: changes(row as Metrics, previous) };
  });
  return {
    ...current,
    rows,
    totals: { ...current.totals, previous: earlier.totals, change: changes(current.totals, earlier.totals) },
    comparison: { compare_to: compareTo, start_date: earlier.pagination.start_date, end_date: earlier.pagination.end_date },
  };
}

/**
 * The metrics of a row that had no activity in the earlier period: sums 0, ratios null (what the
 * report gives for empty parts), and null where the row itself has no such value (the sessions of
 * a city row).
 */
function nothingOf(metrics: string[], row: ReportRow): Metrics {
  return Object.fromEntries(metrics.map((m) => [m, row[m] === null || 'per' in METRICS[m as MetricName] ? null : 0]));
}
