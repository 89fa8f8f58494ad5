import type { Clickhouse } from '../../../store/clickhouse.ts';

export const QUERY_NAME = 'ad-sources';

/**
 * The ad platforms (`ads.source`) that ever delivered these ad ids in the workspace, whatever the
 * date: what a stored object naming the ads carries (docs/security.md, "Indirect leaks").
 * Ids no ads row knows carry no channel.
 */
export async function adSources(ch: Clickhouse, workspaceId: number, adIds: readonly string[]): Promise<string[]> {
  if (adIds.length === 0) return [];
  const rows = await ch.query<{ source: string }>(QUERY_NAME, `SELECT DISTINCT source FROM ads
WHERE store_id = {store_id:UInt64} AND ad_id IN {ad_ids:Array(String)}
ORDER BY source`, { store_id: workspaceId, ad_ids: [...adIds] });
  return rows.map((r) => r.source);
}
