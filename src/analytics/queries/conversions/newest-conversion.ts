import type { Clickhouse } from '../../../store/clickhouse.ts';
import { soldSql } from '../../sales.ts';
import { timestampParam } from '../../sql.ts';

export const QUERY_NAME = 'newest-conversion';

/** The time (ms) of the workspace's newest sale conversion up to `untilMs`; null when it has none. */
export async function newestConversion(ch: Clickhouse, workspaceId: number, untilMs: number): Promise<number | null> {
  const sql = `
SELECT if(count() = 0, NULL, toUnixTimestamp64Milli(max(dt))) AS newest_ms
FROM conversions
WHERE store_id = {store_id:UInt64} AND dt <= {until:DateTime64(3, 'UTC')} AND ${soldSql('transaction_id')}
SETTINGS output_format_json_quote_64bit_integers = 0`;
  const [row] = await ch.query<{ newest_ms: number | null }>(QUERY_NAME, sql, { store_id: workspaceId, until: timestampParam(untilMs) });
  return row?.newest_ms === null || row?.newest_ms === undefined ? null : Number(row.newest_ms);
}
