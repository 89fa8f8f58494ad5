import type { QueryParams } from '../../../store/clickhouse.ts';
import { DAY_MS } from '../../../kit/calendar/days.ts';
import { Conditions, timestampParam } from '../../sql.ts';
import type { QueryScope } from '../../query-scope.ts';
import { SESSIONS_FINAL, landingColumns, landingField, sessionsStartedIn, type LandingColumn } from '../sessions/session-sql.ts';

/**
 * A subquery of the sessions that started in the scope's range, one row each: `session_id`,
 * `s_start`, `s_<landing column>` and the funnel counters `s_add_to_carts` and `s_checkouts`.
 * Sessions are restricted to the scope's channels (raw adv_source values) unless null. The params
 * also bind `read_end`, one day past the range, for reading the conversions made in these sessions.
 */
export function sessionsInRange(scope: QueryScope, columns: readonly LandingColumn[]): { sql: string; params: QueryParams } {
  const where = new Conditions()
    .add(...sessionsStartedIn(scope))
    .addIf(scope.channels, `${landingField('adv_source')} IN {channels:Array(String)}`, (v) => ({ channels: v }));
  const sql = `(
  SELECT session_id, started AS s_start, ${landingColumns('s_', columns.includes('adv_source') ? columns : ['adv_source', ...columns])},
    add_to_carts AS s_add_to_carts, initiated_checkouts AS s_checkouts
  FROM ${SESSIONS_FINAL}
  WHERE ${where.sql()}
)`;
  return { sql, params: { ...where.params, read_end: timestampParam(scope.range.endMs + DAY_MS) } };
}
