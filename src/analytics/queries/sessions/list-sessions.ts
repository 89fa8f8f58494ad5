import type { Clickhouse, QueryParams } from '../../../store/clickhouse.ts';
import type { Page, Range } from '../../../http/paging.ts';
import { Conditions, TIMESTAMP_OUT, timestampParam } from '../../sql.ts';
import type { EventRow } from '../events/list-events.ts';
import {
  LANDING_COLUMNS,
  READ_WINDOW_SQL,
  SESSION_COUNTERS,
  landingAggregates,
  sessionReadWindow,
  type LandingColumn,
  type SessionCounter,
} from './session-sql.ts';

export const QUERY_NAME = 'list-sessions';

export interface ListSessionsParams {
  storeId: number;
  /** Sessions whose first event lies in this range. */
  range: Range;
  page: Page;
  sessionId?: bigint;
  visitorId?: bigint;
  /** Raw adv_source values the session's landing must carry; null means no restriction. */
  channels: string[] | null;
}

/** A session as it goes on the wire: integers as strings (decisions.md section 3). */
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

const counterParams: QueryParams = Object.fromEntries(SESSION_COUNTERS.map(([event, counter]) => [`ev_${counter}`, event]));
const COUNTERS_SQL = SESSION_COUNTERS.map(([, c]) => `countIf(name = {ev_${c}:String}) AS s_${c}`).join(',\n    ');
const COUNTERS_OUT = SESSION_COUNTERS.map(([, c]) => `toString(s_${c}) AS ${c}`).join(', ');
const LANDING_OUT = LANDING_COLUMNS.filter((c) => c !== 'visitor_id')
  .map((c) => `l_${c} AS ${c}`)
  .join(', ');

/**
 * Returns up to `limit + 1` sessions, ordered by start then id. The page is chosen first from the
 * cheap per-session start (and landing channel when filtered); only the sessions on it get the full
 * set of aggregates.
 */
export async function listSessions(ch: Clickhouse, params: ListSessionsParams): Promise<SessionRow[]> {
  const read = new Conditions()
    .add('store_id = {store_id:UInt64}', { store_id: params.storeId })
    .add(READ_WINDOW_SQL, sessionReadWindow(params.range))
    .addIf(params.sessionId, 'session_id = {session_id:UInt64}', (v) => ({ session_id: v }))
    .addIf(params.visitorId, 'visitor_id = {visitor_id:UInt64}', (v) => ({ visitor_id: v }));
  const keep = new Conditions()
    .add(`p_start BETWEEN {start:DateTime64(3, 'UTC')} AND {end:DateTime64(3, 'UTC')}`, {
      start: timestampParam(params.range.startMs),
      end: timestampParam(params.range.endMs),
    })
    .addIf(params.channels, 'argMin(adv_source, dt) IN {channels:Array(String)}', (v) => ({ channels: v }));
  const sql = `
SELECT
  toString(store_id) AS store_id, toString(l_visitor_id) AS visitor_id, toString(session_id) AS session_id,
  ${TIMESTAMP_OUT('s_start')} AS session_start_dt, ${TIMESTAMP_OUT('s_end')} AS session_end_dt,
  toString(dateDiff('second', toDateTime(s_start, 'UTC'), toDateTime(s_end, 'UTC'))) AS session_duration_seconds,
  toString(toUInt8(s_events = 1 AND s_pageviews = 1)) AS is_bounce,
  l_pathname AS session_entry_page, s_exit_page AS session_exit_page,
  toString(s_events) AS events, ${COUNTERS_OUT},
  ${LANDING_OUT}
FROM (
  SELECT
    store_id, session_id, min(dt) AS s_start, max(dt) AS s_end, count() AS s_events,
    argMax(pathname, dt) AS s_exit_page,
    ${COUNTERS_SQL},
    ${landingAggregates('l_')}
  FROM events
  WHERE ${read.sql()}
    AND session_id IN (
      SELECT session_id FROM (
        SELECT session_id, min(dt) AS p_start
        FROM events
        WHERE ${read.sql()}
        GROUP BY session_id
        HAVING ${keep.sql()}
        ORDER BY p_start, session_id
        LIMIT {limit:UInt32} OFFSET {offset:UInt64}
      )
    )
  GROUP BY store_id, session_id
)
ORDER BY s_start, session_id`;
  return ch.query<SessionRow>(QUERY_NAME, sql, {
    ...read.params,
    ...keep.params,
    ...counterParams,
    limit: params.page.limit + 1,
    offset: params.page.offset,
  });
}
