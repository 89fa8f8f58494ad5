import type { Clickhouse, QueryParams } from '../../../store/clickhouse.ts';
import { DAY_MS } from '../../../kit/calendar/days.ts';
import { timestampParam } from '../../sql.ts';
import { reportingSourceSql } from '../../dimensions.ts';
import { soldSql } from '../../sales.ts';
import { SESSIONS_FINAL, landingField, sessionsStartedSql } from '../sessions/session-sql.ts';
import { EXCLUDED_TRANSACTIONS_SQL, excludedListId } from '../settings/excluded-transactions.ts';
import { IDS_CTE, MODELS, attributionColumns, conversionIdentitySql, sessionIdentitySql, touchSql, type AttributionPlan, type ModelName } from '../../attribution/index.ts';

export const QUERY_NAME = 'conversion-credits';

export interface CreditsRequest {
  workspaceId: number;
  transactionId: string;
  /** The conversions looked at (the report's conversion range); the newest with the id wins. */
  convStartMs: number;
  convEndMs: number;
  attribution: AttributionPlan;
  /** Raw channels the key sees (null: every channel): the others' sessions are left out of the path. */
  visibleChannels: readonly string[] | null;
  excludedTransactions: readonly string[];
  models: readonly ModelName[];
  /** What the models' `bind` returned for this scope. */
  bound: QueryParams;
}

export interface CreditedTouch {
  session_id: string;
  started_at: string;
  /** Reporting source. */
  source: string;
  /** Raw channel. */
  raw_source: string;
  campaign: string;
  adgroup: string;
  ad: string;
}

export interface ConversionCredits {
  dt: string;
  revenueCents: number;
  /** Touchpoints in the window after exclusions, before the hidden channels are left out. */
  touchesInWindow: number;
  /** The touchpoints the models saw, oldest first (empty: the conversion is organic). */
  touchpoints: CreditedTouch[];
  /** Each model's weights over `touchpoints`, or over the one organic touch when there is none. */
  weights: Record<ModelName, number[]>;
}

type Tuple = [string, string, string, string, string, string, string];

const TS = "DateTime64(3, 'UTC')";

/**
 * One conversion by transaction id, its path and every model's weights on it: the same identity,
 * touch tuple, window and exclusions as the report, each model's own `weights` over the same
 * touches. Sessions of channels the key does not see are removed before the models run, as the
 * learned models leave them out, so nothing the key is shown depends on them. Only sales
 * count, minus the workspace's excluded transactions, as in the report. Null when none matches.
 */
export async function conversionCredits(ch: Clickhouse, r: CreditsRequest): Promise<ConversionCredits | null> {
  const touch = touchSql({
    ts: 'started', session_id: 'session_id', channel: 'channel', source: reportingSourceSql('channel'),
    campaign: 'campaign', adgroup: 'adgroup', ad: 'ad',
  });
  const fallback = touchSql({ ts: 'conv_dt', session_id: 'session_id', channel: "''", source: "'organic'" });
  const visiblePath = `arrayFilter(v -> {restricted:UInt8} = 0 OR has({visible_channels:Array(String)}, v.channel), b.path)`;
  const all = attributionColumns(r.attribution.model, { path: 'b.path', convTs: 'c.conv_dt', fallback, bound: r.bound });
  const seen = attributionColumns(r.attribution.model, { path: visiblePath, convTs: 'c.conv_dt', fallback, bound: r.bound });
  const excluded = r.excludedTransactions.length ? `\n    AND c.transaction_id NOT IN ${EXCLUDED_TRANSACTIONS_SQL}` : '';
  const sql = `
WITH
${IDS_CTE},
conv AS (
  SELECT c.dt AS conv_dt, c.session_id AS session_id, c.transaction_gross_revenue AS cents,
    ${conversionIdentitySql('c')} AS identity
  FROM conversions AS c
  LEFT JOIN ids ON ids.id_visitor = c.visitor_id
  WHERE c.store_id = {store_id:UInt64} AND c.transaction_id = {transaction_id:String}
    AND c.dt BETWEEN {conv_start:${TS}} AND {conv_end:${TS}} AND ${soldSql('c.transaction_id')}${excluded}
  ORDER BY c.dt DESC, c.session_id DESC
  LIMIT 1
),
buyer AS (
  SELECT groupArray(${touch}) AS path
  FROM (
    SELECT session_id, started, ${landingField('visitor_id')} AS visitor_id, ${landingField('adv_source')} AS channel,
      ${landingField('adv_campaign_id')} AS campaign, ${landingField('adv_adgroup_id')} AS adgroup, ${landingField('adv_ad_id')} AS ad
    FROM ${SESSIONS_FINAL}
    WHERE ${sessionsStartedSql(`{scan_start:${TS}}`, `{scan_end:${TS}}`)}
  ) AS s
  LEFT JOIN ids ON ids.id_visitor = s.visitor_id
  WHERE ${sessionIdentitySql('s.visitor_id')} IN (SELECT identity FROM conv)
)
SELECT toString(toDateTime(conv_dt, 'UTC')) AS dt, toString(cents) AS revenue_cents, length(in_window) AS touches_in_window,
  arrayMap(t -> (toString(t.session_id), toString(toDateTime(t.ts, 'UTC')), t.source, t.channel, t.campaign, t.adgroup, t.ad), eligible) AS touchpoints,
  [${r.models.map((m) => MODELS[m].weights('touches', 'conv_dt', r.bound)).join(', ')}] AS weights
FROM (
  SELECT c.conv_dt AS conv_dt, c.session_id AS session_id, c.cents AS cents,
    ${all.eligible} AS in_window, ${seen.eligible} AS eligible, if(empty(eligible), [${fallback}], eligible) AS touches
  FROM conv AS c CROSS JOIN buyer AS b
)`;
  const rows = await ch.query<{ dt: string; revenue_cents: string; touches_in_window: number | string; touchpoints: Tuple[]; weights: number[][] }>(
    QUERY_NAME, sql, {
      ...r.bound,
      store_id: r.workspaceId,
      transaction_id: r.transactionId,
      conv_start: timestampParam(r.convStartMs),
      conv_end: timestampParam(r.convEndMs),
      scan_start: timestampParam(r.convStartMs - r.attribution.windowDays * DAY_MS),
      scan_end: timestampParam(r.convEndMs),
      window_days: r.attribution.windowDays,
      excluded_channels: r.attribution.excludedChannels,
      restricted: r.visibleChannels === null ? 0 : 1,
      visible_channels: [...(r.visibleChannels ?? [])],
      ...(r.excludedTransactions.length ? { excluded_list: excludedListId(r.excludedTransactions) } : {}),
    },
  );
  const row = rows[0];
  if (!row) return null;
  return {
    dt: row.dt,
    revenueCents: Number(row.revenue_cents),
    touchesInWindow: Number(row.touches_in_window),
    touchpoints: row.touchpoints.map(([session_id, started_at, source, raw_source, campaign, adgroup, ad]) => ({
      session_id, started_at, source, raw_source, campaign, adgroup, ad,
    })),
    weights: Object.fromEntries(r.models.map((m, i) => [m, row.weights[i]!.map(Number)])) as Record<ModelName, number[]>,
  };
}
