import type { Clickhouse } from '../../../store/clickhouse.ts';
import { rangeDays } from '../../../kit/calendar/range.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'ad-creatives';

export interface CreativeRow {
  source: string;
  ad_id: string;
  ad_name: string;
  campaign_id: string;
  campaign_name: string;
  first_day: string;
  last_day: string;
}

/**
 * What the ads rows of the range say about these ads on the scope's ad platforms: their newest
 * name and campaign, and their first and last day of delivery. Their spend, clicks and credited
 * revenue come from the report core (the library tools), so that every tool counts an ad alike.
 */
export async function adCreatives(ch: Clickhouse, scope: QueryScope, adIds: readonly string[]): Promise<CreativeRow[]> {
  if (adIds.length === 0) return [];
  const sql = `
SELECT source, ad_id, argMax(ad_name, dt) AS ad_name, argMax(campaign_id, dt) AS campaign_id,
  argMax(campaign_name, dt) AS campaign_name, toString(min(dt)) AS first_day, toString(max(dt)) AS last_day
FROM ads FINAL
WHERE store_id = {store_id:UInt64} AND dt BETWEEN {day_start:Date} AND {day_end:Date}
  AND ({all_channels:Bool} OR source IN {channels:Array(String)})
  AND ad_id IN {ad_ids:Array(String)}
GROUP BY source, ad_id
ORDER BY source, ad_id`;
  return ch.query<CreativeRow>(QUERY_NAME, sql, {
    store_id: scope.workspaceId,
    ...rangeDays(scope.range),
    all_channels: scope.channels === null,
    channels: scope.channels ?? [],
    ad_ids: [...adIds],
  });
}
