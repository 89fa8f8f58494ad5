/**
 * Storelens against the shop, day by day (docs/books.md, "Reconcile with the shop"): the shop's
 * orders of each local day beside the report's conversions and revenue for that day under the
 * workspace settings, with every known difference named. The one core behind GET
 * /v3/reconciliation, the `reconciliation.get-data` tool, the dashboard's "Storelens vs shop"
 * view and the match rate of the tracking health summary.
 */
import type { Clickhouse } from '../store/clickhouse.ts';
import type { AppDatabase } from '../store/app-db.ts';
import { getSettings } from '../store/app/workspaces.ts';
import { DAY_MS, dayOf, formatDay } from '../kit/calendar/days.ts';
import { InvalidInput } from '../kit/errors.ts';
import type { Range } from '../kit/calendar/range.ts';
import { noEveryChannelAccess, requireEveryChannel } from './permissions.ts';
import type { Reader } from './query-scope.ts';
import { runReportIn } from './report/run.ts';
import { hasShares } from './attribution/index.ts';
import { PURCHASE } from './conversion-names.ts';
import { ensureExcludedList } from './queries/settings/excluded-transactions.ts';
import { booksByDay, type BooksDayRow } from './queries/reconciliation/books-by-day.ts';

/** The longest range one answer covers, in local days. */
export const MAX_RECONCILIATION_DAYS = 366;
export const TOO_LONG = `The reconciliation covers at most ${MAX_RECONCILIATION_DAYS} days: narrow start_date and end_date`;
export const NO_RECONCILIATION_ACCESS = noEveryChannelAccess('the reconciliation');

const COUNTS = ['shop_orders', 'cancelled_orders', 'test_orders', 'matched_orders', 'unmatched_orders', 'pixel_only_conversions', 'excluded_orders'] as const;
const MONEY = ['shop_revenue', 'cancelled_revenue', 'refunds', 'matched_revenue', 'unmatched_revenue', 'pixel_only_revenue'] as const;

/** Every figure of a day and of the totals, in the order the contract lists them. */
export const RECONCILIATION_FIGURES = [
  'shop_orders', 'shop_revenue', 'cancelled_orders', 'cancelled_revenue', 'test_orders', 'refunds', 'matched_orders',
  'matched_revenue', 'unmatched_orders', 'unmatched_revenue', 'pixel_only_conversions', 'pixel_only_revenue',
  'excluded_orders', 'report_conversions', 'report_revenue', 'unexplained_revenue',
] as const;

type Count = (typeof COUNTS)[number];
type Money = (typeof MONEY)[number];

/** One local day (or the totals), money as decimals of the workspace currency. */
export type ReconciliationFigures = Record<Count | Money, number> & {
  report_conversions: number;
  report_revenue: number;
  unexplained_revenue: number;
};
export type ReconciliationRow = { date: string } & ReconciliationFigures;

export interface Reconciliation {
  range: Range;
  /** The conversion names that stand beside the orders: purchases alone. */
  conversionNames: string[];
  data: ReconciliationRow[];
  totals: ReconciliationFigures;
}

const decimal = (cents: number) => Math.round(cents) / 100;

/** The local days of a range, `YYYY-MM-DD`, first to last. */
function daysOf(range: Range): string[] {
  const first = dayOf(range.startMs, range.timeZone);
  const last = dayOf(range.endMs, range.timeZone);
  if ((last - first) / DAY_MS + 1 > MAX_RECONCILIATION_DAYS) {
    throw new InvalidInput(TOO_LONG);
  }
  const days: string[] = [];
  for (let day = first; day <= last; day += DAY_MS) days.push(formatDay(day));
  return days;
}

/** A day's figures in cents from the books and the report's conversions and revenue (cents). */
function figures(books: BooksDayRow | undefined, conversions: number, revenueCents: number): ReconciliationFigures {
  const cents = (name: keyof BooksDayRow) => Number(books?.[name] ?? 0);
  const out = {} as ReconciliationFigures;
  for (const name of COUNTS) out[name] = cents(name);
  for (const name of MONEY) out[name] = cents(name);
  out.report_conversions = conversions;
  out.report_revenue = revenueCents;
  out.unexplained_revenue = revenueCents - cents('expected_order_revenue') - cents('pixel_only_revenue');
  return out;
}

const MONEY_OUT: ReadonlySet<string> = new Set([...MONEY, 'report_revenue', 'unexplained_revenue']);

/** The figures in the contract's order, money from cents to decimals. */
function inDecimals(f: ReconciliationFigures): ReconciliationFigures {
  return Object.fromEntries(RECONCILIATION_FIGURES.map((name) => [name, MONEY_OUT.has(name) ? decimal(f[name]) : f[name]])) as ReconciliationFigures;
}

function sum(rows: ReconciliationFigures[]): ReconciliationFigures {
  return Object.fromEntries(RECONCILIATION_FIGURES.map((name) => [name, rows.reduce((total, row) => total + row[name], 0)])) as ReconciliationFigures;
}

/**
 * The reconciliation of a range: one row per local day of it (days without an order or a
 * purchase included), and their totals. The figures are store-wide, so only a reader that sees
 * every channel may ask (AccessDenied otherwise); InvalidInput for a too long range.
 */
export async function reconcile(stores: { ch: Clickhouse; db: AppDatabase }, reader: Reader, range: Range, now = Date.now()): Promise<Reconciliation> {
  requireEveryChannel(reader.visibility, 'the reconciliation');
  const days = daysOf(range);
  const settings = await getSettings(stores.db, reader.workspaceId);
  await ensureExcludedList(stores.ch, reader.workspaceId, settings.excluded_transaction_ids);
  const [books, report] = await Promise.all([
    booksByDay(stores.ch, reader.workspaceId, range, {
      excludedIds: settings.excluded_transaction_ids,
      includeUnattributed: settings.include_unattributed,
      netMerchandise: settings.net_merchandise_revenue,
      refundNetting: settings.refund_netting,
    }),
    runReportIn(stores, reader, range, {
      interval: 'day', metrics: ['conversions', 'revenue'], limit: days.length,
      // Orders stand beside purchases alone, whatever names the workspace counts elsewhere.
      name: PURCHASE,
      // A day's row equals the day's totals under every model but an overlapping one, whose rows
      // credit a conversion once per platform; its totals are last click's.
      ...(hasShares(settings.attribution_model) ? { attribution_model: 'last_click' } : {}),
    }, now),
  ]);
  const booksByDate = new Map(books.map((row) => [row.date, row]));
  const reportByDate = new Map(report.rows.map((row) => [String(row.date), row]));
  const rows = days.map((date) => {
    const booked = reportByDate.get(date);
    return { date, ...figures(booksByDate.get(date), Number(booked?.conversions ?? 0), Math.round(Number(booked?.revenue ?? 0) * 100)) };
  });
  return {
    range,
    conversionNames: [PURCHASE],
    data: rows.map(({ date, ...f }) => ({ date, ...inDecimals(f) })),
    totals: inDecimals(sum(rows)),
  };
}
