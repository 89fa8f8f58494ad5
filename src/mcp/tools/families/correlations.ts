import { z } from 'zod';
import { rangeOut, ratio, toolRange } from '../kit/range.ts';
import { dayList, type Range } from '../../../kit/calendar/range.ts';
import { pearson } from '../kit/stats.ts';
import { rangeArgs, readTool, type ToolContext } from '../kit/tool.ts';
import { MAX_LIMIT } from '../../../kit/paging.ts';
import type { ReportRequest, ReportResult } from '../../../analytics/report/run.ts';
import { attributionOf, report } from './analytics.ts';
import * as out from '../kit/outputs.ts';

/** Sources without a platform to spend on: the report's rows for them are left out. */
const NO_SPEND = new Set(['organic', 'unattributed']);

/** Every row of a report, page after page (a day per source is one row). */
export async function allRows(ctx: ToolContext, request: ReportRequest, range?: Range): Promise<ReportResult> {
  const first = await report(ctx, { ...request, limit: MAX_LIMIT, offset: 0 }, range);
  const rows = [...first.rows];
  for (let offset = MAX_LIMIT; offset < first.pagination.total_rows; offset += MAX_LIMIT) {
    rows.push(...(await report(ctx, { ...request, limit: MAX_LIMIT, offset }, range)).rows);
  }
  return { ...first, rows };
}

/** Spend and revenue per reporting source and local day of the range, from the report core (day x source rows). */
export async function dailySpendRevenue(ctx: ToolContext, input: { date_from?: string; date_to?: string; timezone?: string }, extra: Partial<ReportRequest> = {}) {
  const range = toolRange(ctx, input);
  const result = await allRows(ctx, { breakdown: 'source', interval: 'day', metrics: ['spend', 'revenue'], ...extra }, range);
  const days = dayList(range);
  const bySource = new Map<string, Map<string, { spend: number; revenue: number }>>();
  for (const row of result.rows) {
    const source = String(row.source);
    if (NO_SPEND.has(source)) continue;
    const series = bySource.get(source) ?? new Map();
    series.set(String(row.date), { spend: Number(row.spend), revenue: Number(row.revenue) });
    bySource.set(source, series);
  }
  const series = [...bySource].map(([source, byDay]) => ({
    source,
    spend: days.map((d) => byDay.get(d)?.spend ?? 0),
    revenue: days.map((d) => byDay.get(d)?.revenue ?? 0),
  }));
  return { range, days, series, result };
}

const sum = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100;

export const correlationTools = [
  readTool(
    'correlations.get-data',
    'Spend vs revenue correlation',
    'Per channel: Pearson correlation of daily ad spend with daily credited revenue, every day counted. Basis: report.',
    'Daily spend from ad rows against the report core\'s daily credited revenue per source.',
    z
      .object({
        ...rangeArgs,
        include_series: z.boolean().default(false).describe('Add the daily values'),
      })
      .strict(),
    z.strictObject({
      correlations: out.fields({
        ...out.range, days: out.num, attribution: out.open,
        channels: out.list({ channel: out.str, spend: out.num, revenue: out.num, roas: out.numOrNull, correlation: out.numOrNull, series: out.list({ date: out.str, spend: out.num, revenue: out.num }) }),
      }),
    }),
    async (ctx, input) => {
      const { range, days, series, result } = await dailySpendRevenue(ctx, input);
      const channels = series.map(({ source, spend, revenue }) => ({
        channel: source,
        spend: sum(spend),
        revenue: sum(revenue),
        roas: ratio(sum(revenue), sum(spend), 2),
        correlation: pearson(spend, revenue),
        ...(input.include_series ? { series: days.map((date, i) => ({ date, spend: spend[i]!, revenue: revenue[i]! })) } : {}),
      }));
      return { correlations: { ...rangeOut(range), days: range.days, attribution: attributionOf(result.settings_applied), channels } };
    },
  ),
];
