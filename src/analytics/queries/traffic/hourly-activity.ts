import type { Clickhouse } from '../../../store/clickhouse.ts';
import { saleConversions } from '../conversions/conversion-scope.ts';
import { sessionsInRange } from '../tool-common/sessions-in-range.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'hourly-activity';

export interface HourlyRow {
  hour: number;
  sessions: number;
  conversions: number;
  revenue_cents: number;
}

/**
 * Sessions (by start) and conversions of the counted `names` (conversion-names.ts) per hour of the
 * day, 0 to 23, in the range's time zone.
 */
export async function hourlyActivity(ch: Clickhouse, scope: QueryScope, names: readonly string[]): Promise<HourlyRow[]> {
  const sessions = sessionsInRange(scope, []);
  const conversions = saleConversions(scope, { counted: names });
  const sql = `
SELECT toUInt8(h) AS hour, toUInt64(sum(s)) AS sessions, toUInt64(sum(c)) AS conversions, toInt64(sum(r)) AS revenue_cents
FROM (
  SELECT toHour(s_start, {tz:String}) AS h, 1 AS s, 0 AS c, 0 AS r FROM ${sessions.sql}
  UNION ALL
  SELECT toHour(dt, {tz:String}) AS h, 0 AS s, 1 AS c, transaction_gross_revenue AS r FROM ${conversions.sql}
)
GROUP BY h
ORDER BY h
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<HourlyRow>(QUERY_NAME, sql, { ...sessions.params, ...conversions.params, tz: scope.range.timeZone });
}
