/**
 * Creators as creators.get-creators and the dashboard's creators view show them (docs/families.md,
 * "Creators"): every code the traffic carries and every stored creator's tracking code, with the
 * sessions, orders, revenue (workspace currency) and commission of the range, busiest first.
 */
import { AccessDenied } from '../kit/errors.ts';
import { money } from '../kit/numbers.ts';
import { monthsOf, type Range } from '../kit/range.ts';
import type { AppDatabase } from '../store/app-db.ts';
import type { Clickhouse } from '../store/clickhouse.ts';
import { listCreatorPrograms, type Commission } from '../store/app/creator-programs.ts';
import { listObjects, MAX_OBJECTS_PER_KIND, type ToolObject } from '../store/app/tool-objects.ts';
import { seesChannel, type Visibility } from './permissions.ts';
import { creatorPerformance, type CreatorRow } from './queries/creators/creator-performance.ts';

export const CREATOR_KIND = 'creator';
export const NO_CREATOR_ACCESS = 'You do not have access to creators: they need a key that reads the creator channel (read:creators or admin:admin)';

export interface StoredCreator {
  name: string;
  tracking_code: string;
  program_id: string;
  active: boolean;
}

export interface CreatorInTraffic {
  code: string;
  creator: ToolObject<StoredCreator> | null;
  sessions: number;
  orders: number;
  revenue: number;
  /** Under the creator's applied program; null without one. */
  commission: number | null;
  coupon_codes: string[];
}

type Tiers = Extract<Commission, { type: 'tiered' }>['tiers'];

/** The rate of the highest tier a month's revenue reached (0 below the first tier). */
export function tierRate(tiers: Tiers, monthRevenueCents: number): number {
  return tiers.reduce((rate, tier) => (monthRevenueCents >= tier.min_revenue_cents ? tier.rate_percent : rate), 0);
}

type Performance = (range: Range) => Promise<Map<string, CreatorRow>>;

/**
 * Tiered commission in cents, unrounded: in each calendar month the range touches, the rate of the
 * tier the creator's revenue of the whole month reached applies to all of that month's revenue
 * inside the range.
 */
async function tieredCents(tiers: Tiers, code: string, range: Range, performance: Performance): Promise<number> {
  let cents = 0;
  for (const { month, inRange } of monthsOf(range)) {
    const earned = Number((await performance(inRange)).get(code)?.revenue_cents ?? 0);
    if (earned === 0) continue;
    cents += (earned * tierRate(tiers, Number((await performance(month)).get(code)?.revenue_cents ?? 0))) / 100;
  }
  return cents;
}

async function commissionCents(rule: Commission, row: CreatorRow, range: Range, performance: Performance): Promise<number> {
  switch (rule.type) {
    case 'percentage':
      return (Number(row.revenue_cents) * rule.rate_percent) / 100;
    case 'fixed':
      return Number(row.orders) * rule.amount_cents;
    case 'tiered':
      return tieredCents(rule.tiers, row.code, range, performance);
  }
}

export async function creatorsInTraffic(
  stores: { db: AppDatabase; ch: Clickhouse },
  reader: { workspaceId: number; visibility: Visibility },
  range: Range,
): Promise<CreatorInTraffic[]> {
  if (!seesChannel(reader.visibility, 'creator')) throw new AccessDenied(NO_CREATOR_ACCESS);
  const [stored, programs] = await Promise.all([
    listObjects<StoredCreator>(stores.db, reader.workspaceId, CREATOR_KIND, { limit: MAX_OBJECTS_PER_KIND, offset: 0 }),
    listCreatorPrograms(stores.db, reader.workspaceId),
  ]);
  const byCode = new Map(stored.map((c) => [c.data.tracking_code.toUpperCase(), c]));
  const appliedRule = new Map(programs.filter((p) => p.data.applied).map((p) => [String(p.id), p.data.commission]));
  const known = [...byCode.keys()];
  const answers = new Map<string, Promise<Map<string, CreatorRow>>>();
  const performance: Performance = (span) => {
    const key = `${span.startMs}:${span.endMs}`;
    if (!answers.has(key)) {
      answers.set(key, creatorPerformance(stores.ch, { workspaceId: reader.workspaceId, range: span, known }).then((rows) => new Map(rows.map((r) => [r.code, r]))));
    }
    return answers.get(key)!;
  };
  const rows = [...(await performance(range)).values()];
  return Promise.all(
    rows.map(async (row) => {
      const creator = byCode.get(row.code) ?? null;
      const rule = creator ? appliedRule.get(creator.data.program_id) : undefined;
      return {
        code: row.code,
        creator,
        sessions: Number(row.sessions),
        orders: Number(row.orders),
        revenue: money(Number(row.revenue_cents)),
        commission: rule ? money(await commissionCents(rule, row, range, performance)) : null,
        coupon_codes: row.coupon_codes,
      };
    }),
  );
}
