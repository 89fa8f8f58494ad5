import type { Clickhouse, QueryParams } from '../../../store/clickhouse.ts';
import { timestampParam } from '../../sql.ts';
import { SALE_ORDER } from '../../sales.ts';
import { ruleSql, type SegmentRule } from '../../segment-fields.ts';

export const QUERY_NAME = 'segment-members';

/**
 * One row per customer of the workspace (a customer id on a sale order), with the facts segment
 * rules test (src/analytics/segment-fields.ts). `channels` are the landing channels of the
 * sessions of every visitor the pixel tied to the customer (visitor_customers); read only when a
 * rule needs them.
 */
function customersSql(withChannels: boolean, visibleOnly = false): string {
  const channel = "tupleElement(s.landing, 'adv_source')";
  const channels = withChannels
    ? `LEFT JOIN (
    SELECT vc.customer_id AS customer_id, ${visibleOnly ? `groupUniqArrayIf(${channel}, ${channel} IN {segment_channels:Array(String)})` : `groupUniqArray(${channel})`} AS channels
    FROM sessions AS s FINAL
    INNER JOIN (SELECT visitor_id, customer_id FROM visitor_customers FINAL WHERE store_id = {store_id:UInt64} AND customer_id != '') AS vc
      ON tupleElement(s.landing, 'visitor_id') = vc.visitor_id
    WHERE s.store_id = {store_id:UInt64}
    GROUP BY vc.customer_id
  ) AS ch ON ch.customer_id = o.customer_id`
    : '';
  return `(
  SELECT o.*, ${withChannels ? 'ch.channels' : 'CAST([], \'Array(String)\')'} AS channels
  FROM (
    SELECT customer_id, toUInt64(count()) AS orders_count, sum(gross_revenue) / 100 AS total_spent,
      dateDiff('day', max(dt), {now:DateTime64(3, 'UTC')}) AS days_since_last_order,
      argMax(country_code, dt) AS country_code, argMax(city, dt) AS city,
      arrayFilter(c -> c != '', groupUniqArray(coupon_code)) AS coupon_codes
    FROM orders FINAL
    WHERE store_id = {store_id:UInt64} AND customer_id != '' AND ${SALE_ORDER}
    GROUP BY customer_id
  ) AS o
  ${channels}
)`;
}

/** Every rule as one SQL condition on the customers subquery, its values bound under `prefix`. */
function rulesSql(rules: SegmentRule[], prefix: string, params: QueryParams): string {
  const conditions = rules.map((rule, r) => {
    const { sql, params: bound } = ruleSql(rule, `${prefix}r${r}`);
    Object.assign(params, bound);
    return `(${sql})`;
  });
  return conditions.length ? conditions.join(' AND ') : '1';
}

const testsChannels = (rules: SegmentRule[]) => rules.some((rule) => rule.field === 'adv_source');

/**
 * The customer ids of a segment, as a subquery for `customer_id IN (...)`, with the values it binds
 * (`now` among them). With `visibleChannels`, an adv_source rule sees only the visits that landed
 * from them: a key restricted to some channels learns nothing of the others through a segment.
 */
export function segmentCustomersSql(p: { rules: SegmentRule[]; nowMs: number; visibleChannels: string[] | null }): { sql: string; params: QueryParams } {
  const params: QueryParams = { now: timestampParam(p.nowMs) };
  if (p.visibleChannels) params.segment_channels = p.visibleChannels;
  const where = rulesSql(p.rules, 'seg_', params);
  return { sql: `SELECT customer_id FROM ${customersSql(testsChannels(p.rules), p.visibleChannels !== null)} WHERE ${where}`, params };
}

/** How many customers match every rule of each segment, in the order given (a segment without rules: every customer). */
export async function countSegmentMembers(ch: Clickhouse, p: { workspaceId: number; nowMs: number; segments: SegmentRule[][] }): Promise<number[]> {
  if (p.segments.length === 0) return [];
  const params: QueryParams = { store_id: p.workspaceId, now: timestampParam(p.nowMs) };
  const counts = p.segments.map((rules, s) => `toUInt64(countIf(${rulesSql(rules, `s${s}`, params)}))`);
  const withChannels = p.segments.some(testsChannels);
  const sql = `
SELECT [${counts.join(', ')}] AS members
FROM ${customersSql(withChannels)}
SETTINGS output_format_json_quote_64bit_integers = 0, join_use_nulls = 0`;
  const [row] = await ch.query<{ members: number[] }>(QUERY_NAME, sql, params);
  return (row?.members ?? []).map(Number);
}
