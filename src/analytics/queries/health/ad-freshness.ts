import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'ad-freshness';

export interface AdFreshnessRow {
  source: string;
  last_day: string;
  ads: number;
}

/** The newest day of ad data per platform of the scope, over everything imported for the workspace. */
export async function adFreshness(ch: Clickhouse, scope: Pick<QueryScope, 'workspaceId' | 'channels'>): Promise<AdFreshnessRow[]> {
  const sql = `
SELECT source, toString(max(dt)) AS last_day, toUInt64(uniqExact(ad_id)) AS ads
FROM ads FINAL
WHERE store_id = {store_id:UInt64} AND ({all_channels:Bool} OR source IN {channels:Array(String)})
GROUP BY source
ORDER BY source
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<AdFreshnessRow>(QUERY_NAME, sql, {
    store_id: scope.workspaceId,
    all_channels: scope.channels === null,
    channels: scope.channels ?? [],
  });
}
