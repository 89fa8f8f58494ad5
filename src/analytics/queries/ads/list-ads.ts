import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { Page } from '../../../kit/paging.ts';
import type { QueryScope } from '../../query-scope.ts';
import { paged, type Statement } from '../../sql.ts';
import { adConditions, type AdFilters } from './ads-scope.ts';

export const QUERY_NAME = 'list-ads';

export interface ListAdsParams extends AdFilters {
  page: Page;
}

/** The account, campaign, ad group and ad an ads row is about, with their names, as the ads table keeps them. */
export interface AdHierarchy {
  adaccount_id: string;
  campaign_id: string;
  campaign_name: string;
  adgroup_id: string;
  adgroup_name: string;
  ad_id: string;
  ad_name: string;
}

/** An ad row as it goes on the wire: integers as strings, dt as `YYYY-MM-DD`. */
export interface AdRow extends AdHierarchy {
  store_id: string;
  dt: string;
  source: string;
  spend: string;
  impressions: string;
  clicks: string;
  reach: string;
}

/** Every deduplicated ad row in scope as wire rows, ordered by dt, source, ad_id. */
export function adsStatement(scope: QueryScope, filters: AdFilters): Statement {
  const where = adConditions(scope, filters);
  const sql = `
SELECT
  toString(store_id) AS store_id, toString(dt) AS dt, adaccount_id, toString(source) AS source,
  campaign_id, campaign_name, adgroup_id, adgroup_name, ad_id, ad_name,
  toString(spend) AS spend, toString(impressions) AS impressions, toString(clicks) AS clicks, toString(reach) AS reach
FROM ads FINAL
WHERE ${where.sql()}
ORDER BY dt, source, ad_id`;
  return { sql, params: where.params };
}

/** Returns up to `limit + 1` rows of `adsStatement`. */
export async function listAds(ch: Clickhouse, scope: QueryScope, params: ListAdsParams): Promise<AdRow[]> {
  const { sql, params: values } = paged(adsStatement(scope, params), params.page);
  return ch.query<AdRow>(QUERY_NAME, sql, values);
}
