/**
 * What every shop platform's order becomes (docs/integrations.md, "How orders are mapped"): the
 * platform mappers (shopify.ts, woocommerce.ts, shopify-csv.ts) produce a PlatformOrder, and
 * `toOrderRow` checks it with the orders row format, applies the workspace rules (currency,
 * COGS from the products table) and gives the row the orders table stores.
 */
import { z } from 'zod';
import { InvalidInput } from '../../kit/errors.ts';
import { MAX_LINE_TEXT, orderVersion, text, timestamp, type OrderStatus } from '../fields.ts';
import { checkRefundsWithinOrder, foldCancelled, orderFields } from '../row-schemas.ts';
import { describeIssues } from '../../kit/zod-issues.ts';

export interface PlatformRefund {
  /** The platform's refund id ('' when it has none); a refund seen again keeps its first date. */
  id: string;
  /** Timestamp text as the platform wrote it. */
  dt: string;
  amount: number;
}

export interface PlatformLine {
  productId: string;
  variantId: string;
  sku: string;
  title: string;
  quantity: number;
  /** Cents per unit, before order-level discounts. */
  unitPrice: number;
}

/** The products table's key of a line's unit cost: the variant, else the product (a product without variants). */
export const costKey = (line: PlatformLine) => line.variantId || line.productId;

const clip = (value: string) => value.slice(0, MAX_LINE_TEXT);

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
  /** Whether the order is a sale, and why not (docs/integrations.md, "What counts as a sale"). */
  status: OrderStatus;
  /** The platform's own status word (Shopify `financial_status`, WooCommerce `status`), or ''. */
  platformStatus: string;
  /** The first discount code, or ''. */
  couponCode: string;
  /** Shipping address, else billing address. */
  city: string;
  countryCode: string;
  /** With the products table's costs, the lines' variant ids give the COGS (platform orders carry no costs). */
  lines: PlatformLine[];
  /** The platform's name of an orders field, for error messages (`dt` -> `processed_at`). */
  fieldNames?: Partial<Record<string, string>>;
}

/** One row of the orders table, as the write-ahead log and the import writer take it. */
export type OrderRecord = Record<string, unknown> & { transaction_id: string; version: number };

/** A platform order that breaks a rule: answered 400 with this message, nothing stored. */
export class OrderRejected extends InvalidInput {}

// `timestamp` (fields.ts) also refuses times before 2000 or in the future (docs/collection.md).
const platformOrderRow = z.object({
  ...orderFields,
  order_name: text,
  refund_ids: z.array(z.string()),
  updated_at: timestamp,
}).superRefine(checkRefundsWithinOrder);

/** A timestamp text checked like an order's dates, normalised; throws OrderRejected. */
export function checkHappened(value: string, name: string): string {
  const parsed = timestamp.safeParse(value);
  if (!parsed.success) throw new OrderRejected(describeIssues(parsed.error, { first: true, root: name }));
  return parsed.data;
}

export interface OrderRules {
  workspaceId: number;
  /** The workspace currency: an order in another currency is refused. */
  currency: string;
  /** Unit cost in cents per variant id (the products table). */
  costs: Map<string, number>;
}

/** Checks a platform order and turns it into an orders row; throws OrderRejected. */
export function toOrderRow(order: PlatformOrder, rules: OrderRules): OrderRecord {
  if (order.currency.toUpperCase() !== rules.currency.toUpperCase()) {
    throw new OrderRejected(`order currency ${order.currency || '(none)'} does not match the workspace currency ${rules.currency}`);
  }
  const cogs = order.lines.reduce((sum, line) => sum + line.quantity * (rules.costs.get(costKey(line)) ?? 0), 0);
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
    status: order.status,
    platform_status: order.platformStatus,
    coupon_code: order.couponCode,
    city: order.city,
    country_code: order.countryCode,
    // A line that names no product (a deleted one without a title) is left out; long names are clipped.
    line_items: order.lines
      .filter((l) => l.productId || l.variantId || l.sku.trim() || l.title.trim())
      .map((l) => ({ product_id: l.productId, variant_id: l.variantId, sku: clip(l.sku), title: clip(l.title), quantity: l.quantity, unit_price: l.unitPrice })),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) issue.path[0] = order.fieldNames?.[String(issue.path[0])] ?? issue.path[0]!;
    throw new OrderRejected(describeIssues(parsed.error));
  }
  const { updated_at: updatedAt, ...row } = foldCancelled(parsed.data);
  return { store_id: rules.workspaceId, ...row, version: orderVersion(updatedAt) };
}
