import type { Clickhouse } from '../../../store/clickhouse.ts';
import { saleConversions } from '../conversions/conversion-scope.ts';
import { sessionsInRange } from '../tool-common/sessions-in-range.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'geo-breakdown';

export interface GeoParams {
  level: 'country' | 'city';
  limit: number;
  /** The conversion names counted (conversion-names.ts). */
  names: readonly string[];
}

export interface GeoRow {
  country_code: string;
  city: string;
  sessions: number;
  conversions: number;
  revenue_cents: number;
}

/**
 * Sessions by the landing country, conversions and revenue by the order's country (and city).
 * Cities exist only on conversions, so city rows carry 0 sessions.
 */
export async function geoBreakdown(ch: Clickhouse, scope: QueryScope, p: GeoParams): Promise<GeoRow[]> {
  const sessions = sessionsInRange(scope, ['country_code']);
  const conversions = saleConversions(scope, { counted: p.names });
  const city = p.level === 'city';
  const sql = `
SELECT g_country AS country_code, g_city AS city, toUInt64(sum(s)) AS sessions, toUInt64(sum(c)) AS conversions,
  toInt64(sum(r)) AS revenue_cents
FROM (
  SELECT s_country_code AS g_country, '' AS g_city, 1 AS s, 0 AS c, 0 AS r FROM ${sessions.sql}
  WHERE {city_level:Bool} = false
  UNION ALL
  SELECT transaction_country_code AS g_country, if({city_level:Bool}, transaction_city, '') AS g_city, 0 AS s, 1 AS c,
    transaction_gross_revenue AS r
  FROM ${conversions.sql}
)
GROUP BY g_country, g_city
ORDER BY revenue_cents DESC, sessions DESC, g_country, g_city
LIMIT {limit:UInt32}
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<GeoRow>(QUERY_NAME, sql, { ...sessions.params, ...conversions.params, city_level: city, limit: p.limit });
}
