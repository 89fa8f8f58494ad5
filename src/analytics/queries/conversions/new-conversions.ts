import type { Clickhouse } from '../../../store/clickhouse.ts';
import { soldSql } from '../../sales.ts';
import { Conditions, timestampParam } from '../../sql.ts';
import { addCountedNames } from '../../conversion-names.ts';

export const QUERY_NAME = 'new-conversions';

export interface NewConversions {
  conversions: number;
  revenue_cents: number;
  /** The newest conversion's time in ms, null when there is none. */
  newest_ms: number | null;
}

/**
 * The workspace's sale conversions of the counted `names` (conversion-names.ts) timed after
 * `afterMs` and up to `untilMs`: how many, their revenue and the newest one's time (the next
 * evaluation starts after it).
 */
export async function newConversions(ch: Clickhouse, workspaceId: number, afterMs: number, untilMs: number, names: readonly string[]): Promise<NewConversions> {
  const where = new Conditions()
    .add('store_id = {store_id:UInt64}', { store_id: workspaceId })
    .add(`dt > {after:DateTime64(3, 'UTC')} AND dt <= {until:DateTime64(3, 'UTC')}`, { after: timestampParam(afterMs), until: timestampParam(untilMs) })
    .add(soldSql('transaction_id'));
  addCountedNames(where, 'name', names);
  const sql = `
SELECT count() AS conversions, sum(transaction_gross_revenue) AS revenue_cents,
  if(count() = 0, NULL, toUnixTimestamp64Milli(max(dt))) AS newest_ms
FROM conversions
WHERE ${where.sql()}
SETTINGS output_format_json_quote_64bit_integers = 0`;
  const [row] = await ch.query<{ conversions: number; revenue_cents: number; newest_ms: number | null }>(QUERY_NAME, sql, where.params);
  return {
    conversions: Number(row?.conversions ?? 0),
    revenue_cents: Number(row?.revenue_cents ?? 0),
    newest_ms: row?.newest_ms === null || row?.newest_ms === undefined ? null : Number(row.newest_ms),
  };
}
