import type { Clickhouse } from '../../../store/clickhouse.ts';
import { timestampParam } from '../../sql.ts';
import { SALE_ORDER } from '../../sales.ts';

export const QUERY_NAME = 'program-members';

export interface ProgramFigures {
  members: number;
  points: number;
  revenue_cents: number;
}

/**
 * A loyalty program's figures: its members are the customers with a sale order from the
 * program's first moment on (orders that are no sale and orders without a customer id count for
 * no one); each earns `pointsPerUnit` points per whole currency unit of the gross revenue of those
 * orders, summed per customer and rounded down. Orders carry no channel: this reads the whole workspace.
 */
export async function programFigures(ch: Clickhouse, p: { workspaceId: number; startMs: number; pointsPerUnit: number }): Promise<ProgramFigures> {
  const sql = `
SELECT toUInt64(count()) AS members, toInt64(sum(intDiv(greatest(spent, 0) * {rate:UInt32}, 100))) AS points, toInt64(sum(spent)) AS revenue_cents
FROM (
  SELECT customer_id, toInt64(sum(gross_revenue)) AS spent
  FROM orders FINAL
  WHERE store_id = {store_id:UInt64} AND dt >= {start:DateTime64(3, 'UTC')} AND customer_id != '' AND ${SALE_ORDER}
  GROUP BY customer_id
)
SETTINGS output_format_json_quote_64bit_integers = 0`;
  const [row] = await ch.query<ProgramFigures>(QUERY_NAME, sql, { store_id: p.workspaceId, start: timestampParam(p.startMs), rate: p.pointsPerUnit });
  return { members: Number(row?.members ?? 0), points: Number(row?.points ?? 0), revenue_cents: Number(row?.revenue_cents ?? 0) };
}
