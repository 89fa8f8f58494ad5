import type { QueryParams } from '../../../store/clickhouse.ts';
import type { Range } from '../../../http/paging.ts';
import { Conditions, timestampParam } from '../../sql.ts';
import { READ_WINDOW_SQL, landingAggregates, sessionReadWindow, type LandingColumn } from '../sessions/session-sql.ts';

/**
 * A subquery of the sessions that started in `range`, one row each: `session_id`, `s_start`,
 * `s_<landing column>` and the funnel counters `s_add_to_carts` and `s_checkouts`. Sessions are
 * restricted to `channels` (raw adv_source values) unless null.
 */
export function sessionsInRange(
  input: { storeId: number; range: Range; channels: string[] | null },
  columns: readonly LandingColumn[],
): { sql: string; params: QueryParams } {
  const having = new Conditions()
    .add(`s_start BETWEEN {start:DateTime64(3, 'UTC')} AND {end:DateTime64(3, 'UTC')}`, {
      start: timestampParam(input.range.startMs),
      end: timestampParam(input.range.endMs),
    })
    .addIf(input.channels, 's_adv_source IN {channels:Array(String)}', (v) => ({ channels: v }));
  const landing = columns.includes('adv_source') ? columns : (['adv_source', ...columns] as LandingColumn[]);
  const sql = `(
  SELECT session_id, min(dt) AS s_start,
    ${landingAggregates('s_', landing)},
    countIf(name = 'add_to_cart') AS s_add_to_carts,
    countIf(name = 'initiate_checkout') AS s_checkouts
  FROM events
  WHERE store_id = {store_id:UInt64} AND ${READ_WINDOW_SQL}
  GROUP BY session_id
  HAVING ${having.sql()}
)`;
  return { sql, params: { store_id: input.storeId, ...sessionReadWindow(input.range), ...having.params } };
}
