import type { Clickhouse } from '../../../store/clickhouse.ts';
import { timestampParam } from '../../sql.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'pixel-health';

export interface PixelHealthRow {
  last_event_at: string;
  events_last_24h: number;
  last_conversion_at: string;
}

/**
 * Freshness of the pixel: its newest event, events in the last 24 hours before `nowMs`, its newest
 * conversion, on every channel. Empty timestamps when nothing arrived.
 */
export async function pixelHealth(ch: Clickhouse, scope: Pick<QueryScope, 'workspaceId'>, nowMs: number): Promise<PixelHealthRow> {
  const sql = `
SELECT
  (SELECT if(count() = 0, '', toString(toDateTime(max(dt), 'UTC'))) FROM events WHERE store_id = {store_id:UInt64}) AS last_event_at,
  (SELECT toUInt64(count()) FROM events WHERE store_id = {store_id:UInt64} AND dt > {day_ago:DateTime64(3, 'UTC')}
     AND dt <= {now:DateTime64(3, 'UTC')}) AS events_last_24h,
  (SELECT if(count() = 0, '', toString(toDateTime(max(dt), 'UTC'))) FROM conversions WHERE store_id = {store_id:UInt64}) AS last_conversion_at
SETTINGS output_format_json_quote_64bit_integers = 0`;
  const [row] = await ch.query<PixelHealthRow>(QUERY_NAME, sql, {
    store_id: scope.workspaceId,
    now: timestampParam(nowMs),
    day_ago: timestampParam(nowMs - 86_400_000),
  });
  return row!;
}
