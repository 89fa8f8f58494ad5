import type { Clickhouse } from '../../../store/clickhouse.ts';
import { saleConversions } from '../conversions/conversion-scope.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'coupon-performance';

export interface CouponRow {
  coupon_code: string;
  conversions: number;
  revenue_cents: number;
  new_customers: number;
}

/** Conversions of the counted `names` (conversion-names.ts) per coupon code, with the share of new customers each brought in. */
export async function couponPerformance(
  ch: Clickhouse,
  scope: QueryScope,
  p: { limit: number; names: readonly string[] },
): Promise<CouponRow[]> {
  const conversions = saleConversions(scope, { counted: p.names });
  const sql = `
SELECT coupon_code, toUInt64(count()) AS conversions, toInt64(sum(transaction_gross_revenue)) AS revenue_cents,
  toUInt64(countIf(is_new_customer = 1)) AS new_customers
FROM ${conversions.sql}
WHERE coupon_code != ''
GROUP BY coupon_code
ORDER BY conversions DESC, coupon_code
LIMIT {limit:UInt32}
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<CouponRow>(QUERY_NAME, sql, { ...conversions.params, limit: p.limit });
}
