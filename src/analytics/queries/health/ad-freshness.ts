import type { Clickhouse } from '../../../store/clickhouse.ts';

export const QUERY_NAME = 'ad-freshness';

export interface AdFreshnessRow {
  source: string;
  last_day: string;
  ads: number;
}

/** The newest day of ad data per platform, over everything imported for the workspace. */
export async function adFreshness(ch: Clickhouse, p: { storeId: number; adChannels: string[] | null }): Promise<AdFreshnessRow[]> {
  const sql = `
SELECT source, toString(max(dt)) AS last_day, toUInt64(uniqExact(ad_id)) AS ads
FROM ads FINAL
WHERE store_id = {store_id:UInt64} AND ({all_channels:Bool} OR source IN {channels:Array(String)})
GROUP BY source
ORDER BY source
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<AdFreshnessRow>(QUERY_NAME, sql, {
    store_id: p.storeId,
    all_channels: p.adChannels === null,
    channels: p.adChannels ?? [],
  });
}
