import type { Clickhouse } from '../../../store/clickhouse.ts';
import { timestampParam } from '../../sql.ts';
import { SALE_ORDER } from '../../sales.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'repeat-customers';

export interface OrderCountBucket {
  orders: number;
  customers: number;
  revenue_cents: number;
}

/**
 * Customers of the platform orders placed in the scope's range, bucketed by how many orders each
 * placed (4 stands for 4 or more). Orders that are no sale (cancelled, voided, test, unpaid) and
 * orders without a customer id are left out. Orders carry no channel: this reads the whole workspace.
 */
export async function repeatCustomers(ch: Clickhouse, scope: Pick<QueryScope, 'workspaceId' | 'range'>): Promise<OrderCountBucket[]> {
  const sql = `
SELECT toUInt32(least(n, 4)) AS orders, toUInt64(count()) AS customers, toInt64(sum(rev)) AS revenue_cents
FROM (
  SELECT customer_id, count() AS n, sum(gross_revenue) AS rev
  FROM orders FINAL
  WHERE store_id = {store_id:UInt64} AND dt BETWEEN {start:DateTime64(3, 'UTC')} AND {end:DateTime64(3, 'UTC')}
    AND customer_id != '' AND ${SALE_ORDER}
  GROUP BY customer_id
)
GROUP BY orders
ORDER BY orders
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<OrderCountBucket>(QUERY_NAME, sql, {
    store_id: scope.workspaceId,
    start: timestampParam(scope.range.startMs),
    end: timestampParam(scope.range.endMs),
  });
}
