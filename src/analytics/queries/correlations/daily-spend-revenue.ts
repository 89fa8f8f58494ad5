import type { Clickhouse } from '../../../store/clickhouse.ts';
import { rangeDays } from '../../../kit/range.ts';
import { LOCAL_DATE } from '../../sql.ts';
import { attributedConversions } from '../conversions/conversion-scope.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'daily-spend-revenue';

export interface DailyChannelRow {
  channel: string;
  day: string;
  spend_cents: number;
  revenue_cents: number;
}

/**
 * Per channel and day: ad spend (ads rows, newest import) and the revenue of conversions whose
 * session landed from that channel. Meta family members report under their own channel names.
 */
export async function dailySpendRevenue(ch: Clickhouse, scope: QueryScope): Promise<DailyChannelRow[]> {
  const conversions = attributedConversions(scope);
  const sql = `
SELECT channel, toString(day) AS day, toInt64(sum(spend)) AS spend_cents, toInt64(sum(revenue)) AS revenue_cents
FROM (
  SELECT source AS channel, dt AS day, spend, 0 AS revenue
  FROM ads FINAL
  WHERE store_id = {store_id:UInt64} AND dt BETWEEN {day_start:Date} AND {day_end:Date}
    AND ({all_channels:Bool} OR source IN {channels_or_none:Array(String)})
  UNION ALL
  SELECT l_adv_source AS channel, ${LOCAL_DATE('dt')} AS day, 0 AS spend, transaction_gross_revenue AS revenue
  FROM ${conversions.sql}
  WHERE l_adv_source NOT IN ('', 'organic')
)
GROUP BY channel, day
ORDER BY channel, day
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<DailyChannelRow>(QUERY_NAME, sql, {
    ...conversions.params,
    ...rangeDays(scope.range),
    tz: scope.range.timeZone,
    all_channels: scope.channels === null,
    channels_or_none: scope.channels ?? [],
  });
}
