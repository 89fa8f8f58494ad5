import type { Clickhouse } from '../../../store/clickhouse.ts';
import { rangeDays } from '../../../kit/range.ts';
import type { QueryScope } from '../../query-scope.ts';
import { attributedConversions } from '../conversions/conversion-scope.ts';

export const QUERY_NAME = 'ad-creatives';

export interface CreativeRow {
  source: string;
  ad_id: string;
  ad_name: string;
  campaign_id: string;
  campaign_name: string;
  first_day: string;
  last_day: string;
  spend_cents: number;
  impressions: number;
  clicks: number;
  conversions: number;
  revenue_cents: number;
}

/** Ranking keys, each a whitelisted SQL expression over the output columns. */
export const CREATIVE_ORDER = {
  spend: 'spend_cents',
  revenue: 'revenue_cents',
  roas: 'if(spend_cents = 0, -1, revenue_cents / spend_cents)',
  ctr: 'if(impressions = 0, -1, clicks / impressions)',
} as const;

/**
 * The ad creatives that delivered in the range on the scope's ad platforms, with delivery from ads
 * rows and the conversions whose session landed from that ad (session-level attribution, as
 * /v3/conversions; a conversion counts whatever channel its landing carries, the ad id decides).
 */
export async function adCreatives(
  ch: Clickhouse,
  scope: QueryScope,
  p: {
    orderBy: keyof typeof CREATIVE_ORDER;
    adIds?: string[];
    limit: number;
    offset: number;
  },
): Promise<CreativeRow[]> {
  const conversions = attributedConversions({ ...scope, channels: null });
  const sql = `
SELECT a.source AS source, a.ad_id AS ad_id, a.ad_name AS ad_name, a.campaign_id AS campaign_id, a.campaign_name AS campaign_name,
  a.first_day AS first_day, a.last_day AS last_day, a.spend_cents AS spend_cents, a.impressions AS impressions,
  a.clicks AS clicks, r.conversions AS conversions, r.revenue_cents AS revenue_cents
FROM (
  SELECT source, ad_id, argMax(ad_name, dt) AS ad_name, argMax(campaign_id, dt) AS campaign_id,
    argMax(campaign_name, dt) AS campaign_name, toString(min(dt)) AS first_day, toString(max(dt)) AS last_day,
    toInt64(sum(spend)) AS spend_cents, toUInt64(sum(impressions)) AS impressions, toUInt64(sum(clicks)) AS clicks
  FROM ads FINAL
  WHERE store_id = {store_id:UInt64} AND dt BETWEEN {day_start:Date} AND {day_end:Date}
    AND ({all_channels:Bool} OR source IN {channels:Array(String)})
    AND ({all_ads:Bool} OR ad_id IN {ad_ids:Array(String)})
  GROUP BY source, ad_id
) AS a
LEFT JOIN (
  SELECT l_adv_ad_id AS r_ad_id, toUInt64(count()) AS conversions, toInt64(sum(transaction_gross_revenue)) AS revenue_cents
  FROM ${conversions.sql}
  GROUP BY r_ad_id
) AS r ON a.ad_id = r.r_ad_id
ORDER BY ${CREATIVE_ORDER[p.orderBy]} DESC, spend_cents DESC, source, ad_id
LIMIT {limit:UInt32} OFFSET {offset:UInt32}
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<CreativeRow>(QUERY_NAME, sql, {
    ...conversions.params,
    ...rangeDays(scope.range),
    all_channels: scope.channels === null,
    channels: scope.channels ?? [],
    all_ads: p.adIds === undefined,
    ad_ids: p.adIds ?? [],
    limit: p.limit,
    offset: p.offset,
  });
}
