import type { QueryParams } from '../../../store/clickhouse.ts';
import type { Range } from '../../../http/paging.ts';
import { DAY_MS } from '../../../http/dates.ts';
import { timestampParam } from '../../sql.ts';

/**
 * Sessions are derived from events at query time: no sessions table, so a session that is still
 * going on, or whose events arrived late or out of order, is always up to date.
 *
 * To keep a query to a small slice of the (store_id, dt) sorted table, events are read only in
 * [range start - 1 day, range end + 1 day]. The pixel ends a session after 30 minutes idle, so a
 * session never spans that margin in practice; an imported session longer than a day is cut at
 * the margin (its later events are not counted, its earlier ones do not move its start).
 */
export const SESSION_MARGIN_MS = DAY_MS;

export function sessionReadWindow(range: Range): QueryParams {
  return {
    read_start: timestampParam(range.startMs - SESSION_MARGIN_MS),
    read_end: timestampParam(range.endMs + SESSION_MARGIN_MS),
  };
}

export const READ_WINDOW_SQL = `dt BETWEEN {read_start:DateTime64(3, 'UTC')} AND {read_end:DateTime64(3, 'UTC')}`;

/** Attributes a session takes from its first event (its landing). */
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
 * Aggregate expressions over a session's events giving each landing column as `<prefix><column>`
 * (the prefix keeps aliases apart from the table's columns).
 */
export function landingAggregates(prefix: string, columns: readonly LandingColumn[] = LANDING_COLUMNS): string {
  return columns.map((c) => `argMin(${c}, dt) AS ${prefix}${c}`).join(',\n    ');
}

/** Event name -> session counter (decisions.md section 3). */
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
