import type { Clickhouse } from '../../../store/clickhouse.ts';
import { rangeDays } from '../../../kit/calendar/range.ts';
import { LOCAL_DATE } from '../../sql.ts';
import { saleConversions } from '../conversions/conversion-scope.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'weather-sales';

export interface WeatherDayRow {
  day: string;
  country_code: string;
  city: string;
  temperature_c: number;
  precipitation_mm: number;
  condition: string;
  conversions: number;
  revenue_cents: number;
}

/**
 * Each stored weather observation (newest import per workspace, day and place) with the conversions
 * of the counted `names` of that day placed from that place: the order's country, and its city
 * when the observation names one.
 */
export async function weatherSales(
  ch: Clickhouse,
  scope: QueryScope,
  p: { countryCode?: string; city?: string; names: readonly string[] },
): Promise<WeatherDayRow[]> {
  const conversions = saleConversions(scope, { counted: p.names });
  const sql = `
SELECT toString(w.dt) AS day, w.country_code AS country_code, w.city AS city, w.temperature_c AS temperature_c,
  w.precipitation_mm AS precipitation_mm, w.condition AS condition,
  toUInt64(countIf(c.c_day = w.dt)) AS conversions, toInt64(sumIf(c.rev, c.c_day = w.dt)) AS revenue_cents
FROM (
  SELECT dt, country_code, city, temperature_c, precipitation_mm, condition
  FROM weather_daily FINAL
  WHERE store_id = {store_id:UInt64} AND dt BETWEEN {day_start:Date} AND {day_end:Date}
    AND ({any_country:Bool} OR country_code = {country:String})
    AND ({any_city:Bool} OR city = {city:String})
) AS w
LEFT JOIN (
  SELECT ${LOCAL_DATE('dt')} AS c_day, transaction_country_code AS c_country, transaction_city AS c_city,
    transaction_gross_revenue AS rev
  FROM ${conversions.sql}
) AS c ON c.c_country = w.country_code AND (w.city = '' OR c.c_city = w.city) AND c.c_day = w.dt
GROUP BY w.dt, w.country_code, w.city, w.temperature_c, w.precipitation_mm, w.condition
ORDER BY w.dt, w.country_code, w.city
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<WeatherDayRow>(QUERY_NAME, sql, {
    ...conversions.params,
    ...rangeDays(scope.range),
    tz: scope.range.timeZone,
    any_country: p.countryCode === undefined,
    country: p.countryCode ?? '',
    any_city: p.city === undefined,
    city: p.city ?? '',
  });
}
