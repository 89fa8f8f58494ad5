import type { Clickhouse } from '../../store/clickhouse.ts';
import type { LineItem, OrderStatus } from '../fields.ts';

export const QUERY_NAME = 'find-stored-order';

/** One stored order in the row shape the orders table takes (money as numbers). */
export interface StoredOrder {
  store_id: number;
  transaction_id: string;
  order_name: string;
  dt: string;
  customer_id: string;
  is_new_customer: number;
  currency: string;
  gross_revenue: number;
  tax: number;
  shipping: number;
  discount: number;
  refunds: { dt: string; amount: number }[];
  refund_ids: string[];
  cogs: number;
  shipping_cost: number;
  payment_fee: number | null;
  status: OrderStatus;
  platform_status: string;
  coupon_code: string;
  city: string;
  country_code: string;
  line_items: LineItem[];
  version: number;
}

type Row = Omit<StoredOrder, 'refunds' | 'store_id' | 'line_items'> & {
  refund_dts: string[];
  refund_amounts: string[];
  line_items: (Omit<LineItem, 'unit_price'> & { unit_price: string })[];
};

/**
 * The current version of an order (by its transaction id), or undefined. Integers come back as
 * text (ClickHouse quotes 64-bit integers in JSON) and are turned into numbers here.
 */
export async function findStoredOrder(ch: Clickhouse, params: { workspaceId: number; transactionId: string }): Promise<StoredOrder | undefined> {
  const sql = `
SELECT transaction_id, order_name, toString(dt) AS dt, customer_id, is_new_customer, currency,
  gross_revenue, tax, shipping, discount, arrayMap(r -> toString(r.dt), refunds) AS refund_dts,
  arrayMap(r -> toString(r.amount), refunds) AS refund_amounts, refund_ids, cogs, shipping_cost,
  payment_fee, status, platform_status, coupon_code, city, country_code, line_items, version
FROM orders FINAL
WHERE store_id = {store_id:UInt64} AND transaction_id = {transaction_id:String}`;
  const [row] = await ch.query<Row>(QUERY_NAME, sql, { store_id: params.workspaceId, transaction_id: params.transactionId });
  if (!row) return undefined;
  const { refund_dts: dts, refund_amounts: amounts, ...rest } = row;
  return {
    ...rest,
    store_id: params.workspaceId,
    is_new_customer: Number(rest.is_new_customer),
    gross_revenue: Number(rest.gross_revenue),
    tax: Number(rest.tax),
    shipping: Number(rest.shipping),
    discount: Number(rest.discount),
    cogs: Number(rest.cogs),
    shipping_cost: Number(rest.shipping_cost),
    payment_fee: rest.payment_fee === null ? null : Number(rest.payment_fee),
    line_items: rest.line_items.map((l) => ({ ...l, quantity: Number(l.quantity), unit_price: Number(l.unit_price) })),
    version: Number(rest.version),
    refunds: dts.map((dt, i) => ({ dt, amount: Number(amounts[i]) })),
  };
}
