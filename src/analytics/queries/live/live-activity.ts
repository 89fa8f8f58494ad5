import type { Clickhouse } from '../../../store/clickhouse.ts';
import { Conditions, TIMESTAMP_OUT, timestampParam } from '../../sql.ts';
import { CHANNEL_OUT, attributedConversions } from '../conversions/conversion-scope.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'live-activity';

export interface LiveMinute {
  minute: string;
  pageviews: number;
  conversions: number;
  revenue_cents: number;
}

export interface LiveItem {
  dt: string;
  kind: 'pageview' | 'conversion';
  name: string;
  source: string;
  pathname: string;
  revenue_cents: number;
}

/**
 * What arrived in the scope's range (the last minutes): pageviews and conversions per minute, and the newest
 * `recent` of them. Pageviews carry their own channel; a conversion its session's landing channel
 * (as in /v3/conversions), both restricted to the scope's channels when the viewer's are.
 */
export async function liveActivity(
  ch: Clickhouse,
  scope: QueryScope,
  p: { recent: number },
): Promise<{ minutes: LiveMinute[]; recent: LiveItem[] }> {
  const views = new Conditions()
    .add(`store_id = {store_id:UInt64} AND dt BETWEEN {start:DateTime64(3, 'UTC')} AND {end:DateTime64(3, 'UTC')}`)
    .add(`name = 'pageview'`)
    .addIf(scope.channels, 'adv_source IN {channels:Array(String)}', (v) => ({ channels: v }));
  const conversions = attributedConversions(scope);
  const union = `
  SELECT dt, 'pageview' AS kind, name, if(adv_source IN ('', 'organic'), 'organic', adv_source) AS source, pathname, toInt64(0) AS revenue
  FROM events WHERE ${views.sql()}
  UNION ALL
  SELECT dt, 'conversion' AS kind, name, ${CHANNEL_OUT} AS source, '' AS pathname, toInt64(transaction_gross_revenue) AS revenue
  FROM ${conversions.sql}`;
  const params = {
    ...conversions.params,
    ...views.params,
    store_id: scope.workspaceId,
    start: timestampParam(scope.range.startMs),
    end: timestampParam(scope.range.endMs),
    recent: p.recent,
  };
  const settings = 'SETTINGS output_format_json_quote_64bit_integers = 0';
  const [minutes, recent] = await Promise.all([
    ch.query<LiveMinute>(QUERY_NAME, `
SELECT ${TIMESTAMP_OUT('toStartOfMinute(dt)')} AS minute, toUInt64(countIf(kind = 'pageview')) AS pageviews,
  toUInt64(countIf(kind = 'conversion')) AS conversions, toInt64(sum(revenue)) AS revenue_cents
FROM (${union})
GROUP BY minute ORDER BY minute
${settings}`, params),
    ch.query<LiveItem>(`${QUERY_NAME}-recent`, `
SELECT ${TIMESTAMP_OUT('dt')} AS dt, kind, name, source, pathname, revenue AS revenue_cents
FROM (${union})
ORDER BY dt DESC LIMIT {recent:UInt32}
${settings}`, params),
  ]);
  return { minutes, recent };
}
