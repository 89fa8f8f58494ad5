import type { Clickhouse, QueryParams } from '../../../store/clickhouse.ts';
import type { AppDatabase } from '../../../store/app-db.ts';
import { DAY_MS } from '../../../kit/calendar/days.ts';
import type { Range } from '../../../kit/calendar/range.ts';
import { timestampParam } from '../../sql.ts';
import { reportingSourceSql } from '../../dimensions.ts';
import { SESSIONS_FINAL, landingField, sessionsStartedSql } from '../sessions/session-sql.ts';
import {
  BASE_TOUCH_FIELDS, IDS_CTE, MODELS, attributionColumns, conversionIdentitySql, sessionIdentitySql, touchSql, type AttributionPlan,
} from '../../attribution/index.ts';

export const QUERY_NAME = 'survey-answers-by-source';

export interface AnswerSourceRow {
  answer: string;
  /** Reporting source the workspace's attribution credits, as report rows name it; `organic` for no eligible touch. */
  source: string;
  /** Orders credited (the model's weights summed: whole numbers under single-touch models). */
  orders: number;
  /** Their gross revenue in cents, shared by the same weights. */
  revenue: number;
}

export interface AnswerTotal {
  answer: string;
  /** Responses that gave this answer. */
  responses: number;
  /** Of those, orders the pixel recorded as a conversion in the range (the rows above cover only these). */
  matched: number;
}

const TS = "DateTime64(3, 'UTC')";

/**
 * The values one question's answer holds: the choice, each choice of a multiple choice, a number as
 * text. `raw` is the answer object's JSON.
 */
const answerValues = (raw: string) => `multiIf(
      JSONType(${raw}, 'value') = 'Array', JSONExtract(${raw}, 'value', 'Array(String)'),
      JSONType(${raw}, 'value') = 'String', [JSONExtractString(${raw}, 'value')],
      [JSONExtractRaw(${raw}, 'value')])`;

/**
 * "How did you hear about us?" against the pixel: each answer to `question` of the survey beside
 * the sources the workspace's attribution credits for the same orders (matched by transaction id
 * to conversions in `range`), with orders and revenue. Attribution as the report does it: the same
 * buyer identity, touchpoint window, exclusions and model; credits to channels outside `channels`
 * (what the reader may see; null: all) are left out.
 */
export async function answersBySource(
  stores: { ch: Clickhouse; db: AppDatabase },
  p: {
    workspaceId: number;
    surveyId: number;
    question: number;
    range: Range;
    attribution: AttributionPlan;
    channels: string[] | null;
    excludedTransactions: string[];
    /** The counted conversion names a learned model learns buying from (decisions 18.1). */
    conversionNames: string[];
  },
): Promise<{ rows: AnswerSourceRow[]; totals: AnswerTotal[] }> {
  const touch = touchSql({ ts: 'started', session_id: 'session_id', channel: 'channel', source: reportingSourceSql('channel') }, BASE_TOUCH_FIELDS);
  const fallback = touchSql({ ts: 'conv_dt', session_id: 'session_id', channel: "''", source: "'organic'" }, BASE_TOUCH_FIELDS);
  // A model learned from the data (data_driven) binds what it learned for the reader's channels.
  const bound = await MODELS[p.attribution.model].bind?.({
    ...stores,
    scope: { workspaceId: p.workspaceId, range: p.range, channels: p.channels },
    attribution: p.attribution,
    visibleChannels: p.channels,
    excludedTransactions: p.excludedTransactions,
    conversionNames: p.conversionNames,
  });
  const attribution = attributionColumns(p.attribution.model, { path: 'p.path', convTs: 'conv_dt', fallback, bound: bound ?? {} });
  const visible = p.channels === null ? '' : ' AND c.1.channel IN {channels:Array(String)}';
  const sql = `
WITH
${IDS_CTE},
answered AS (
  SELECT transaction_id AS a_tx, arrayJoin(arrayDistinct(${answerValues('raw')})) AS answer
  FROM (
    SELECT transaction_id, arrayFirst(a -> JSONExtractInt(a, 'question') = {question:UInt16}, JSONExtractArrayRaw(answers)) AS raw
    FROM survey_responses FINAL
    WHERE store_id = {store_id:UInt64} AND survey_id = {survey_id:UInt64}
  )
  WHERE raw != ''
),
conv AS (
  SELECT c.dt AS conv_dt, c.session_id AS session_id, c.transaction_id AS tx, ${conversionIdentitySql('c')} AS identity,
    toFloat64(c.transaction_gross_revenue) AS revenue
  FROM conversions AS c
  LEFT JOIN ids ON ids.id_visitor = c.visitor_id
  WHERE c.store_id = {store_id:UInt64} AND c.dt BETWEEN {start:${TS}} AND {end:${TS}}
    AND c.transaction_id IN (SELECT a_tx FROM answered) AND c.transaction_id NOT IN {excluded_tx:Array(String)}
  ORDER BY c.dt
  LIMIT 1 BY c.transaction_id
),
paths AS (
  SELECT ${sessionIdentitySql('s.visitor_id')} AS identity, groupArray(${touch}) AS path
  FROM (
    SELECT session_id, started, ${landingField('visitor_id')} AS visitor_id, ${landingField('adv_source')} AS channel
    FROM ${SESSIONS_FINAL}
    WHERE ${sessionsStartedSql(`{scan_start:${TS}}`, `{end:${TS}}`)}
  ) AS s
  LEFT JOIN ids ON ids.id_visitor = s.visitor_id
  GROUP BY identity
  HAVING identity IN (SELECT identity FROM conv)
),
credits AS (
  SELECT tx, credit.1.source AS source, credit.2 AS weight, revenue
  FROM (
    SELECT c.conv_dt AS conv_dt, c.session_id AS session_id, c.tx AS tx, c.revenue AS revenue, ${attribution.eligible} AS eligible
    FROM conv AS c
    LEFT JOIN paths AS p ON p.identity = c.identity
  )
  ARRAY JOIN arrayFilter(c -> c.2 > 0${visible}, ${attribution.credits}) AS credit
)
SELECT * FROM (
  SELECT a.answer AS answer, 'credit' AS kind, cr.source AS source, sum(cr.weight) AS orders, sum(cr.weight * cr.revenue) AS revenue,
    0 AS responses, 0 AS matched
  FROM answered AS a
  INNER JOIN credits AS cr ON cr.tx = a.a_tx
  GROUP BY answer, source
  UNION ALL
  SELECT answer, 'answer' AS kind, '' AS source, 0. AS orders, 0. AS revenue, count() AS responses, countIf(a_tx IN (SELECT tx FROM conv)) AS matched
  FROM answered
  GROUP BY answer
)
ORDER BY kind, answer, revenue DESC, source
SETTINGS output_format_json_quote_64bit_integers = 0`;
  const params: QueryParams = {
    store_id: p.workspaceId,
    survey_id: p.surveyId,
    question: p.question,
    start: timestampParam(p.range.startMs),
    end: timestampParam(p.range.endMs),
    scan_start: timestampParam(p.range.startMs - p.attribution.windowDays * DAY_MS),
    window_days: p.attribution.windowDays,
    excluded_channels: p.attribution.excludedChannels,
    excluded_tx: p.excludedTransactions,
    ...(p.channels === null ? {} : { channels: p.channels }),
  };
  type Raw = { answer: string; kind: 'credit' | 'answer'; source: string; orders: number; revenue: number; responses: number; matched: number };
  const raw = await stores.ch.query<Raw>(QUERY_NAME, sql, { ...params, ...bound });
  return {
    rows: raw.filter((r) => r.kind === 'credit').map((r) => ({ answer: r.answer, source: r.source, orders: Number(r.orders), revenue: Number(r.revenue) })),
    totals: raw.filter((r) => r.kind === 'answer').map((r) => ({ answer: r.answer, responses: Number(r.responses), matched: Number(r.matched) })),
  };
}
