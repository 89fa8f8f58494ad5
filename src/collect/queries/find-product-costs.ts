import type { Clickhouse } from '../../store/clickhouse.ts';

export const QUERY_NAME = 'find-product-costs';

/** Unit cost in cents of these variants, from the workspace's products table (newest import). */
export async function findProductCosts(ch: Clickhouse, params: { workspaceId: number; variantIds: string[] }): Promise<Map<string, number>> {
  if (params.variantIds.length === 0) return new Map();
  const sql = `
SELECT variant_id, toString(any(cost)) AS cost
FROM products FINAL
WHERE store_id = {store_id:UInt64} AND variant_id IN {variant_ids:Array(String)}
GROUP BY variant_id`;
  const rows = await ch.query<{ variant_id: string; cost: string }>(QUERY_NAME, sql, {
    store_id: params.workspaceId,
    variant_ids: params.variantIds,
  });
  return new Map(rows.map((r) => [r.variant_id, Number(r.cost)]));
}
