import type { Clickhouse } from '../../../store/clickhouse.ts';
import { saleConversions } from '../conversions/conversion-scope.ts';
import type { QueryScope } from '../../query-scope.ts';
import { LOCAL_DATE } from '../../sql.ts';

export const QUERY_NAME = 'geo-test-candidates';

export interface GeoCandidateRow {
  country_code: string;
  city: string;
  days_with_orders: number;
  conversions: number;
  revenue_cents: number;
  daily_mean_cents: number;
  daily_stddev_cents: number;
}

/**
 * Per region: daily revenue over every day of the range (days without orders count as 0), so a
 * region's stability can be judged for a holdout test.
 */
export async function geoTestCandidates(
  ch: Clickhouse,
  scope: QueryScope,
  p: { level: 'country' | 'city'; days: number; names: readonly string[] },
): Promise<GeoCandidateRow[]> {
  const conversions = saleConversions(scope, { counted: p.names });
  const sql = `
SELECT country_code, city, toUInt32(count()) AS days_with_orders, toUInt64(sum(day_conversions)) AS conversions,
  toInt64(sum(day_revenue)) AS revenue_cents,
  sum(day_revenue) / {days:UInt32} AS daily_mean_cents,
  sqrt(greatest(0, (sum(day_revenue * day_revenue) / {days:UInt32}) - pow(sum(day_revenue) / {days:UInt32}, 2))) AS daily_stddev_cents
FROM (
  SELECT transaction_country_code AS country_code, if({city_level:Bool}, transaction_city, '') AS city, ${LOCAL_DATE('dt')} AS day,
    count() AS day_conversions, toFloat64(sum(transaction_gross_revenue)) AS day_revenue
  FROM ${conversions.sql}
  WHERE transaction_country_code != ''
  GROUP BY country_code, city, day
)
GROUP BY country_code, city
ORDER BY revenue_cents DESC, country_code, city
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<GeoCandidateRow>(QUERY_NAME, sql, { ...conversions.params, tz: scope.range.timeZone, days: p.days, city_level: p.level === 'city' });
}
