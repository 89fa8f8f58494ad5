/**
 * Creators as creators.get-creators and the dashboard's creators view show them (docs/families.md,
 * "Creators"): every code the traffic carries and every stored creator with its tracking and
 * linked codes, with the sessions, orders, revenue (workspace currency) and commission of the
 * range, busiest first; beside them the report's revenue of the creator channel and why it differs.
 */
import { AccessDenied } from '../kit/errors.ts';
import { money } from '../kit/numbers.ts';
import { monthsOf, type Range } from '../kit/calendar/range.ts';
import type { AppDatabase } from '../store/app-db.ts';
import type { Clickhouse } from '../store/clickhouse.ts';
import { listCreatorPrograms, type Commission } from '../store/app/creator-programs.ts';
import { codesOf, listCreators, type Creator } from '../store/app/creators.ts';
import { seesChannel, type Visibility } from './permissions.ts';
import { runReportIn } from './report/run.ts';
import { creatorPerformance, type CreatorRow } from './queries/creators/creator-performance.ts';

export const NO_CREATOR_ACCESS = 'You do not have access to creators: they need a key that reads the creator channel (read:creators or admin:admin)';

export interface CreatorInTraffic {
  /** The stored creator's tracking code, else the traffic's code. */
  code: string;
  /** Every code counted: a stored creator's tracking code and linked codes, else the one code. */
  codes: string[];
  creator: Creator | null;
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

/** Revenue in cents of `codes` together over `span`. */
async function revenueOf(codes: string[], span: Range, performance: Performance): Promise<number> {
  const rows = await performance(span);
  return codes.reduce((sum, code) => sum + Number(rows.get(code)?.revenue_cents ?? 0), 0);
}

/**
 * Tiered commission in cents, unrounded: in each calendar month the range touches, the rate of the
 * tier the creator's revenue (all its codes) of the whole month reached applies to all of that
 * month's revenue inside the range.
 */
async function tieredCents(tiers: Tiers, codes: string[], range: Range, performance: Performance): Promise<number> {
  let cents = 0;
  for (const { month, inRange } of monthsOf(range)) {
    const earned = await revenueOf(codes, inRange, performance);
    if (earned === 0) continue;
    cents += (earned * tierRate(tiers, await revenueOf(codes, month, performance))) / 100;
  }
  return cents;
}

async function commissionCents(rule: Commission, group: Group, range: Range, performance: Performance): Promise<number> {
  switch (rule.type) {
    case 'percentage':
      return (group.revenue_cents * rule.rate_percent) / 100;
    case 'fixed':
      return group.orders * rule.amount_cents;
    case 'tiered':
      return tieredCents(rule.tiers, group.codes, range, performance);
  }
}

/** One creator's figures: a stored creator's codes summed, or one code of the traffic no creator claims. */
interface Group {
  code: string;
  codes: string[];
  creator: Creator | null;
  sessions: number;
  orders: number;
  revenue_cents: number;
  coupons: Set<string>;
}

function groupRows(rows: CreatorRow[], stored: Creator[]): Group[] {
  const owner = new Map(stored.flatMap((c) => codesOf(c).map((code) => [code, c] as const)));
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const creator = owner.get(row.code) ?? null;
    const key = creator ? `creator:${creator.id}` : `code:${row.code}`;
    const group = groups.get(key) ?? {
      code: creator ? codesOf(creator)[0]! : row.code, codes: creator ? codesOf(creator) : [row.code], creator,
      sessions: 0, orders: 0, revenue_cents: 0, coupons: new Set<string>(),
    };
    group.sessions += Number(row.sessions);
    group.orders += Number(row.orders);
    group.revenue_cents += Number(row.revenue_cents);
    for (const coupon of row.coupon_codes) group.coupons.add(coupon);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.revenue_cents - a.revenue_cents || b.sessions - a.sessions || a.code.localeCompare(b.code));
}

export async function creatorsInTraffic(
  stores: { db: AppDatabase; ch: Clickhouse },
  reader: { workspaceId: number; visibility: Visibility },
  range: Range,
): Promise<CreatorInTraffic[]> {
  if (!seesChannel(reader.visibility, 'creator')) throw new AccessDenied(NO_CREATOR_ACCESS);
  const [stored, programs] = await Promise.all([listCreators(stores.db, reader.workspaceId), listCreatorPrograms(stores.db, reader.workspaceId)]);
  const appliedRule = new Map(programs.filter((p) => p.data.applied).map((p) => [String(p.id), p.data.commission]));
  const known = stored.flatMap(codesOf);
  const answers = new Map<string, Promise<Map<string, CreatorRow>>>();
  const performance: Performance = (span) => {
    const key = `${span.startMs}:${span.endMs}`;
    if (!answers.has(key)) {
      answers.set(key, creatorPerformance(stores.ch, { workspaceId: reader.workspaceId, range: span, known }).then((rows) => new Map(rows.map((r) => [r.code, r]))));
    }
    return answers.get(key)!;
  };
  const groups = groupRows([...(await performance(range)).values()], stored);
  return Promise.all(
    groups.map(async (group) => {
      const rule = group.creator ? appliedRule.get(group.creator.data.program_id) : undefined;
      return {
        code: group.code,
        codes: group.codes,
        creator: group.creator,
        sessions: group.sessions,
        orders: group.orders,
        revenue: money(group.revenue_cents),
        commission: rule ? money(await commissionCents(rule, group, range, performance)) : null,
        coupon_codes: [...group.coupons].sort(),
      };
    }),
  );
}

/**
 * The two revenue figures of the creator channel side by side, with the reason they differ: the
 * creators' own orders (the commission basis, above) and what the report credits the creator
 * channel over the same days under the workspace's attribution.
 */
export async function creatorRevenueBasis(
  stores: { db: AppDatabase; ch: Clickhouse },
  reader: { workspaceId: number; visibility: Visibility },
  range: Range,
  creators: CreatorInTraffic[],
  nowMs: number,
) {
  const report = await runReportIn(stores, reader, range, { source: ['creator'], metrics: ['revenue'] }, nowMs);
  const { attribution_model: model, attribution_window: window } = report.settings_applied;
  return {
    revenue: money(creators.reduce((sum, c) => sum + Math.round(c.revenue * 100), 0)),
    report_revenue: Number(report.totals.revenue ?? 0),
    attribution: { model, window },
    reason:
      `revenue counts each sale order once for the creator whose coupon it carries, else whose link its session landed with, ` +
      `whatever channel brought the buyer and with no window: the basis of commission. report_revenue is what /v3/report credits ` +
      `the creator channel (sessions that landed with a creator link) under ${model} with a ${window}-day window: an order placed ` +
      `in a later visit after a creator click counts there but for no creator here (no coupon, and its own session carried no link), ` +
      `an order with a creator coupon that came through another channel counts here but there for that channel, and a creator ` +
      `visit followed by another channel's click gives credit by the model's rule.`,
  };
}
