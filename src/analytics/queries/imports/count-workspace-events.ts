import type { Clickhouse } from '../../../store/clickhouse.ts';

export const QUERY_NAME = 'count-workspace-events';

/** How many events a workspace holds (the demo fills only an empty workspace). */
export async function countWorkspaceEvents(ch: Clickhouse, storeId: number): Promise<number> {
  const [row] = await ch.query<{ events: string }>(
    QUERY_NAME,
    'SELECT count() AS events FROM events WHERE store_id = {store_id:UInt64}',
    { store_id: storeId },
  );
  return Number(row?.events ?? 0);
}
