import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { Page } from '../../../kit/paging.ts';
import { Conditions, TIMESTAMP_OUT, paged, type Statement } from '../../sql.ts';
import type { QueryScope } from '../../query-scope.ts';
import type { EventRow } from '../events/list-events.ts';
import {
  LANDING_COLUMNS,
  SESSIONS_FINAL,
  SESSION_COUNTERS,
  landingColumns,
  landingField,
  sessionsStartedIn,
  type LandingColumn,
  type SessionCounter,
} from './session-sql.ts';

export const QUERY_NAME = 'list-sessions';

/** Filters of a sessions read, beside the scope. */
export interface SessionFilters {
  sessionId?: bigint;
  visitorId?: bigint;
}

export interface ListSessionsParams extends SessionFilters {
  page: Page;
}

/** A session as it goes on the wire: integers as strings (docs/api.md, "Wire types"). */
export type SessionRow = {
  store_id: string;
  visitor_id: string;
  session_id: string;
  session_start_dt: string;
  session_end_dt: string;
  session_duration_seconds: string;
  is_bounce: string;
  session_entry_page: string;
  session_exit_page: string;
  events: string;
} & Record<SessionCounter, string> & Pick<EventRow, Exclude<LandingColumn, 'visitor_id'>>;

const COUNTERS_OUT = SESSION_COUNTERS.map(([, c]) => `toString(${c}) AS ${c}`).join(', ');
const LANDING_OUT = landingColumns('', LANDING_COLUMNS.filter((c) => c !== 'visitor_id'));

/**
 * Every session whose first event lies in the scope's range and whose landing carries one of its
 * channels, as wire rows ordered by start then id.
 */
export function sessionsStatement(scope: QueryScope, filters: SessionFilters): Statement {
  const where = new Conditions()
    .add(...sessionsStartedIn(scope))
    .addIf(filters.sessionId, 'session_id = {session_id:UInt64}', (v) => ({ session_id: v }))
    .addIf(filters.visitorId, `${landingField('visitor_id')} = {visitor_id:UInt64}`, (v) => ({ visitor_id: v }))
    .addIf(scope.channels, `${landingField('adv_source')} IN {channels:Array(String)}`, (v) => ({ channels: v }));
  const sql = `
SELECT
  toString(store_id) AS store_id, toString(${landingField('visitor_id')}) AS visitor_id, toString(session_id) AS session_id,
  ${TIMESTAMP_OUT('started')} AS session_start_dt, ${TIMESTAMP_OUT('ended')} AS session_end_dt,
  toString(dateDiff('second', toDateTime(started, 'UTC'), toDateTime(ended, 'UTC'))) AS session_duration_seconds,
  toString(toUInt8(events = 1 AND pageviews = 1)) AS is_bounce,
  ${landingField('pathname')} AS session_entry_page, tupleElement(exit_page, 'pathname') AS session_exit_page,
  toString(events) AS events, ${COUNTERS_OUT},
  ${LANDING_OUT}
FROM ${SESSIONS_FINAL}
WHERE ${where.sql()}
ORDER BY started, session_id`;
  return { sql, params: where.params };
}

/** Returns up to `limit + 1` sessions of `sessionsStatement`. */
export async function listSessions(ch: Clickhouse, scope: QueryScope, params: ListSessionsParams): Promise<SessionRow[]> {
  const { sql, params: values } = paged(sessionsStatement(scope, params), params.page);
  return ch.query<SessionRow>(QUERY_NAME, sql, values);
}
