import type { Clickhouse } from '../../store/clickhouse.ts';

export const QUERY_NAME = 'find-stored-transactions';

export interface StoredTransaction {
  store_id: string;
  name: string;
  transaction_id: string;
}

/** Which of these (workspace, transaction id) pairs already have a conversion stored. */
export async function findStoredTransactions(
  ch: Clickhouse,
  params: { workspaceIds: number[]; transactionIds: string[] },
): Promise<StoredTransaction[]> {
  if (params.transactionIds.length === 0) return [];
  const sql = `
SELECT DISTINCT toString(store_id) AS store_id, name, transaction_id
FROM conversions
WHERE store_id IN {store_ids:Array(UInt64)} AND transaction_id IN {transaction_ids:Array(String)}`;
  // Urgent: the collector's inserts wait on this short lookup, which must not queue behind reports.
  return ch.query<StoredTransaction>(QUERY_NAME, sql, {
    store_ids: params.workspaceIds,
    transaction_ids: params.transactionIds,
  }, { urgent: true });
}
