import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { QueryScope } from '../../query-scope.ts';
import { adConditions, type AdFilters } from './ads-scope.ts';

export const QUERY_NAME = 'total-ads';

/** Totals over every page of the filtered, deduplicated ad rows; JSON numbers. */
export interface AdTotals {
  total_ads: number;
  total_spend: number;
  total_impressions: number;
  total_clicks: number;
  total_reach: number;
}

const TOTALS = ['total_ads', 'total_spend', 'total_impressions', 'total_clicks', 'total_reach'] as const;

export async function totalAds(ch: Clickhouse, scope: QueryScope, filters: AdFilters): Promise<AdTotals> {
  const where = adConditions(scope, filters);
  const sql = `
SELECT
  uniqExact(source, ad_id) AS total_ads, sum(spend) AS total_spend, sum(impressions) AS total_impressions,
  sum(clicks) AS total_clicks, sum(reach) AS total_reach
FROM ads FINAL
WHERE ${where.sql()}`;
  const [row] = await ch.query<Record<string, string>>(QUERY_NAME, sql, where.params);
  return Object.fromEntries(TOTALS.map((t) => [t, Number(row?.[t] ?? 0)])) as unknown as AdTotals;
}
