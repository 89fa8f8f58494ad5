import { z } from 'zod';
import { dailySpendRevenue } from '../../../analytics/queries/correlations/daily-spend-revenue.ts';
import { money, rangeDayList, rangeOut, ratio, toolRange } from '../kit/range.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
import { pearson } from '../kit/stats.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import { META_FAMILY, channelsOf } from '../../../analytics/sources.ts';
import * as out from '../kit/outputs.ts';

/**
 * The ad platform a raw channel spends through: ads rows say `meta` while sessions land from
 * facebook, instagram, ...; microsoft and bing are one platform; creator covers influencer.
 */
export function platformOf(channel: string): string {
  if ((META_FAMILY as readonly string[]).includes(channel)) return 'meta';
  if (channelsOf('microsoft').includes(channel)) return 'microsoft';
  if (channelsOf('creator').includes(channel)) return 'creator';
  return channel;
}

export const correlationTools = [
  readTool(
    'correlations.get-data',
    'Spend vs revenue correlation',
    'Per channel (meta covers facebook, instagram, ...; microsoft covers bing): Pearson correlation of daily ad ' +
      'spend with the daily revenue it brought, every day of the range counted.',
    'Daily spend from ad rows against daily conversion revenue from traffic.',
    z
      .object({
        ...rangeArgs,
        include_series: z.boolean().default(false).describe('Add the daily values'),
      })
      .strict(),
    z.strictObject({
      correlations: out.fields({
        ...out.range, days: out.num,
        channels: out.list({ channel: out.str, spend: out.num, revenue: out.num, roas: out.numOrNull, correlation: out.numOrNull, series: out.list({ date: out.str, spend: out.num, revenue: out.num }) }),
      }),
    }),
    async (ctx, input) => {
      const range = toolRange(input, ctx.now());
      const rows = await dailySpendRevenue(ctx.ch, pixelScope(ctx, range));
      const days = rangeDayList(range);
      const byChannel = new Map<string, Map<string, { spend: number; revenue: number }>>();
      for (const r of rows) {
        const platform = platformOf(r.channel);
        const series = byChannel.get(platform) ?? new Map<string, { spend: number; revenue: number }>();
        const day = series.get(r.day) ?? { spend: 0, revenue: 0 };
        day.spend += Number(r.spend_cents);
        day.revenue += Number(r.revenue_cents);
        series.set(r.day, day);
        byChannel.set(platform, series);
      }
      const channels = [...byChannel].map(([channel, series]) => {
        const spend = days.map((d) => series.get(d)?.spend ?? 0);
        const revenue = days.map((d) => series.get(d)?.revenue ?? 0);
        const totalSpend = spend.reduce((a, b) => a + b, 0);
        const totalRevenue = revenue.reduce((a, b) => a + b, 0);
        return {
          channel,
          spend: money(totalSpend),
          revenue: money(totalRevenue),
          roas: ratio(totalRevenue, totalSpend, 2),
          correlation: pearson(spend, revenue),
          ...(input.include_series
            ? { series: days.map((day, i) => ({ date: day, spend: money(spend[i]!), revenue: money(revenue[i]!) })) }
            : {}),
        };
      });
      return { correlations: { ...rangeOut(range), days: range.days, channels } };
    },
  ),
];
