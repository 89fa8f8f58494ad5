import { z } from 'zod';
import { adCreatives, CREATIVE_ORDER, type CreativeRow } from '../../../analytics/queries/library/ad-creatives.ts';
import { listObjects } from '../../../store/app/tool-objects.ts';
import { money, rangeOut, ratio, toolRange } from '../kit/range.ts';
import { adScope } from '../../../analytics/query-scope.ts';
import { rangeArgs, limitArg, offsetArg, readTool, type ToolContext } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const RANK_BY = Object.keys(CREATIVE_ORDER) as (keyof typeof CREATIVE_ORDER)[];

/** A creative as tools show it: money in the workspace currency, ratios as factors. */
export function creativeOut(r: CreativeRow) {
  const spend = Number(r.spend_cents);
  const revenue = Number(r.revenue_cents ?? 0);
  return {
    asset_id: r.ad_id,
    source: r.source,
    ad_name: r.ad_name,
    campaign_id: r.campaign_id,
    campaign_name: r.campaign_name,
    first_day: r.first_day,
    last_day: r.last_day,
    spend: money(spend),
    impressions: Number(r.impressions),
    clicks: Number(r.clicks),
    ctr: ratio(Number(r.clicks), Number(r.impressions)),
    conversions: Number(r.conversions ?? 0),
    revenue: money(revenue),
    roas: ratio(revenue, spend, 2),
  };
}

export async function labelsByAsset(ctx: ToolContext): Promise<Map<string, string[]>> {
  const labels = await listObjects<{ asset_id: string; labels: string[] }>(ctx.db, ctx.workspaceId, 'asset_label');
  return new Map(labels.map((l) => [l.data.asset_id, l.data.labels]));
}

export const libraryTools = [
  readTool(
    'library.get-assets',
    'Creative library',
    'Ad creatives that delivered in the range with spend, CTR, conversions, revenue, ROAS and labels.',
    'Ads and their delivery from ad rows, with the conversions credited to them.',
    z
      .object({
        ...rangeArgs,
        sort_by: z.enum(RANK_BY).default('spend').describe('Order of the assets'),
        limit: limitArg,
        offset: offsetArg,
      })
      .strict(),
    z.strictObject({ ...out.range, assets: out.storedList }),
    async (ctx, input) => {
      const range = toolRange(input, ctx.now());
      const rows = await adCreatives(ctx.ch, adScope(ctx, range), {
        orderBy: input.sort_by,
        limit: input.limit,
        offset: input.offset,
      });
      const labels = await labelsByAsset(ctx);
      return { assets: rows.map((r) => ({ ...creativeOut(r), labels: labels.get(r.ad_id) ?? [] })), ...rangeOut(range) };
    },
  ),
];
