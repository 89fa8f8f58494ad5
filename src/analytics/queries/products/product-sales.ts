import type { Clickhouse, QueryParams } from '../../../store/clickhouse.ts';
import { hasShares } from '../../attribution/index.ts';
import { reportCtes } from '../../report/build-sql.ts';
import type { ReportPlan } from '../../report/plan.ts';

export const QUERY_NAME = 'product-sales';

/** What one attributed source bought of a product: credited units, line revenue in cents, credited orders. */
export type SourceSales = [source: string, units: number, cents: number, orders: number];

export interface ProductSalesRow {
  product_id: string;
  variant_id: string;
  sku: string;
  title: string;
  units: number;
  cents: number;
  orders: number;
  /** Per attributed source, most revenue first. */
  sources: SourceSales[];
}

export interface ProductSales {
  rows: ProductSalesRow[];
  /** Over every product of the scope, not only the page; `orders` counts each credited order once. */
  totals: { units: number; cents: number; orders: number };
  total_rows: number;
}

interface RawRow extends Omit<ProductSalesRow, 'units' | 'cents' | 'orders'> {
  p_units: number;
  p_cents: number;
  p_orders: number;
  total_rows: number;
  all_units: number;
  all_cents: number;
  all_orders: number;
}

/**
 * Products sold in the report plan's scope, per product (id, variant, sku, title), each line
 * booked by the report's own credits: a line of an order counts `weight` times towards the source
 * the attribution model credits (so under linear a two-touch order gives each source half its
 * units), and only orders that are sales count. Line revenue is quantity × unit price, before
 * order-level discounts, tax and shipping. The product's own figures use each order's capped
 * share (any_click credits several sources fully; the product still sold once).
 */
export async function productSales(ch: Clickhouse, plan: ReportPlan, bound: QueryParams | undefined): Promise<ProductSales> {
  const base = reportCtes(plan, { lines: true, bound });
  const share = hasShares(plan.attribution.model) ? 'share' : 'weight';
  const productKey = 'l.product_id, l.variant_id, l.sku, l.title';
  const sql = `${base.sql},
sold_lines AS (
  SELECT touch.source AS source, weight, ${share} AS capped,
    line.product_id AS product_id, line.variant_id AS variant_id, line.sku AS sku, line.title AS title,
    toFloat64(line.quantity) AS quantity, toFloat64(line.quantity) * line.unit_price AS cents,
    toFloat64(indexOf(arrayMap(l -> (${productKey}), lines), (line.product_id, line.variant_id, line.sku, line.title)) = i) AS first_line
  FROM credits
  ARRAY JOIN lines AS line, arrayEnumerate(lines) AS i
),
by_source AS (
  SELECT product_id, variant_id, sku, title, source,
    sum(weight * quantity) AS s_units, sum(weight * cents) AS s_cents, sum(weight * first_line) AS s_orders,
    sum(capped * quantity) AS c_units, sum(capped * cents) AS c_cents, sum(capped * first_line) AS c_orders
  FROM sold_lines
  GROUP BY product_id, variant_id, sku, title, source
)
SELECT product_id, variant_id, sku, title,
  sum(c_units) AS p_units, sum(c_cents) AS p_cents, sum(c_orders) AS p_orders,
  arraySort(x -> (-x.3, x.1), groupArray((source, s_units, s_cents, s_orders))) AS sources,
  toUInt32(count() OVER ()) AS total_rows,
  sum(sum(c_units)) OVER () AS all_units, sum(sum(c_cents)) OVER () AS all_cents,
  (SELECT sum(${share}) FROM credits WHERE notEmpty(lines)) AS all_orders
FROM by_source
GROUP BY product_id, variant_id, sku, title
ORDER BY p_cents DESC, p_units DESC, product_id, variant_id, sku, title
LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;
  const raw = await ch.query<RawRow>(QUERY_NAME, sql, { ...base.params, ...bound, limit: plan.limit, offset: plan.offset });
  const first = raw[0];
  return {
    rows: raw.map((r) => ({
      product_id: r.product_id, variant_id: r.variant_id, sku: r.sku, title: r.title,
      units: Number(r.p_units), cents: Number(r.p_cents), orders: Number(r.p_orders),
      sources: r.sources.map(([source, units, cents, orders]) => [source, Number(units), Number(cents), Number(orders)]),
    })),
    totals: { units: Number(first?.all_units ?? 0), cents: Number(first?.all_cents ?? 0), orders: Number(first?.all_orders ?? 0) },
    total_rows: Number(first?.total_rows ?? 0),
  };
}
