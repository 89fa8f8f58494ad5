/**
 * What every shop platform's order becomes (docs/integrations.md, "How orders are mapped"): the
 * platform mappers (shopify.ts, woocommerce.ts, shopify-csv.ts) produce a PlatformOrder, and
 * `toOrderRow` checks it with the orders row format, applies the workspace rules (currency,
 * COGS from the products table) and gives the row the orders table stores.
 */
import { z } from 'zod';
import { InvalidInput } from '../../kit/errors.ts';
import { flag, text, timestamp } from '../fields.ts';
import { orderRow } from '../row-schemas.ts';
import { describeIssues } from '../../kit/zod-issues.ts';

export interface PlatformRefund {
  /** The platform's refund id ('' when it has none); a refund seen again keeps its first date. */
  id: string;
  /** Timestamp text as the platform wrote it. */
  dt: string;
  amount: number;
}

export interface PlatformOrder {
  transactionId: string;
  /** The order's second identifier (Shopify `name`, WooCommerce `number`), or ''. */
  orderName: string;
  dt: string;
  /** When the platform last changed the order: the row's version (newest wins). */
  updatedAt: string;
  customerId: string;
  isNewCustomer: number;
  currency: string;
  grossRevenue: number;
  tax: number;
  shipping: number;
  discount: number;
  refunds: PlatformRefund[];
  cancelled: boolean;
  /** Line items by variant id; with the products table's costs they give the COGS (platform orders carry no costs). */
  lines: { variantId: string; quantity: number }[];
  /** The platform's name of an orders field, for error messages (`dt` -> `processed_at`). */
  fieldNames?: Partial<Record<string, string>>;
}

/** One row of the orders table, as the write-ahead log and the import writer take it. */
export type OrderRecord = Record<string, unknown> & { transaction_id: string; version: number };

/** A platform order that breaks a rule: answered 400 with this message, nothing stored. */
export class OrderRejected extends InvalidInput {}

// `timestamp` (fields.ts) also refuses times before 2000 or in the future (docs/collection.md).
const platformOrderRow = orderRow.extend({
  order_name: text,
  refund_ids: z.array(z.string()),
  updated_at: timestamp,
  cancelled: flag,
});

/** A timestamp text checked like an order's dates, normalised; throws OrderRejected. */
export function checkHappened(value: string, name: string): string {
  const parsed = timestamp.safeParse(value);
  if (!parsed.success) throw new OrderRejected(`${name}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

export interface OrderRules {
  workspaceId: number;
  /** The workspace currency: an order in another currency is refused. */
  currency: string;
  /** Unit cost in cents per variant id (the products table). */
  costs: Map<string, number>;
}

/** Epoch ms of a normalised `YYYY-MM-DD HH:MM:SS.mmm` UTC timestamp. */
export const timestampMs = (normalised: string) => Date.parse(`${normalised.replace(' ', 'T')}Z`);

/** Checks a platform order and turns it into an orders row; throws OrderRejected. */
export function toOrderRow(order: PlatformOrder, rules: OrderRules): OrderRecord {
  if (order.currency.toUpperCase() !== rules.currency.toUpperCase()) {
    throw new OrderRejected(`order currency ${order.currency || '(none)'} does not match the workspace currency ${rules.currency}`);
  }
  const cogs = order.lines.reduce((sum, line) => sum + line.quantity * (rules.costs.get(line.variantId) ?? 0), 0);
  const parsed = platformOrderRow.safeParse({
    transaction_id: order.transactionId,
    order_name: order.orderName,
    dt: order.dt,
    updated_at: order.updatedAt,
    customer_id: order.customerId,
    is_new_customer: order.isNewCustomer,
    currency: order.currency,
    gross_revenue: order.grossRevenue,
    tax: order.tax,
    shipping: order.shipping,
    discount: order.discount,
    refunds: order.refunds.map((r) => ({ dt: r.dt, amount: r.amount })),
    refund_ids: order.refunds.map((r) => r.id),
    cogs,
    cancelled: order.cancelled ? 1 : 0,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) issue.path[0] = order.fieldNames?.[String(issue.path[0])] ?? issue.path[0]!;
    throw new OrderRejected(describeIssues(parsed.error));
  }
  const { updated_at: updatedAt, ...row } = parsed.data;
  return { store_id: rules.workspaceId, ...row, version: timestampMs(updatedAt) };
}
