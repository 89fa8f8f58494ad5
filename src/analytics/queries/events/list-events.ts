import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { Page } from '../../../kit/paging.ts';
import { Conditions, TIMESTAMP_OUT, addNameFilter, paged, timestampParam, type Statement } from '../../sql.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'list-events';

/** Filters of an events read, beside the scope. */
export interface EventFilters {
  name?: string;
  sessionId?: bigint;
  visitorId?: bigint;
}

export interface ListEventsParams extends EventFilters {
  page: Page;
}

/** An event as it goes on the wire: integers as strings (docs/api.md, "Wire types"). */
export interface EventRow {
  store_id: string;
  dt: string;
  name: string;
  session_id: string;
  visitor_id: string;
  visitor_timezone: string;
  adv_source: string;
  adv_campaign_id: string;
  adv_adgroup_id: string;
  adv_ad_id: string;
  adv_asset_group_id: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_content: string;
  utm_term: string;
  device_type: string;
  country_code: string;
  hostname: string;
  pathname: string;
  referrer: string;
  entry_meta_keys: string[];
  entry_meta_values: string[];
}

function eventConditions(scope: QueryScope, params: EventFilters): Conditions {
  const where = new Conditions()
    .add('store_id = {store_id:UInt64}', { store_id: scope.workspaceId })
    .add(`dt BETWEEN {start:DateTime64(3, 'UTC')} AND {end:DateTime64(3, 'UTC')}`, {
      start: timestampParam(scope.range.startMs),
      end: timestampParam(scope.range.endMs),
    })
    .addIf(params.sessionId, 'session_id = {session_id:UInt64}', (v) => ({ session_id: v }))
    .addIf(params.visitorId, 'visitor_id = {visitor_id:UInt64}', (v) => ({ visitor_id: v }))
    .addIf(scope.channels, 'adv_source IN {channels:Array(String)}', (v) => ({ channels: v }));
  addNameFilter(where, 'name', params.name);
  return where;
}

/** Every event in scope as wire rows, by time then id. */
export function eventsStatement(scope: QueryScope, filters: EventFilters): Statement {
  const where = eventConditions(scope, filters);
  const sql = `
SELECT
  toString(store_id) AS store_id, ${TIMESTAMP_OUT('dt')} AS dt, name,
  toString(session_id) AS session_id, toString(visitor_id) AS visitor_id, visitor_timezone,
  adv_source, adv_campaign_id, adv_adgroup_id, adv_ad_id, adv_asset_group_id,
  utm_source, utm_medium, utm_campaign, utm_content, utm_term,
  device_type, country_code, hostname, pathname, referrer, entry_meta_keys, entry_meta_values
FROM events
WHERE ${where.sql()}
ORDER BY events.dt, events.session_id, events.visitor_id, events.name, events.pathname`;
  return { sql, params: where.params };
}

/** Returns up to `limit + 1` rows so the caller can tell whether another page exists. */
export async function listEvents(ch: Clickhouse, scope: QueryScope, params: ListEventsParams): Promise<EventRow[]> {
  const { sql, params: values } = paged(eventsStatement(scope, params), params.page);
  return ch.query<EventRow>(QUERY_NAME, sql, values);
}
