import { z } from 'zod';
import { adCreatives } from '../../../analytics/queries/library/ad-creatives.ts';
import type { ReportRow } from '../../../analytics/report/run.ts';
import { listObjects } from '../../../store/app/tool-objects.ts';
import { rangeOut, toolRange } from '../kit/range.ts';
import { adScope } from '../../../analytics/query-scope.ts';
import { rangeArgs, limitArg, offsetArg, readTool, type ToolContext } from '../kit/tool.ts';
import { attributionOf, report } from './analytics.ts';
import * as out from '../kit/outputs.ts';

export const RANK_BY = ['spend', 'revenue', 'roas', 'ctr'] as const;
type RankBy = (typeof RANK_BY)[number];

const CREATIVE_METRICS = ['spend', 'impressions', 'clicks', 'ctr', 'conversions', 'revenue', 'roas'] as const;
type CreativeNumbers = Record<(typeof CREATIVE_METRICS)[number], number | null>;

export async function labelsByAsset(ctx: ToolContext): Promise<Map<string, string[]>> {
  const labels = await listObjects<{ asset_id: string; labels: string[] }>(ctx.db, ctx.workspaceId, 'asset_label');
  return new Map(labels.map((l) => [l.data.asset_id, l.data.labels]));
}

/**
 * The range's ads ranked by `rankBy`, with the numbers of the report core's `ad` breakdown (spend,
 * clicks, and the conversions and revenue its attribution credits to the ad, workspace settings
 * applied), so that they equal analytics.query's; campaign and delivery days from the ads rows.
 * An ad with credited conversions but no delivery in the range is listed too, its days null.
 */
export async function topCreatives(ctx: ToolContext, input: { date_from?: string; date_to?: string; timezone?: string }, page: { rankBy: RankBy; limit: number; offset: number }) {
  const range = toolRange(ctx, input);
  const scope = adScope(ctx, range);
  const result = await report(ctx, {
    breakdown: 'ad', metrics: [...CREATIVE_METRICS], sort_by: page.rankBy, keyed_rows: true, limit: page.limit, offset: page.offset,
  }, range);
  const delivery = new Map((await adCreatives(ctx.ch, scope, result.rows.map((r) => String(r.ad)))).map((d) => [d.ad_id, d]));
  const creatives = result.rows.map((row: ReportRow) => {
    const ads = delivery.get(String(row.ad));
    return {
      asset_id: String(row.ad),
      source: String(row.source),
      ad_name: String(row.ad_name),
      campaign_id: ads?.campaign_id ?? '',
      campaign_name: ads?.campaign_name ?? '',
      first_day: ads?.first_day ?? null,
      last_day: ads?.last_day ?? null,
      ...(Object.fromEntries(CREATIVE_METRICS.map((m) => [m, row[m]])) as CreativeNumbers),
    };
  });
  return { creatives, attribution: attributionOf(result.settings_applied), range };
}

export const libraryTools = [
  readTool(
    'library.get-assets',
    'Creative library',
    'Which creatives work: ads with spend, CTR, credited conversions, revenue, ROAS and labels. Basis: report.',
    'Ads and their delivery from ad rows; conversions and revenue credited by the report core.',
    z
      .object({
        ...rangeArgs,
        sort_by: z.enum(RANK_BY).default('spend').describe('Order of the assets'),
        limit: limitArg,
        offset: offsetArg,
      })
      .strict(),
    z.strictObject({ ...out.range, attribution: out.open, assets: out.storedList }),
    async (ctx, input) => {
      const { creatives, attribution, range } = await topCreatives(ctx, input, { rankBy: input.sort_by, limit: input.limit, offset: input.offset });
      const labels = await labelsByAsset(ctx);
      return { assets: creatives.map((c) => ({ ...c, labels: labels.get(c.asset_id) ?? [] })), attribution, ...rangeOut(range) };
    },
  ),
];
