/**
 * Customers over time (docs/api.md, "GET /v3/customers"): the new customers of a range (their
 * first counted order ever falls in it) and how they came back, their lifetime value at fixed
 * horizons, by first source, first campaign or cohort month; beside them the returning customers
 * of the range. The one core behind GET /v3/customers, the `customers.get-ltv` tool and the
 * dashboard's Customers view.
 */
import type { Clickhouse } from '../store/clickhouse.ts';
import type { AppDatabase } from '../store/app-db.ts';
import { DAY_MS, formatDay } from '../kit/calendar/days.ts';
import { oneOf } from '../kit/choices.ts';
import { money, ratio } from '../kit/numbers.ts';
import type { Range } from '../kit/calendar/range.ts';
import { prepareReport, type ReportAuth } from './report/run.ts';
import {
  COHORT_BREAKDOWNS, LTV_DAYS, customerCohorts, type CohortBreakdown, type CohortGroup,
} from './queries/customers/customer-cohorts.ts';

export { COHORT_BREAKDOWNS, LTV_DAYS, type CohortBreakdown };

/** What every surface asks beside the range: the breakdown, the first-click window. */
export interface CustomersRequest {
  breakdown?: string;
  attribution_window?: number;
}

export type LtvName = `ltv_${(typeof LTV_DAYS)[number]}`;
export const LTV_NAMES = LTV_DAYS.map((days) => `ltv_${days}` as LtvName);

/** The figures of a cohort (a row, or the whole cohort in the totals); money in the workspace currency. */
export type CohortFigures = {
  new_customers: number;
  repeat_rate: number | null;
  avg_days_to_second_order: number | null;
} & Record<LtvName, number | null>;

export type CustomersRow = Partial<Record<CohortBreakdown, string>> & CohortFigures & { revenue_by_month?: number[] };

export type CustomersTotals = { customers: number; returning_customers: number; revenue: number } & CohortFigures;

export interface CustomersAnswer {
  data: CustomersRow[];
  totals: CustomersTotals;
  breakdown: CohortBreakdown | null;
  attributionWindow: number;
  /** The conversion-name patterns whose orders counted. */
  countedNames: readonly string[];
}

/** The parts of a cohort's figures: the sums of its groups. */
type Parts = Pick<CohortGroup, 'customers' | 'repeaters' | 'ms_to_second' | 'ltv_cents' | 'ltv_members'>;

function figures(p: Parts): CohortFigures {
  const out = {
    new_customers: p.customers,
    repeat_rate: ratio(p.repeaters, p.customers),
    avg_days_to_second_order: ratio(p.ms_to_second / DAY_MS, p.repeaters, 2),
  } as CohortFigures;
  LTV_NAMES.forEach((name, i) => (out[name] = p.ltv_members[i]! > 0 ? money(p.ltv_cents[i]! / p.ltv_members[i]!) : null));
  return out;
}

function sum(groups: CohortGroup[]): Parts {
  const add = (pick: (g: CohortGroup) => number) => groups.reduce((total, g) => total + pick(g), 0);
  return {
    customers: add((g) => g.customers),
    repeaters: add((g) => g.repeaters),
    ms_to_second: add((g) => g.ms_to_second),
    ltv_cents: LTV_DAYS.map((_, i) => add((g) => g.ltv_cents[i]!)),
    ltv_members: LTV_DAYS.map((_, i) => add((g) => g.ltv_members[i]!)),
  };
}

/** Calendar months from `YYYY-MM` to the month of `nowMs` in `zone`, both counted. */
function monthsSince(month: string, nowMs: number, zone: string): number {
  const number = (yyyyMm: string) => Number(yyyyMm.slice(0, 4)) * 12 + Number(yyyyMm.slice(5, 7));
  return number(formatDay(nowMs, zone)) - number(month) + 1;
}

/** A cohort month's revenue per customer for each month since the first order, month 0 first, up to now's month. */
function revenueByMonth(group: CohortGroup, nowMs: number, zone: string): number[] {
  const cents = new Array<number>(Math.max(1, monthsSince(group.cohort_month, nowMs, zone))).fill(0);
  group.month_index.forEach((index, i) => (cents[index] = (cents[index] ?? 0) + group.month_cents[i]!));
  return cents.map((c) => money(c / group.customers));
}

function row(group: CohortGroup, breakdown: CohortBreakdown | null, nowMs: number, zone: string): CustomersRow {
  const figured = figures(group);
  switch (breakdown) {
    case null:
      return figured;
    case 'first_source':
      return { first_source: group.first_source, ...figured };
    case 'first_campaign':
      return { first_campaign: group.first_campaign, first_source: group.first_source, ...figured };
    case 'cohort_month':
      return { cohort_month: group.cohort_month, ...figured, revenue_by_month: revenueByMonth(group, nowMs, zone) };
  }
}

/** Cohort months in order; other rows by new customers, most first, then by their keys. */
function rowOrder(a: CohortGroup, b: CohortGroup): number {
  const keys = (g: CohortGroup) => `${g.cohort_month}\u0000${g.first_source}\u0000${g.first_campaign}`;
  if (a.cohort_month !== b.cohort_month) return keys(a) < keys(b) ? -1 : 1;
  return b.customers - a.customers || (keys(a) < keys(b) ? -1 : keys(a) > keys(b) ? 1 : 0);
}

const EMPTY: CohortGroup = {
  cohort: 1, first_source: '', first_campaign: '', cohort_month: '', customers: 0, repeaters: 0, ms_to_second: 0,
  ltv_cents: LTV_DAYS.map(() => 0), ltv_members: LTV_DAYS.map(() => 0), range_cents: 0, month_index: [], month_cents: [],
};

/**
 * The customers of a range for a reader: its rows (one per breakdown value; without breakdown one
 * row, the whole cohort) and totals. Throws InvalidInput for a bad breakdown or window and
 * AccessDenied for a key that sees no channel.
 */
export async function customerLtv(
  stores: { ch: Clickhouse; db: AppDatabase },
  auth: ReportAuth,
  range: Range,
  request: CustomersRequest,
  now = Date.now(),
): Promise<CustomersAnswer> {
  const breakdown = request.breakdown === undefined ? null : oneOf('breakdown', request.breakdown, COHORT_BREAKDOWNS);
  const { plan } = await prepareReport(stores, auth, range, {
    attribution_window: request.attribution_window, attribution_model: 'first_click', metrics: ['revenue'],
  }, now);
  // The workspace's conversion_names, as the report counts them (every name by default).
  const countedNames = plan.conversionNames;
  const groups = await customerCohorts(stores.ch, { plan, breakdown, countedNames, nowMs: now });
  const cohort = groups.filter((g) => g.cohort === 1).sort(rowOrder);
  const returning = groups.filter((g) => g.cohort === 0).reduce((total, g) => total + g.customers, 0);
  const { new_customers, ...metrics } = figures(sum(cohort));
  return {
    data: breakdown === null ? [row(cohort[0] ?? EMPTY, null, now, range.timeZone)] : cohort.map((g) => row(g, breakdown, now, range.timeZone)),
    totals: {
      customers: new_customers + returning,
      new_customers,
      returning_customers: returning,
      revenue: money(groups.reduce((total, g) => total + g.range_cents, 0)),
      ...metrics,
    },
    breakdown,
    attributionWindow: plan.attribution.windowDays,
    countedNames,
  };
}
