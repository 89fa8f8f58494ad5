import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { Page } from '../../../kit/paging.ts';
import type { QueryScope } from '../../query-scope.ts';
import { TIMESTAMP_OUT, paged, type Statement } from '../../sql.ts';
import { CHANNEL_COLUMNS, CHANNEL_OUT, attributedConversions, saleConversions, type ConversionFilters } from './conversion-scope.ts';

export const QUERY_NAME = 'list-conversions';

export interface ListConversionsParams extends ConversionFilters {
  page: Page;
  /** Newest first (the dashboard's list); the data API's order is oldest first. */
  newestFirst?: boolean;
  /** Only conversions that count as sales (`saleConversions`); the data API lists every one. */
  salesOnly?: boolean;
}

/** A conversion as it goes on the wire: integers as strings (docs/api.md, "Wire types"). */
export interface ConversionRow {
  store_id: string;
  dt: string;
  name: string;
  session_id: string;
  visitor_id: string;
  customer_id: string;
  transaction_id: string;
  is_new_customer: string;
  transaction_gross_revenue: string;
  transaction_currency: string;
  transaction_country_code: string;
  transaction_city: string;
  hostname: string;
  adv_source: string;
  adv_campaign_id: string;
  adv_adgroup_id: string;
  adv_ad_id: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_content: string;
  utm_term: string;
}

const CHANNEL_FIELDS = CHANNEL_COLUMNS.map((c) => (c === 'adv_source' ? `${CHANNEL_OUT} AS adv_source` : `l_${c} AS ${c}`));

/**
 * Every conversion in scope as wire rows, ordered by dt, then session and transaction (stable
 * paging): oldest first as the data API lists them, or all of it reversed with `newestFirst`.
 */
export function conversionsStatement(scope: QueryScope, filters: ConversionFilters, newestFirst = false, salesOnly = false): Statement {
  const conversions = (salesOnly ? saleConversions : attributedConversions)(scope, filters);
  const order = ['dt', 'session_id', 'transaction_id', 'name', 'visitor_id'].map((c) => (newestFirst ? `${c} DESC` : c)).join(', ');
  const sql = `
SELECT
  toString(store_id) AS store_id, ${TIMESTAMP_OUT('dt')} AS dt, name,
  toString(session_id) AS session_id, toString(visitor_id) AS visitor_id, customer_id, transaction_id,
  toString(is_new_customer) AS is_new_customer, toString(transaction_gross_revenue) AS transaction_gross_revenue,
  transaction_currency, transaction_country_code, transaction_city, hostname,
  ${CHANNEL_FIELDS.join(', ')}
FROM ${conversions.sql}
ORDER BY ${order}`;
  return { sql, params: conversions.params };
}

/** Returns up to `limit + 1` conversions of `conversionsStatement`. */
export async function listConversions(ch: Clickhouse, scope: QueryScope, params: ListConversionsParams): Promise<ConversionRow[]> {
  const { sql, params: values } = paged(conversionsStatement(scope, params, params.newestFirst, params.salesOnly), params.page);
  return ch.query<ConversionRow>(QUERY_NAME, sql, values);
}
