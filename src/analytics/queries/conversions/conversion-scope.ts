import type { QueryParams } from '../../../store/clickhouse.ts';
import { Conditions, addNameFilter, timestampParam } from '../../sql.ts';
import { soldSql } from '../../sales.ts';
import { addCountedNames } from '../../conversion-names.ts';
import type { QueryScope } from '../../query-scope.ts';
import { SESSIONS_FINAL, landingColumns, type LandingColumn } from '../sessions/session-sql.ts';

/** Filters shared by conversion rows and grouped conversions, beside the scope. */
export interface ConversionFilters {
  name?: string;
  /** Only these names, `*` matching any run of characters (conversion-names.ts); default every name. */
  counted?: readonly string[];
  transactionId?: string;
  customerId?: string;
  isNewCustomer?: 0 | 1;
  /** Raw channels whose conversions are dropped (exclude_source); default none. */
  excluded?: string[];
}

/** Channel fields a conversion takes from its session's landing. */
export const CHANNEL_COLUMNS = [
  'adv_source',
  'adv_campaign_id',
  'adv_adgroup_id',
  'adv_ad_id',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
] as const satisfies readonly LandingColumn[];

/**
 * The wire channel: untagged sessions, and conversions whose session has no events (the LEFT JOIN
 * then yields ''), are reported as organic.
 */
export const CHANNEL_OUT = `if(l_adv_source IN ('', 'organic'), 'organic', l_adv_source)`;

/**
 * The months a conversion's session is looked up in: from the day before the range to its end. A
 * session that began earlier than that (longer than a day before a conversion in it) is not found
 * and the conversion counts as organic; the pixel ends sessions after 30 idle minutes.
 */
const CONVERSION_SESSION_MONTHS = `month BETWEEN toStartOfMonth({start:DateTime64(3, 'UTC')} - INTERVAL 1 DAY)
      AND toStartOfMonth({end:DateTime64(3, 'UTC')})`;

/**
 * A subquery yielding every conversion in scope with its columns plus `l_<channel column>` from its
 * session's first event. The scope's channels (source filter and key visibility) apply to the raw
 * landing channel, so `organic` (which stands for '' and 'organic') also matches conversions
 * without a session. Every conversion the pixel recorded, as `/v3/conversions` lists them; what
 * counts in a number is `saleConversions`.
 */
export function attributedConversions(scope: QueryScope, filters: ConversionFilters = {}): { sql: string; params: QueryParams } {
  return conversionsSql(scope, filters, false);
}

/**
 * `attributedConversions` without those that name a stored order that is no sale (cancelled,
 * voided, test, pending; src/analytics/sales.ts): what every tool counts as conversions and revenue.
 */
export function saleConversions(scope: QueryScope, filters: ConversionFilters = {}): { sql: string; params: QueryParams } {
  return conversionsSql(scope, filters, true);
}

function conversionsSql(scope: QueryScope, filters: ConversionFilters, salesOnly: boolean): { sql: string; params: QueryParams } {
  const excluded = filters.excluded ?? [];
  const bounds = {
    store_id: scope.workspaceId,
    start: timestampParam(scope.range.startMs),
    end: timestampParam(scope.range.endMs),
  };
  const inRange = `store_id = {store_id:UInt64} AND dt BETWEEN {start:DateTime64(3, 'UTC')} AND {end:DateTime64(3, 'UTC')}`;
  const own = new Conditions()
    .add(inRange, bounds)
    .addIf(filters.transactionId, 'transaction_id = {transaction_id:String}', (v) => ({ transaction_id: v }))
    .addIf(filters.customerId, 'customer_id = {customer_id:String}', (v) => ({ customer_id: v }))
    .addIf(filters.isNewCustomer, 'is_new_customer = {is_new_customer:UInt8}', (v) => ({ is_new_customer: v }));
  if (salesOnly) own.add(soldSql('transaction_id'));
  addNameFilter(own, 'name', filters.name);
  if (filters.counted) addCountedNames(own, 'name', filters.counted);
  const channel = new Conditions()
    .addIf(scope.channels, 'l_adv_source IN {channels:Array(String)}', (v) => ({ channels: v }))
    .addIf(excluded.length ? excluded : null, 'l_adv_source NOT IN {excluded:Array(String)}', (v) => ({
      excluded: v,
    }));
  const sql = `(
  SELECT c.*, ${CHANNEL_COLUMNS.map((col) => `l.l_${col} AS l_${col}`).join(', ')}
  FROM (SELECT * FROM conversions WHERE ${own.sql()}) AS c
  LEFT JOIN (
    SELECT session_id AS l_session_id, ${landingColumns('l_', CHANNEL_COLUMNS)}
    FROM ${SESSIONS_FINAL}
    PREWHERE store_id = {store_id:UInt64} AND ${CONVERSION_SESSION_MONTHS}
      AND session_id IN (SELECT session_id FROM conversions WHERE ${inRange})
    ORDER BY session_id, started
    LIMIT 1 BY session_id
  ) AS l ON c.session_id = l.l_session_id
  WHERE ${channel.sql()}
)`;
  return { sql, params: { ...own.params, ...channel.params } };
}
