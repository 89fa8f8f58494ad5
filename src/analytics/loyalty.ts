/**
 * Loyalty figures as loyalty.get-programs, loyalty.get-analytics and the dashboard's loyalty view
 * show them (docs/families.md, "Loyalty programs"), in the workspace currency. Orders carry no
 * channel, so a reader that does not see every channel gets no program figures.
 */
import { parseBound } from '../kit/calendar/days.ts';
import { money, ratio } from '../kit/numbers.ts';
import type { Range } from '../kit/calendar/range.ts';
import type { AppDatabase } from '../store/app-db.ts';
import type { Clickhouse } from '../store/clickhouse.ts';
import { listLoyaltyPrograms, type LoyaltyProgram } from '../store/app/loyalty-programs.ts';
import type { ToolObject } from '../store/app/tool-objects.ts';
import type { Visibility } from './permissions.ts';
import { programFigures } from './queries/loyalty/program-members.ts';
import { repeatCustomers } from './queries/loyalty/repeat-customers.ts';

export interface ProgramWithFigures {
  program: ToolObject<LoyaltyProgram>;
  members: number | null;
  points_earned: number | null;
  revenue: number | null;
}

/** A page of programs, each with its members, points and revenue since its first day (a day of `timeZone`). */
export async function loyaltyPrograms(
  stores: { db: AppDatabase; ch: Clickhouse },
  reader: { workspaceId: number; visibility: Visibility },
  timeZone: string,
  page: { limit: number; offset: number },
): Promise<ProgramWithFigures[]> {
  const programs = await listLoyaltyPrograms(stores.db, reader.workspaceId, page);
  return Promise.all(
    programs.map(async (program) => {
      if (reader.visibility.channels !== null) return { program, members: null, points_earned: null, revenue: null };
      const startMs = parseBound(program.data.start_date, 'start', timeZone)!;
      const figures = await programFigures(stores.ch, { workspaceId: reader.workspaceId, startMs, pointsPerUnit: program.data.points_per_unit });
      return { program, members: figures.members, points_earned: figures.points, revenue: money(figures.revenue_cents) };
    }),
  );
}

/** Repeat purchases of the customers who ordered in the range, with their customers by order count (1, 2, 3, 4+). */
export async function repeatPurchases(ch: Clickhouse, workspaceId: number, range: Range) {
  const buckets = await repeatCustomers(ch, { workspaceId, range });
  const rows = buckets.map((b) => ({ orders: Number(b.orders), customers: Number(b.customers), revenue_cents: Number(b.revenue_cents) }));
  const sum = (list: typeof rows, key: 'customers' | 'revenue_cents') => list.reduce((total, b) => total + b[key], 0);
  const repeat = rows.filter((b) => b.orders >= 2);
  const [customers, revenue] = [sum(rows, 'customers'), sum(rows, 'revenue_cents')];
  return {
    customers,
    repeat_customers: sum(repeat, 'customers'),
    repeat_rate: ratio(sum(repeat, 'customers'), customers),
    revenue: money(revenue),
    repeat_revenue_share: ratio(sum(repeat, 'revenue_cents'), revenue),
    buckets: rows.map((b) => ({ orders: b.orders === 4 ? '4+' : String(b.orders), customers: b.customers, revenue: money(b.revenue_cents) })),
  };
}
