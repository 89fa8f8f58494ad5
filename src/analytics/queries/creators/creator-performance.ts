import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { Range } from '../../../kit/calendar/range.ts';
import { saleConversions } from '../conversions/conversion-scope.ts';
import { SESSIONS_FINAL, landingField, sessionsStartedIn } from '../sessions/session-sql.ts';

export const QUERY_NAME = 'creator-performance';

/** Codes a workspace shows at the most: the busiest, so a flood of made-up `ref` values cannot grow the answer. */
export const MAX_CREATOR_CODES = 500;

export interface CreatorRow {
  code: string;
  sessions: number;
  orders: number;
  revenue_cents: number;
  coupon_codes: string[];
}

/** A session's `ref` landing parameter (the creator's link code), upper-cased; '' without one. */
const REF_CODE = `upper(trim(BOTH ' ' FROM arrayElement(${landingField('entry_meta_values')}, indexOf(${landingField('entry_meta_keys')}, 'ref'))))`;

/**
 * Creators as the traffic shows them, over a range: every `ref` code that sessions landed with,
 * and the workspace's own tracking codes (`known`). A session counts for the code it landed with.
 * An order (a sale conversion with a transaction id) counts for the creator whose coupon it
 * carries (the code itself or the code followed by digits: MAYA, MAYA15; the conversion's coupon,
 * else the stored order's), else for the code its session landed with. Revenue is the orders'
 * gross revenue. Busiest codes first (revenue, then sessions).
 */
export async function creatorPerformance(ch: Clickhouse, p: { workspaceId: number; range: Range; known: string[] }): Promise<CreatorRow[]> {
  const scope = { workspaceId: p.workspaceId, range: p.range, channels: null };
  const [started, startedParams] = sessionsStartedIn(scope);
  const conversions = saleConversions(scope);
  const sql = `
WITH
  ref_sessions AS (
    SELECT ref_code, toUInt64(count()) AS sessions
    FROM (SELECT ${REF_CODE} AS ref_code FROM ${SESSIONS_FINAL} WHERE ${started})
    WHERE ref_code != ''
    GROUP BY ref_code
  ),
  (SELECT arrayDistinct(arrayConcat(groupArray(${MAX_CREATOR_CODES})(ref_code), {known:Array(String)}))
   FROM (SELECT ref_code FROM ref_sessions ORDER BY sessions DESC, ref_code LIMIT ${MAX_CREATOR_CODES})) AS codes,
  creator_orders AS (
    SELECT o.coupon AS coupon,
      arrayFirst(k -> o.coupon = k OR (startsWith(o.coupon, k) AND match(substring(o.coupon, length(k) + 1), '^[0-9]+$')), codes) AS coupon_code_of,
      if(coupon_code_of != '', coupon_code_of, landed.ref_code) AS creator_code, o.revenue AS revenue
    FROM (
      SELECT c.transaction_id AS transaction_id, any(c.session_id) AS session_id, any(c.transaction_gross_revenue) AS revenue,
        upper(trim(BOTH ' ' FROM if(any(c.coupon_code) != '', any(c.coupon_code), any(stored.coupon_code)))) AS coupon
      FROM ${conversions.sql} AS c
      LEFT JOIN (
        SELECT transaction_id, coupon_code FROM orders FINAL
        WHERE store_id = {store_id:UInt64} AND coupon_code != ''
      ) AS stored ON stored.transaction_id = c.transaction_id
      WHERE c.transaction_id != ''
      GROUP BY c.transaction_id
    ) AS o
    LEFT JOIN (
      SELECT session_id, ${REF_CODE} AS ref_code FROM ${SESSIONS_FINAL}
      PREWHERE store_id = {store_id:UInt64}
        AND month BETWEEN toStartOfMonth({start:DateTime64(3, 'UTC')} - INTERVAL 1 DAY) AND toStartOfMonth({end:DateTime64(3, 'UTC')})
        AND session_id IN (SELECT session_id FROM conversions
          WHERE store_id = {store_id:UInt64} AND dt BETWEEN {start:DateTime64(3, 'UTC')} AND {end:DateTime64(3, 'UTC')})
      ORDER BY session_id, started
      LIMIT 1 BY session_id
    ) AS landed ON landed.session_id = o.session_id
  ),
  order_totals AS (
    SELECT creator_code, toUInt64(count()) AS orders, toInt64(sum(revenue)) AS revenue_cents,
      arraySort(groupUniqArrayIf(20)(coupon, coupon != '' AND coupon_code_of = creator_code)) AS coupons
    FROM creator_orders
    WHERE has(codes, creator_code)
    GROUP BY creator_code
  )
SELECT k AS code, toUInt64(ifNull(s.sessions, 0)) AS sessions, toUInt64(ifNull(t.orders, 0)) AS orders,
  toInt64(ifNull(t.revenue_cents, 0)) AS revenue_cents, ifNull(t.coupons, []) AS coupon_codes
FROM (SELECT arrayJoin(codes) AS k) AS all_codes
LEFT JOIN ref_sessions AS s ON s.ref_code = all_codes.k
LEFT JOIN order_totals AS t ON t.creator_code = all_codes.k
ORDER BY revenue_cents DESC, sessions DESC, code
SETTINGS output_format_json_quote_64bit_integers = 0, join_use_nulls = 1`;
  return ch.query<CreatorRow>(QUERY_NAME, sql, { ...startedParams, ...conversions.params, known: p.known.map((k) => k.toUpperCase()) });
}
