import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'campaign-names';

/**
 * The name each campaign id carries in the workspace's ad rows (the newest import's, of its
 * latest day), for showing names where sessions only know the id. Ids no ad row names are left out.
 */
export async function campaignNames(ch: Clickhouse, scope: Pick<QueryScope, 'workspaceId'>, campaignIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(campaignIds.filter(Boolean))];
  if (!ids.length) return new Map();
  const sql = `
SELECT campaign_id, argMax(campaign_name, (dt, version)) AS campaign_name
FROM ads
WHERE store_id = {store_id:UInt64} AND campaign_id IN {campaign_ids:Array(String)} AND campaign_name != ''
GROUP BY campaign_id`;
  const rows = await ch.query<{ campaign_id: string; campaign_name: string }>(QUERY_NAME, sql, { store_id: scope.workspaceId, campaign_ids: ids });
  return new Map(rows.map((r) => [r.campaign_id, r.campaign_name]));
}
