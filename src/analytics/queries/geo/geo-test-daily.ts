import type { Clickhouse } from '../../../store/clickhouse.ts';
import { saleConversions } from '../conversions/conversion-scope.ts';
import type { QueryScope } from '../../query-scope.ts';
import { LOCAL_DATE } from '../../sql.ts';

export const QUERY_NAME = 'geo-test-daily';

export interface GeoDayRow {
  day: string;
  treatment_cents: number;
  control_cents: number;
}

/**
 * Daily sale revenue of a geo test's treatment and control regions over the scope's range, by the
 * order's place (country code, or city name at the city level) and local day; days without sales
 * are absent.
 */
export async function geoTestDaily(
  ch: Clickhouse,
  scope: QueryScope,
  p: { level: 'country' | 'city'; treatment: string[]; control: string[] },
): Promise<GeoDayRow[]> {
  const conversions = saleConversions(scope);
  const place = p.level === 'city' ? 'transaction_city' : 'transaction_country_code';
  const sql = `
SELECT toString(${LOCAL_DATE('dt')}) AS day,
  toInt64(sumIf(transaction_gross_revenue, ${place} IN {treatment:Array(String)})) AS treatment_cents,
  toInt64(sumIf(transaction_gross_revenue, ${place} IN {control:Array(String)})) AS control_cents
FROM ${conversions.sql}
WHERE ${place} IN {treatment:Array(String)} OR ${place} IN {control:Array(String)}
GROUP BY day
ORDER BY day
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<GeoDayRow>(QUERY_NAME, sql, { ...conversions.params, tz: scope.range.timeZone, treatment: p.treatment, control: p.control });
}
