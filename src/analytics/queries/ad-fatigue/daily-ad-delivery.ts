import type { Clickhouse } from '../../../store/clickhouse.ts';
import { rangeDays } from '../../../kit/calendar/range.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'daily-ad-delivery';

export interface AdDayRow {
  source: string;
  ad_id: string;
  ad_name: string;
  campaign_name: string;
  day: string;
  spend_cents: number;
  impressions: number;
  clicks: number;
  reach: number;
}

/** One row per ad and day (newest import wins), ordered by ad then day. */
export async function dailyAdDelivery(ch: Clickhouse, scope: QueryScope): Promise<AdDayRow[]> {
  const sql = `
SELECT source, ad_id, ad_name, campaign_name, toString(dt) AS day, spend AS spend_cents, impressions, clicks, reach
FROM ads FINAL
WHERE store_id = {store_id:UInt64} AND dt BETWEEN {day_start:Date} AND {day_end:Date}
  AND ({all_channels:Bool} OR source IN {channels:Array(String)})
ORDER BY source, ad_id, dt
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<AdDayRow>(QUERY_NAME, sql, {
    store_id: scope.workspaceId,
    ...rangeDays(scope.range),
    all_channels: scope.channels === null,
    channels: scope.channels ?? [],
  });
}
