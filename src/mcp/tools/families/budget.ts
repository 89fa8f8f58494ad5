import { z } from 'zod';
import { ATTRIBUTION_MODELS } from '../../../analytics/attribution/index.ts';
import { rangeOut } from '../kit/range.ts';
import type { Range } from '../../../kit/calendar/range.ts';
import { fitPowerCurve, marginalReturn, variation, type PowerCurve } from '../kit/stats.ts';
import { rangeArgs, readTool, type ToolContext } from '../kit/tool.ts';
import { attributionOf, report } from './analytics.ts';
import { dailySpendRevenue } from './correlations.ts';
import * as out from '../kit/outputs.ts';

/** "Current" spend: the mean daily spend over the range's last days, this many of them. */
const CURRENT_DAYS = 7;
/** Fewer fitted days than this, or spend varying less than this (coefficient of variation): low confidence. */
const FEW_DAYS = 14;
const FLAT_SPEND = 0.1;
/** High confidence needs this many fitted days, this much spend variation and this good a fit. */
const MANY_DAYS = 28;
const VARIED_SPEND = 0.25;
const GOOD_FIT = 0.6;
/** A curve explaining less than this share of daily revenue (R², log scale) is low confidence whatever the days. */
const POOR_FIT = 0.3;

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const roasOf = (revenue: number, spend: number) => (spend > 0 ? round(revenue / spend, 4) : null);

/** How far the numbers carry, in words: the reasons a slope read from these days may be a guess. */
function confidence(days: number, spendVariation: number | null, curve: PowerCurve | null): { level: 'low' | 'medium' | 'high'; note: string } {
  if (!curve) return { level: 'low', note: `No curve: fewer than 3 days with both spend and revenue, or spend never changed (${days} days).` };
  const reasons = [
    ...(days < FEW_DAYS ? [`only ${days} days with spend and revenue (${FEW_DAYS} or more wanted)`] : []),
    ...(spendVariation !== null && spendVariation < FLAT_SPEND ? [`daily spend barely varied (±${Math.round(spendVariation * 100)} %), so the slope is a guess`] : []),
    ...(curve.r2 < POOR_FIT ? [`the curve explains only ${Math.round(curve.r2 * 100)} % of daily revenue (log scale; ${POOR_FIT * 100} % or more wanted), so daily revenue follows something other than this spend`] : []),
  ];
  if (reasons.length) return { level: 'low', note: `Low: ${reasons.join('; ')}.` };
  const fit = `${days} days, spend varied ±${Math.round((spendVariation ?? 0) * 100)} %, the curve explains ${Math.round(curve.r2 * 100)} % of daily revenue (log scale)`;
  if (days >= MANY_DAYS && (spendVariation ?? 0) >= VARIED_SPEND && curve.r2 >= GOOD_FIT) return { level: 'high', note: `High: ${fit}.` };
  return { level: 'medium', note: `Medium: ${fit}; more days or more varied spend would firm it up.` };
}

/** ROAS per source under every attribution model, from the report core. */
async function roasByModel(ctx: ToolContext, range: Range) {
  const runs = await Promise.all(ATTRIBUTION_MODELS.map((model) =>
    report(ctx, { attribution_model: model, breakdown: 'source', metrics: ['spend', 'revenue'], limit: 500 }, range)));
  const bySource = new Map<string, Record<string, number | null>>();
  runs.forEach((run, i) => {
    for (const row of run.rows) {
      const models = bySource.get(String(row.source)) ?? {};
      models[ATTRIBUTION_MODELS[i]!] = roasOf(Number(row.revenue), Number(row.spend));
      bySource.set(String(row.source), models);
    }
  });
  return bySource;
}

export const budgetTools = [
  readTool(
    'budget.compare-channels',
    'Compare channels for budget',
    'Budget moves: per channel, marginal ROAS (slope of its daily spend/revenue curve), ROAS per ' +
      'model, new-customer share, trend, fit confidence. 28+ days. Basis: report.',
    'Daily spend from ad rows against the report core\'s daily credited revenue per source; each attribution model\'s ROAS.',
    z.object({ ...rangeArgs }).strict(),
    z.strictObject({
      ...out.range,
      attribution: out.open,
      channels: out.list({
        source: out.str, spend: out.num, revenue: out.num, roas: out.numOrNull, marginal_roas: out.numOrNull, daily_spend_now: out.num,
        curve: out.open.nullable(), days_fitted: out.num, spend_variation: out.numOrNull, roas_by_model: out.open, new_customer_share: out.numOrNull,
        trend: out.open, confidence: out.str, confidence_note: out.str,
      }),
      without_spend: out.list({ source: out.str, revenue: out.num }),
      ranking: out.strs,
      method: out.str,
    }),
    async (ctx, input) => {
      const { range, days, series, result } = await dailySpendRevenue(ctx, input);
      const [models, buyers] = await Promise.all([
        roasByModel(ctx, range),
        report(ctx, { breakdown: 'source', metrics: ['conversions', 'new_customers'], limit: 500 }, range),
      ]);
      const half = Math.floor(days.length / 2);
      const spent = series.filter((s) => sum(s.spend) > 0);
      const withoutSpend = series.filter((s) => sum(s.spend) === 0).map((s) => ({ source: s.source, revenue: round(sum(s.revenue), 2) }));
      const channels = spent.map(({ source, spend, revenue }) => {
        const curve = fitPowerCurve(spend, revenue);
        const fitted = spend.filter((s, i) => s > 0 && revenue[i]! > 0);
        const now = sum(spend.slice(-CURRENT_DAYS)) / Math.min(CURRENT_DAYS, spend.length);
        const spendVariation = variation(fitted);
        const byModel = models.get(source) ?? {};
        const values = Object.values(byModel).filter((v): v is number => v !== null);
        const row = buyers.rows.find((r) => r.source === source);
        const conversions = Number(row?.conversions ?? 0);
        const first = roasOf(sum(revenue.slice(0, half)), sum(spend.slice(0, half)));
        const second = roasOf(sum(revenue.slice(half)), sum(spend.slice(half)));
        const { level, note } = confidence(fitted.length, spendVariation, curve);
        return {
          source,
          spend: round(sum(spend), 2),
          revenue: round(sum(revenue), 2),
          roas: roasOf(sum(revenue), sum(spend)),
          marginal_roas: curve ? round(marginalReturn(curve, now), 4) : null,
          daily_spend_now: round(now, 2),
          curve: curve && { a: round(curve.a, 4), b: round(curve.b, 4), r2: round(curve.r2, 4) },
          days_fitted: fitted.length,
          spend_variation: spendVariation === null ? null : round(spendVariation, 4),
          roas_by_model: { min: values.length ? Math.min(...values) : null, max: values.length ? Math.max(...values) : null, models: byModel },
          new_customer_share: conversions > 0 ? round(Number(row?.new_customers ?? 0) / conversions, 4) : null,
          trend: { roas_first_half: first, roas_second_half: second, change: first && second !== null ? round(second / first - 1, 4) : null },
          confidence: level,
          confidence_note: note,
        };
      });
      const ranking = channels.filter((c) => c.marginal_roas !== null).sort((x, y) => y.marginal_roas! - x.marginal_roas! || x.source.localeCompare(y.source)).map((c) => c.source);
      return {
        ...rangeOut(range),
        attribution: attributionOf(result.settings_applied),
        channels,
        without_spend: withoutSpend,
        ranking,
        method: `revenue = a * spend^b fitted per channel to its daily points (log-log least squares, b kept in [0, 1]); ` +
          `marginal_roas = a * b * s^(b-1) at s = daily_spend_now, the mean daily spend of the last ${CURRENT_DAYS} days (docs/budget.md)`,
      };
    },
  ),
];
