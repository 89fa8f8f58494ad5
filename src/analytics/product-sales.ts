import type { Clickhouse } from '../store/clickhouse.ts';
import type { AppDatabase } from '../store/app-db.ts';
import { rangeInfo } from '../kit/paging.ts';
import { prepareReport, settingsApplied, type ReportAuth, type ReportRequest, type SettingsApplied } from './report/run.ts';
import { productSales } from './queries/products/product-sales.ts';
import type { Range } from '../kit/calendar/range.ts';

/** What products.get-sales and the dashboard's Products view ask beside the range: the report's scope and attribution, no metrics or breakdown. */
export type ProductSalesRequest = Pick<ReportRequest,
  'source' | 'exclude_source' | 'campaign' | 'attribution_model' | 'attribution_window' | 'attribution_date' | 'limit' | 'offset'>;

export interface SourceSalesOut {
  source: string;
  units: number;
  revenue: number;
  orders: number;
}

export interface ProductSalesOut {
  product_id: string;
  variant_id: string;
  sku: string;
  title: string;
  units: number;
  revenue: number;
  orders: number;
  sources: SourceSalesOut[];
}

export interface ProductSalesResult {
  products: ProductSalesOut[];
  totals: { units: number; revenue: number; orders: number };
  pagination: { limit: number; offset: number; total_rows: number; has_more: boolean; start_date: string; end_date: string };
  settings_applied: SettingsApplied;
}

const round = (value: number, places: number) => {
  const rounded = Math.round(value * 10 ** places) / 10 ** places;
  return rounded === 0 ? 0 : rounded;
};
const figures = (units: number, cents: number, orders: number) => ({ units: round(units, 4), revenue: round(Math.round(cents) / 100, 2), orders: round(orders, 4) });

/**
 * Product sales under the report's attribution (the request's, else the workspace settings), in
 * the report's scope: its range and time zone, source and campaign filters, the key's channels.
 * Revenue in decimals of the workspace currency; units and orders may be fractional under a
 * model that splits an order.
 */
export async function runProductSales(
  stores: { ch: Clickhouse; db: AppDatabase },
  auth: ReportAuth,
  range: Range,
  request: ProductSalesRequest,
  now = Date.now(),
): Promise<ProductSalesResult> {
  const prepared = await prepareReport(stores, auth, range, { ...request, breakdown: 'source' }, now);
  const { plan, bound } = prepared;
  let sales = await productSales(stores.ch, plan, bound);
  // A page past the end has no row to carry the totals.
  if (sales.rows.length === 0 && plan.offset > 0) sales = { ...(await productSales(stores.ch, { ...plan, offset: 0, limit: 1 }, bound)), rows: [] };
  return {
    products: sales.rows.map((r) => ({
      product_id: r.product_id, variant_id: r.variant_id, sku: r.sku, title: r.title,
      ...figures(r.units, r.cents, r.orders),
      sources: r.sources.map(([source, units, cents, orders]) => ({ source, ...figures(units, cents, orders) })),
    })),
    totals: figures(sales.totals.units, sales.totals.cents, sales.totals.orders),
    pagination: {
      limit: plan.limit,
      offset: plan.offset,
      total_rows: sales.total_rows,
      has_more: plan.offset + sales.rows.length < sales.total_rows,
      ...rangeInfo(prepared.range),
    },
    settings_applied: settingsApplied(prepared),
  };
}
