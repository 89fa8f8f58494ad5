import type { Clickhouse } from '../../../store/clickhouse.ts';

export const QUERY_NAME = 'known-ad-ids';

/** Which of these ad ids an ads row of the workspace names, whatever its date. */
export async function knownAdIds(ch: Clickhouse, workspaceId: number, adIds: readonly string[]): Promise<Set<string>> {
  if (adIds.length === 0) return new Set();
  const rows = await ch.query<{ ad_id: string }>(QUERY_NAME, `SELECT DISTINCT ad_id FROM ads
WHERE store_id = {store_id:UInt64} AND ad_id IN {ad_ids:Array(String)}`, { store_id: workspaceId, ad_ids: [...adIds] });
  return new Set(rows.map((r) => r.ad_id));
}
