/**
 * WooCommerce's order JSON (REST API v3 `order`, the body of the `order.*` webhooks) mapped to
 * PlatformOrder. Only the fields read here are checked. Sources and the mapping table:
 * docs/integrations.md ("WooCommerce").
 */
import { z } from 'zod';
import { describeIssues } from '../../kit/zod-issues.ts';
import type { OrderStatus } from '../fields.ts';
import { moneyAmount, toCents } from './money.ts';
import { OrderRejected, type PlatformLine, type PlatformOrder } from './order.ts';
import { numericId } from './shopify.ts';

/**
 * Order statuses that are no sale (docs/integrations.md, "What counts as a sale"): cancelled,
 * failed and trashed orders; and orders whose payment never came (`pending`, and the drafts of the
 * block checkout), which WooCommerce Analytics leaves out by default too. Every other status
 * (`processing`, `on-hold`, `completed`, `refunded`, a shop's own statuses) is a sale.
 */
const CANCELLED = new Set(['cancelled', 'failed', 'trash']);
const UNPAID = new Set(['pending', 'checkout-draft', 'auto-draft']);

export function wooStatus(status: string): OrderStatus {
  if (CANCELLED.has(status)) return 'cancelled';
  return UNPAID.has(status) ? 'pending' : 'sale';
}

/** `*_gmt` dates are UTC written without a zone (`2017-03-22T16:28:02`). */
const gmtDate = z
  .string({ error: 'expected a date' })
  .transform((value) => (/(Z|[+-]\d{2}:?\d{2})$/.test(value.trim()) ? value.trim() : `${value.trim()}Z`));

/** Where each orders field comes from, for error messages. */
const FIELD_NAMES = {
  transaction_id: 'id',
  order_name: 'number',
  dt: 'date_created_gmt',
  updated_at: 'date_modified_gmt',
  customer_id: 'customer_id',
  currency: 'currency',
  gross_revenue: 'total',
  tax: 'total_tax',
  shipping: 'shipping_total',
  discount: 'discount_total',
  refunds: 'refunds',
};

const address = z.object({ city: z.string().nullish(), country: z.string().nullish() }).nullish();

const lineItem = z.object({
  product_id: numericId.nullish(),
  variation_id: numericId.nullish(),
  sku: z.string().nullish(),
  name: z.string().nullish(),
  quantity: z.number().int().nonnegative(),
  subtotal: moneyAmount,
  price: z.union([z.number(), z.string()]).nullish(),
});

const orderSchema = z.object({
  id: numericId,
  number: z.union([z.string(), z.number()]).nullish(),
  status: z.string().nullish(),
  currency: z.string({ error: 'is required' }),
  date_created_gmt: gmtDate,
  date_modified_gmt: gmtDate.nullish(),
  discount_total: moneyAmount,
  shipping_total: moneyAmount,
  total: moneyAmount,
  total_tax: moneyAmount,
  customer_id: numericId.nullish(),
  coupon_lines: z.array(z.object({ code: z.string().nullish() })).nullish(),
  shipping: address,
  billing: address,
  line_items: z.array(lineItem).default([]),
  refunds: z.array(z.object({ id: numericId, total: moneyAmount })).default([]),
});

const idOnly = z.object({ id: numericId });

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new OrderRejected(describeIssues(parsed.error));
  return parsed.data;
}

const nonZeroId = (id: string | null | undefined) => (id && id !== '0' ? id : '');

/** Unit price before coupons: the line's `subtotal` over its quantity (`price` is after them). */
function toLine(line: z.infer<typeof lineItem>): PlatformLine {
  const unitPrice = line.quantity > 0 ? Math.round(line.subtotal / line.quantity) : (toCents(line.price) ?? 0);
  return {
    productId: nonZeroId(line.product_id),
    variantId: nonZeroId(line.variation_id),
    sku: line.sku ?? '',
    title: line.name ?? '',
    quantity: line.quantity,
    unitPrice: Math.max(0, unitPrice),
  };
}

/**
 * Maps a WooCommerce order. Its refunds carry no date: a refund gets the date it was first seen
 * with (`knownRefundDates`, from the stored order), else the order's `date_modified_gmt`.
 */
export function mapWooOrder(body: unknown, knownRefundDates: Map<string, string> = new Map()): PlatformOrder {
  const order = parse(orderSchema, body);
  const modified = order.date_modified_gmt ?? order.date_created_gmt;
  const number = order.number === null || order.number === undefined ? '' : String(order.number);
  return {
    transactionId: order.id,
    orderName: number === order.id ? '' : number,
    dt: order.date_created_gmt,
    updatedAt: modified,
    customerId: order.customer_id && order.customer_id !== '0' ? order.customer_id : '',
    isNewCustomer: 0,
    currency: order.currency.toUpperCase(),
    grossRevenue: order.total,
    tax: order.total_tax,
    shipping: order.shipping_total,
    discount: order.discount_total,
    // WooCommerce lists refunds as negative totals.
    refunds: order.refunds.map((r) => ({ id: r.id, dt: knownRefundDates.get(r.id) ?? modified, amount: Math.abs(r.total) })),
    status: wooStatus(order.status ?? ''),
    platformStatus: order.status ?? '',
    couponCode: order.coupon_lines?.find((c) => c.code?.trim())?.code?.trim() ?? '',
    ...wooPlace(order.shipping, order.billing),
    lines: order.line_items.map(toLine),
    fieldNames: FIELD_NAMES,
  };
}

/** City and country of the shipping address, else of the billing address. */
function wooPlace(shipping: z.infer<typeof address>, billing: z.infer<typeof address>): { city: string; countryCode: string } {
  const place = shipping?.city?.trim() ? shipping : billing;
  return { city: place?.city?.trim() ?? '', countryCode: (place?.country ?? '').trim().toUpperCase() };
}

/**
 * The order id of a body: all an `order.deleted` delivery carries, and what an order is looked
 * up by before mapping (for the dates of refunds already seen).
 */
export function wooOrderId(body: unknown): string {
  return parse(idOnly, body).id;
}
