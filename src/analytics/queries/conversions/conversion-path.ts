import type { Clickhouse, QueryParams } from '../../../store/clickhouse.ts';
import { DAY_MS } from '../../../kit/calendar/days.ts';
import { timestampParam } from '../../sql.ts';
import { SESSIONS_FINAL, landingField, sessionsStartedSql } from '../sessions/session-sql.ts';
import { IDS_CTE, attributionColumns, conversionIdentitySql, sessionIdentitySql, touchSql, type AttributionPlan } from '../../attribution/index.ts';
import { reportingSourceSql } from '../../dimensions.ts';

export const QUERY_NAME = 'conversion-path';

export interface PathTouch {
  started: string;
  session_id: string;
  /** Raw channel ('' for untagged sessions). */
  channel: string;
  /** Reporting source, as report rows name it. */
  source: string;
  campaign: string;
  adgroup: string;
  ad: string;
  utm_campaign: string;
  /** The model's share of the conversion; null when the session was not an eligible touchpoint. */
  weight: number | null;
}

export interface ConversionPath {
  dt: string;
  /** The buyer's sessions from `window_days` before the conversion up to it, in time order. */
  touches: PathTouch[];
  /** Credit to organic (no eligible touchpoint), as the report books it. */
  organic_weight: number;
}

export interface ConversionKey {
  sessionId: bigint;
  /** `YYYY-MM-DD HH:MM:SS` UTC, as conversion rows carry it. */
  dt: string;
  name: string;
  transactionId: string;
}

const TS = "DateTime64(3, 'UTC')";

type Tuple = [string, string, string, string, string, string, string, string];

/**
 * Why a conversion was credited where it was: the buyer's touchpoint path (the same identity,
 * touch tuple, window and exclusions as the report) and the weights the plan's model gives it.
 * Null when no conversion in the workspace matches `key`.
 */
export async function conversionPath(
  ch: Clickhouse,
  p: { workspaceId: number; key: ConversionKey; attribution: AttributionPlan; bound?: QueryParams },
): Promise<ConversionPath | null> {
  const convMs = Date.parse(`${p.key.dt.replace(' ', 'T')}Z`);
  const touch = touchSql({
    ts: 'started', session_id: 'session_id', channel: 'channel', source: reportingSourceSql('channel'),
    campaign: 'campaign', adgroup: 'adgroup', ad: 'ad', utm_campaign: 'utm_campaign',
  });
  const fallback = touchSql({ ts: 'conv_dt', session_id: 'session_id', channel: "''", source: "'organic'" });
  const attribution = attributionColumns(p.attribution.model, { path: 'path', convTs: 'conv_dt', fallback, bound: p.bound ?? {} });
  const sql = `
WITH
${IDS_CTE},
conv AS (
  SELECT c.dt AS conv_dt, c.session_id AS session_id,
    ${conversionIdentitySql('c')} AS identity
  FROM conversions AS c
  LEFT JOIN ids ON ids.id_visitor = c.visitor_id
  WHERE c.store_id = {store_id:UInt64} AND c.session_id = {session_id:UInt64} AND toDateTime(c.dt, 'UTC') = {dt:DateTime('UTC')}
    AND c.name = {name:String} AND c.transaction_id = {transaction_id:String}
  LIMIT 1
),
buyer AS (
  SELECT groupArray(${touch}) AS path
  FROM (
    SELECT session_id, started, ${landingField('visitor_id')} AS visitor_id, ${landingField('adv_source')} AS channel,
      ${landingField('adv_campaign_id')} AS campaign, ${landingField('adv_adgroup_id')} AS adgroup,
      ${landingField('adv_ad_id')} AS ad, ${landingField('utm_campaign')} AS utm_campaign
    FROM ${SESSIONS_FINAL}
    WHERE ${sessionsStartedSql(`{scan_start:${TS}}`, `{scan_end:${TS}}`)}
  ) AS s
  LEFT JOIN ids ON ids.id_visitor = s.visitor_id
  WHERE ${sessionIdentitySql('s.visitor_id')} IN (SELECT identity FROM conv)
)
SELECT toString(toDateTime(conv_dt, 'UTC')) AS dt,
  arrayMap(t -> (toString(toDateTime(t.ts, 'UTC')), toString(t.session_id), t.channel, t.source, t.campaign, t.adgroup, t.ad, t.utm_campaign),
    arraySort(t -> (t.ts, t.session_id), arrayFilter(t -> t.ts <= conv_dt, path))) AS sessions_in_window,
  arrayMap(c -> (toString(c.1.session_id), c.1.channel, c.2), ${attribution.credits}) AS credits
FROM (
  SELECT c.conv_dt AS conv_dt, c.session_id AS session_id, b.path AS path, ${attribution.eligible} AS eligible
  FROM conv AS c CROSS JOIN buyer AS b
)`;
  const rows = await ch.query<{ dt: string; sessions_in_window: Tuple[]; credits: [string, string, number][] }>(QUERY_NAME, sql, {
    ...p.bound,
    store_id: p.workspaceId,
    session_id: p.key.sessionId.toString(),
    dt: p.key.dt,
    name: p.key.name,
    transaction_id: p.key.transactionId,
    scan_start: timestampParam(convMs - p.attribution.windowDays * DAY_MS),
    scan_end: timestampParam(convMs + 999),
    window_days: p.attribution.windowDays,
    excluded_channels: p.attribution.excludedChannels,
  });
  const row = rows[0];
  if (!row) return null;
  const weights = new Map(row.credits.filter(([, channel]) => channel !== '').map(([session, , weight]) => [session, Number(weight)]));
  // The organic touch's credit: the whole of a conversion without a touchpoint, or what data_driven leaves to it.
  const organic = row.credits.filter(([, channel]) => channel === '').reduce((sum, [, , weight]) => sum + Number(weight), 0);
  return {
    dt: row.dt,
    touches: row.sessions_in_window.map(([started, session_id, channel, source, campaign, adgroup, ad, utm_campaign]) => ({
      started, session_id, channel, source, campaign, adgroup, ad, utm_campaign,
      weight: weights.get(session_id) ?? null,
    })),
    organic_weight: organic,
  };
}
