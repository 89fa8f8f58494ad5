import type { Clickhouse, QueryParams } from '../../../store/clickhouse.ts';
import { DAY_MS } from '../../../kit/calendar/days.ts';
import { Conditions, addNamePatterns, timestampParam } from '../../sql.ts';
import { soldSql } from '../../sales.ts';
import { reportingSourceSql } from '../../dimensions.ts';
import { SESSIONS_FINAL, landingField, sessionsStartedSql } from '../sessions/session-sql.ts';
import { EXCLUDED_TRANSACTIONS_SQL } from '../settings/excluded-transactions.ts';
import { IDS_CTE, attributionColumns, conversionIdentitySql, sessionIdentitySql, touchSql, type TouchField } from '../../attribution/index.ts';
import { conversionValues, reportParams } from '../../report/build-sql.ts';
import type { ReportPlan } from '../../report/plan.ts';
import { COHORT_BREAKDOWNS, LTV_DAYS, type CohortBreakdown } from '../../../kit/vocabulary.ts';

export const QUERY_NAME = 'customer-cohorts';

export { COHORT_BREAKDOWNS, LTV_DAYS, type CohortBreakdown };

export interface CohortRequest {
  /** The report's plan under first_click: range, window, excluded channels, the key's channels, revenue settings. */
  plan: ReportPlan;
  breakdown: CohortBreakdown | null;
  /** Conversion-name patterns (`*` wildcards) of the orders that count. */
  countedNames: readonly string[];
  nowMs: number;
}

/**
 * One group of customers: the new ones of a breakdown value (`cohort` 1) or the returning ones
 * (`cohort` 0, keys empty), money in cents, durations in milliseconds.
 */
export interface CohortGroup {
  cohort: number;
  first_source: string;
  first_campaign: string;
  cohort_month: string;
  customers: number;
  repeaters: number;
  ms_to_second: number;
  /** Per LTV_DAYS horizon: the revenue of the customers old enough for it, and how many they are. */
  ltv_cents: number[];
  ltv_members: number[];
  range_cents: number;
  /** Cohort months only: months since the first order, and the revenue of each. */
  month_index: number[];
  month_cents: number[];
}

const TS = "DateTime64(3, 'UTC')";
const FIELDS: readonly TouchField[] = ['ts', 'session_id', 'channel', 'source', 'campaign'];

/** A calendar month of a timestamp in the range's zone, as a month count (year × 12 + month). */
const monthNumber = (ts: string) => `(toYear(${ts}, {tz:String}) * 12 + toMonth(${ts}, {tz:String}))`;

/**
 * Customers of the plan's range, grouped (docs/api.md, "GET /v3/customers"). A customer is an
 * identity of the report (its customer id, else its visitor's, else the visitor); its orders are
 * every counted conversion ever (a sale, not an excluded transaction, of a counted name) up to
 * now, at the report's revenue under the workspace settings. Those whose first order falls in the
 * range are the cohort; those with an order in the range after a first order before it are
 * returning. Each one's first order is attributed under first click (the plan's window and
 * excluded channels; no touchpoint: organic), and a customer whose credited channel the key does
 * not see counts nowhere. Sessions are read from the window before the earliest first order that
 * needs a touch: the cohort's (inside the range), and for a key limited to some channels the
 * returning customers' too.
 */
export function customerCohortsSql(r: CohortRequest): { sql: string; params: QueryParams } {
  const { plan } = r;
  const values = conversionValues(plan);
  const where = new Conditions()
    .add('c.store_id = {store_id:UInt64}')
    .add(`c.dt <= {now:${TS}}`)
    .add(soldSql('c.transaction_id'));
  if (plan.settings.excluded_transaction_ids.length > 0) where.add(`c.transaction_id NOT IN ${EXCLUDED_TRANSACTIONS_SQL}`);
  addNamePatterns(where, 'c.name', r.countedNames);
  const restricted = plan.channels !== null;
  const touch = touchSql({
    ts: 'started', session_id: 'session_id', channel: 'channel', source: reportingSourceSql('channel'), campaign: 'campaign',
  }, FIELDS);
  const fallback = touchSql({ ts: 'b.first_dt', session_id: 'b.first_session', channel: "''", source: "'organic'" }, FIELDS);
  const attribution = attributionColumns('first_click', { path: 'p.path', convTs: 'b.first_dt', fallback: 'fallback', bound: {} });
  // A returning customer's first touch matters only to a key that may not see it.
  const touched = restricted ? '' : ` WHERE first_dt >= {start:${TS}}`;
  const scanStart = restricted
    ? `least({scan_start:${TS}}, coalesce((SELECT minOrNull(first_dt) FROM buyers), {start:${TS}}) - toIntervalDay({window_days:UInt16}))`
    : `{scan_start:${TS}}`;
  const months = r.breakdown === 'cohort_month';
  const keys: Record<CohortBreakdown, string> = {
    first_source: 'touch.source',
    first_campaign: 'touch.campaign',
    cohort_month: `formatDateTime(first_dt, '%Y-%m', {tz:String})`,
  };
  const key = (name: CohortBreakdown) => (r.breakdown === name || (name === 'first_source' && r.breakdown === 'first_campaign')
    ? `if(in_cohort, ${keys[name]}, '')` : "''");
  const horizons = (f: (days: number) => string) => `[${LTV_DAYS.map(f).join(', ')}]`;
  const oldEnough = (days: number) => `first_dt <= {now:${TS}} - toIntervalDay(${days})`;
  const sql = `
WITH
${IDS_CTE},
conv AS (
  SELECT c.dt AS conv_dt, c.session_id AS session_id, ${conversionIdentitySql('c')} AS identity,
    ${values.columns}
  FROM conversions AS c
  LEFT JOIN ids ON ids.id_visitor = c.visitor_id
  ${values.joins}
  WHERE ${where.sql()}
),
buyers AS (
  SELECT identity, arraySort(o -> (o.1, o.2), groupArray((conv_dt, session_id, revenue))) AS orders,
    orders[1].1 AS first_dt, orders[1].2 AS first_session
  FROM conv
  GROUP BY identity
  HAVING arrayExists(o -> o.1 BETWEEN {start:${TS}} AND {end:${TS}}, orders)
),
paths AS (
  SELECT ${sessionIdentitySql('s.visitor_id')} AS identity, groupArray(${touch}) AS path
  FROM (
    SELECT session_id, started, ${landingField('visitor_id')} AS visitor_id, ${landingField('adv_source')} AS channel,
      ${landingField('adv_campaign_id')} AS campaign
    FROM ${SESSIONS_FINAL}
    WHERE ${sessionsStartedSql(scanStart, `{end:${TS}}`)}
  ) AS s
  LEFT JOIN ids ON ids.id_visitor = s.visitor_id
  WHERE identity IN (SELECT identity FROM buyers${touched})
  GROUP BY identity
),
customers AS (
  SELECT first_dt, orders, first_dt >= {start:${TS}} AS in_cohort,
    arrayFirst(c -> c.2 > 0, ${attribution.credits}).1 AS touch
  FROM (
    SELECT b.first_dt AS first_dt, b.orders AS orders, ${fallback} AS fallback, ${attribution.eligible} AS eligible
    FROM buyers AS b
    LEFT JOIN paths AS p ON p.identity = b.identity
  )
)
SELECT toUInt8(in_cohort) AS cohort,
  ${key('first_source')} AS first_source, ${key('first_campaign')} AS first_campaign, ${key('cohort_month')} AS cohort_month,
  toUInt64(count()) AS customers,
  toUInt64(countIf(length(orders) > 1)) AS repeaters,
  toInt64(sumIf(toUnixTimestamp64Milli(orders[2].1) - toUnixTimestamp64Milli(first_dt), length(orders) > 1)) AS ms_to_second,
  ${horizons((d) => `sumIf(arraySum(o -> if(o.1 < first_dt + toIntervalDay(${d}), o.3, 0), orders), ${oldEnough(d)})`)} AS ltv_cents,
  ${horizons((d) => `toUInt64(countIf(${oldEnough(d)}))`)} AS ltv_members,
  sum(arraySum(o -> if(o.1 BETWEEN {start:${TS}} AND {end:${TS}}, o.3, 0), orders)) AS range_cents,
  ${months
    ? `sumMap(arrayMap(o -> toUInt32(${monthNumber('o.1')} - ${monthNumber('first_dt')}), orders), arrayMap(o -> o.3, orders))`
    : '([]::Array(UInt32), []::Array(Float64))'} AS by_month,
  by_month.1 AS month_index, by_month.2 AS month_cents
FROM customers${restricted ? '\nWHERE touch.channel IN {channels:Array(String)}' : ''}
GROUP BY in_cohort, first_source, first_campaign, cohort_month
SETTINGS output_format_json_quote_64bit_integers = 0`;
  const params: QueryParams = {
    ...reportParams(plan),
    ...where.params,
    now: timestampParam(r.nowMs),
    scan_start: timestampParam(plan.range.startMs - plan.attribution.windowDays * DAY_MS),
    tz: plan.range.timeZone,
    ...(restricted ? { channels: plan.channels! } : {}),
  };
  return { sql, params };
}

/** The groups of customerCohortsSql, in no particular order. */
export async function customerCohorts(ch: Clickhouse, r: CohortRequest): Promise<CohortGroup[]> {
  const { sql, params } = customerCohortsSql(r);
  const rows = await ch.query<CohortGroup>(QUERY_NAME, sql, params);
  return rows.map((row) => ({
    ...row,
    cohort: Number(row.cohort),
    customers: Number(row.customers),
    repeaters: Number(row.repeaters),
    ms_to_second: Number(row.ms_to_second),
    ltv_cents: row.ltv_cents.map(Number),
    ltv_members: row.ltv_members.map(Number),
    range_cents: Number(row.range_cents),
    month_index: row.month_index.map(Number),
    month_cents: row.month_cents.map(Number),
  }));
}
