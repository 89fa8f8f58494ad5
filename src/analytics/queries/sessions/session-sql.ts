import type { QueryParams } from '../../../store/clickhouse.ts';
import { timestampParam } from '../../sql.ts';
import type { QueryScope } from '../../query-scope.ts';

/**
 * Sessions are kept at ingest time in the `sessions` table (analytics migrations 0003, 0004): a
 * materialized view folds every block inserted into `events` into partial session rows, and
 * readers use `FROM sessions FINAL` to get exactly one row per session, covering all of its
 * events however late or out of order they arrived. A session that runs past midnight at the end
 * of a UTC month is two sessions, one per month (each month is folded on its own).
 *
 * Columns: store_id, month, session_id, started, ended, events, one counter per SESSION_COUNTERS
 * entry, customer_id (the largest seen in the session), the first event's LANDING_COLUMNS in three
 * named tuples (`landing`: visitor and ad fields; `landing_utm`: UTM fields, referrer, landing
 * page; `landing_context`: device, place, entry metadata; FINAL reads a tuple whole, so a reader
 * pays only for the tuples it touches) and `exit_page` (`dt`, `pathname` of the last event).
 * Conditions on the key (store_id, session_id) may go in PREWHERE, which runs before FINAL and
 * spares merging rows no one asked for; conditions on anything else (`started`) belong in WHERE,
 * applied after FINAL: a partial row's start is not the session's.
 * FINAL costs little on a partition of one part and about twice as much on a few (collector flushes
 * make one each): analytics migration 0011 has the engine merge parts older than ten minutes
 * (docs/performance.md, "Report on data as the collector inserts it").
 * Read tuple fields with landingField/tupleElement, never as `landing.field`: ClickHouse reads a
 * dotted subcolumn on its own, and FINAL then folds that field alone (the smallest field value
 * instead of the field of the smallest tuple).
 */
export const SESSIONS_FINAL = 'sessions FINAL';

/**
 * Conditions for one workspace's sessions that started between two bound DateTime64 expressions
 * (e.g. `{start:DateTime64(3, 'UTC')}`). The `month` condition lets ClickHouse skip other months
 * before FINAL; the one on `started` applies after it, to whole sessions.
 */
export function sessionsStartedSql(start: string, end: string): string {
  return `store_id = {store_id:UInt64} AND month BETWEEN toStartOfMonth(${start}) AND toStartOfMonth(${end})
    AND started BETWEEN ${start} AND ${end}`;
}

/** sessionsStartedSql over the scope's range, bound as `start` and `end`, with the workspace as `store_id`. */
export function sessionsStartedIn(scope: Pick<QueryScope, 'workspaceId' | 'range'>): [string, QueryParams] {
  return [
    sessionsStartedSql("{start:DateTime64(3, 'UTC')}", "{end:DateTime64(3, 'UTC')}"),
    { store_id: scope.workspaceId, start: timestampParam(scope.range.startMs), end: timestampParam(scope.range.endMs) },
  ];
}

/** Attributes a session takes from its first event (its landing): fields of `landing`. */
export const LANDING_COLUMNS = [
  'visitor_id',
  'adv_source',
  'adv_campaign_id',
  'adv_adgroup_id',
  'adv_ad_id',
  'adv_asset_group_id',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'device_type',
  'country_code',
  'referrer',
  'pathname',
  'hostname',
  'entry_meta_keys',
  'entry_meta_values',
] as const;

export type LandingColumn = (typeof LANDING_COLUMNS)[number];

/**
 * Every landing field a query may read: the row fields above, and the visitor's city (migration
 * 0013), which the report's city breakdown reads and no /v3/sessions row carries.
 */
export type LandingField = LandingColumn | 'city';

/** Event name -> session counter (docs/api.md, "GET /v3/sessions"); each is a column of `sessions`. */
export const SESSION_COUNTERS = [
  ['pageview', 'pageviews'],
  ['add_to_cart', 'add_to_carts'],
  ['initiate_checkout', 'initiated_checkouts'],
  ['view_content', 'view_contents'],
  ['contact', 'contacts'],
  ['newsletter_signup', 'newsletter_signups'],
  ['complete_registration', 'completed_registrations'],
  ['app_install', 'app_installs'],
  ['add_payment_info', 'add_payment_infos'],
] as const;

export type SessionCounter = (typeof SESSION_COUNTERS)[number][1];

/** The tuple column holding each landing field that is not in `landing` (migrations 0004, 0013). */
const LANDING_TUPLES: Partial<Record<LandingField, string>> = {
  utm_source: 'landing_utm',
  utm_medium: 'landing_utm',
  utm_campaign: 'landing_utm',
  utm_content: 'landing_utm',
  utm_term: 'landing_utm',
  referrer: 'landing_utm',
  pathname: 'landing_utm',
  adv_asset_group_id: 'landing_context',
  device_type: 'landing_context',
  country_code: 'landing_context',
  hostname: 'landing_context',
  entry_meta_keys: 'landing_context',
  entry_meta_values: 'landing_context',
  city: 'landing_context',
};

/** A landing field of the session, from the tuple that holds it. */
export function landingField(column: LandingField): string {
  return `tupleElement(${LANDING_TUPLES[column] ?? 'landing'}, '${column}')`;
}

/** Landing fields as `<prefix><column>` columns of a SELECT over `sessions`. */
export function landingColumns(prefix: string, columns: readonly LandingField[] = LANDING_COLUMNS): string {
  return columns.map((c) => `${landingField(c)} AS ${prefix}${c}`).join(', ');
}
