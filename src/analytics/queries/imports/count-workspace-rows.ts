import type { Clickhouse } from '../../../store/clickhouse.ts';

export const QUERY_NAME = 'count-workspace-rows';

/** How many events and ads rows a workspace holds (the demo fills only an empty workspace). */
export async function countWorkspaceRows(ch: Clickhouse, workspaceId: number): Promise<number> {
  const [row] = await ch.query<{ rows: string }>(
    QUERY_NAME,
    `SELECT (SELECT count() FROM events WHERE store_id = {store_id:UInt64})
          + (SELECT count() FROM ads WHERE store_id = {store_id:UInt64}) AS rows`,
    { store_id: workspaceId },
  );
  return Number(row?.rows ?? 0);
}
