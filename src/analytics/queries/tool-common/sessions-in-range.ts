import type { QueryParams } from '../../../store/clickhouse.ts';
import type { Range } from '../../../kit/paging.ts';
import { DAY_MS } from '../../../kit/dates.ts';
import { Conditions, timestampParam } from '../../sql.ts';
import { SESSIONS_FINAL, landingColumns, landingField, sessionsStartedIn, type LandingColumn } from '../sessions/session-sql.ts';

/**
 * A subquery of the sessions that started in `range`, one row each: `session_id`, `s_start`,
 * `s_<landing column>` and the funnel counters `s_add_to_carts` and `s_checkouts`. Sessions are
 * restricted to `channels` (raw adv_source values) unless null. The params also bind `read_end`,
 * one day past the range, for reading the conversions made in these sessions.
 */
export function sessionsInRange(
  input: { storeId: number; range: Range; channels: string[] | null },
  columns: readonly LandingColumn[],
): { sql: string; params: QueryParams } {
  const where = new Conditions()
    .add(...sessionsStartedIn(input.storeId, input.range))
    .addIf(input.channels, `${landingField('adv_source')} IN {channels:Array(String)}`, (v) => ({ channels: v }));
  const sql = `(
  SELECT session_id, started AS s_start, ${landingColumns('s_', columns.includes('adv_source') ? columns : ['adv_source', ...columns])},
    add_to_carts AS s_add_to_carts, initiated_checkouts AS s_checkouts
  FROM ${SESSIONS_FINAL}
  WHERE ${where.sql()}
)`;
  return { sql, params: { ...where.params, read_end: timestampParam(input.range.endMs + DAY_MS) } };
}
