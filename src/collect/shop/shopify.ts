/**
 * Shopify's order and refund JSON (Admin REST resources `Order` and `Refund`, as sent by the
 * `orders/*` and `refunds/create` webhooks) mapped to PlatformOrder. Only the fields read here
 * are checked; everything else in the payload is ignored. Sources and the mapping table:
 * docs/integrations.md ("Shopify").
 */
import { z } from 'zod';
import { describeIssues } from '../../kit/zod-issues.ts';
import type { OrderStatus } from '../fields.ts';
import { moneyAmount, optionalMoney, positiveMoney } from './money.ts';
import { OrderRejected, type PlatformLine, type PlatformOrder, type PlatformRefund } from './order.ts';

/** A numeric id: a JSON number, or digits (ids beyond 2^53 arrive as strings, see parse-json.ts). */
export const numericId = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d{1,20}$/, 'expected a numeric id')])
  .transform(String);

/** A `*_set` money bag: only the shop currency side is read. */
const moneySet = z.object({ shop_money: z.object({ amount: moneyAmount, currency_code: z.string().optional() }) }).nullish();
/** The same for money Shopify documents as positive (what a refund returns). */
const positiveSet = z.object({ shop_money: z.object({ amount: positiveMoney, currency_code: z.string().optional() }) }).nullish();

/** The shop-currency amount: `<name>_set.shop_money.amount`, else the plain field (also in shop currency). */
function shopMoney(set: z.infer<typeof moneySet>, plain: number): number {
  return set ? set.shop_money.amount : plain;
}

const timestampText = z.string({ error: 'expected an ISO 8601 timestamp' });

const refundSchema = z.object({
  id: numericId,
  order_id: numericId.optional(),
  created_at: timestampText,
  processed_at: timestampText.nullish(),
  transactions: z
    .array(z.object({ kind: z.string().nullish(), status: z.string().nullish(), amount: positiveMoney, currency: z.string().nullish() }))
    .default([]),
  refund_line_items: z
    .array(z.object({ subtotal_set: positiveSet, subtotal: positiveMoney, total_tax_set: positiveSet, total_tax: positiveMoney }))
    .default([]),
  refund_shipping_lines: z.array(z.object({ subtotal_amount_set: positiveSet, tax_amount_set: positiveSet })).default([]),
  order_adjustments: z
    .array(z.object({ amount_set: moneySet, amount: moneyAmount, tax_amount_set: moneySet, tax_amount: moneyAmount }))
    .default([]),
});

type ShopifyRefund = z.infer<typeof refundSchema>;

const address = z.object({ city: z.string().nullish(), country_code: z.string().nullish() }).nullish();

const lineItem = z.object({
  product_id: numericId.nullish(),
  variant_id: numericId.nullish(),
  sku: z.string().nullish(),
  title: z.string().nullish(),
  name: z.string().nullish(),
  quantity: z.number().int().nonnegative(),
  price_set: moneySet,
  price: moneyAmount,
});

const shippingLine = z.object({ discounted_price_set: moneySet, discounted_price: optionalMoney, price_set: moneySet, price: optionalMoney });

const orderSchema = z.object({
  id: numericId,
  name: z.string().nullish(),
  created_at: timestampText,
  processed_at: timestampText.nullish(),
  updated_at: timestampText.nullish(),
  cancelled_at: timestampText.nullish(),
  test: z.boolean().nullish(),
  financial_status: z.string().nullish(),
  discount_codes: z.array(z.object({ code: z.string().nullish() })).nullish(),
  shipping_address: address,
  billing_address: address,
  currency: z.string({ error: 'is required' }),
  total_price_set: moneySet,
  total_price: moneyAmount,
  total_tax_set: moneySet,
  total_tax: moneyAmount,
  total_discounts_set: moneySet,
  total_discounts: moneyAmount,
  total_shipping_price_set: moneySet,
  shipping_lines: z.array(shippingLine).default([]),
  customer: z.object({ id: numericId, orders_count: z.number().nullish() }).nullish(),
  line_items: z.array(lineItem).default([]),
  refunds: z.array(refundSchema).default([]),
});

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new OrderRejected(describeIssues(parsed.error));
  return parsed.data;
}

/**
 * Money returned by one refund, in shop currency: its successful (or pending) refund
 * transactions when they are in the shop currency; otherwise (a refund to store credit, or a
 * payment in another presentment currency) its parts: refunded line items and shipping lines
 * with their tax, minus order adjustments (older API versions book refunded shipping as a
 * negative adjustment).
 */
export function refundAmount(refund: ShopifyRefund, shopCurrency: string): number {
  const money = refund.transactions.filter(
    (t) => t.kind === 'refund' && (t.status === 'success' || t.status === 'pending') && (t.currency ?? '').toUpperCase() === shopCurrency.toUpperCase(),
  );
  if (money.length > 0) return money.reduce((sum, t) => sum + t.amount, 0);
  const lines = refund.refund_line_items.reduce((sum, l) => sum + shopMoney(l.subtotal_set, l.subtotal) + shopMoney(l.total_tax_set, l.total_tax), 0);
  const shipping = refund.refund_shipping_lines.reduce((sum, l) => sum + shopMoney(l.subtotal_amount_set, 0) + shopMoney(l.tax_amount_set, 0), 0);
  const adjustments = refund.order_adjustments.reduce((sum, a) => sum + shopMoney(a.amount_set, a.amount) + shopMoney(a.tax_amount_set, a.tax_amount), 0);
  return Math.max(0, lines + shipping - adjustments);
}

function toRefund(refund: ShopifyRefund, shopCurrency: string): PlatformRefund {
  return { id: refund.id, dt: refund.processed_at ?? refund.created_at, amount: refundAmount(refund, shopCurrency) };
}

/** Where each orders field comes from, for error messages. */
const FIELD_NAMES = {
  transaction_id: 'id',
  order_name: 'name',
  dt: 'processed_at',
  updated_at: 'updated_at',
  customer_id: 'customer.id',
  currency: 'currency',
  gross_revenue: 'total_price_set',
  tax: 'total_tax_set',
  shipping: 'shipping_lines',
  discount: 'total_discounts_set',
  refunds: 'refunds',
};

/**
 * Why an order is or is not a sale (docs/integrations.md, "What counts as a sale"): test orders
 * and cancelled orders never are, nor a voided payment; pending and authorized payments are
 * sales, as in Shopify's own sales reports.
 */
export function shopifyStatus(order: { test?: boolean | null; cancelledAt?: string | null; financialStatus?: string | null }): OrderStatus {
  if (order.test) return 'test';
  if (order.cancelledAt) return 'cancelled';
  return order.financialStatus === 'voided' ? 'voided' : 'sale';
}

type ShopifyAddress = z.infer<typeof address>;

/** City and country of the shipping address, else of the billing address. */
export function shopifyPlace(shipping: ShopifyAddress, billing: ShopifyAddress): { city: string; countryCode: string } {
  const place = shipping?.city?.trim() ? shipping : billing;
  return { city: place?.city?.trim() ?? '', countryCode: (place?.country_code ?? shipping?.country_code ?? '').trim().toUpperCase() };
}

function toLine(line: z.infer<typeof lineItem>): PlatformLine {
  return {
    productId: line.product_id ?? '',
    variantId: line.variant_id ?? '',
    sku: line.sku ?? '',
    title: line.title ?? line.name ?? '',
    quantity: line.quantity,
    unitPrice: shopMoney(line.price_set, line.price),
  };
}

/** Maps the body of an `orders/*` webhook (a Shopify order). */
export function mapShopifyOrder(body: unknown): PlatformOrder {
  const order = parse(orderSchema, body);
  // Shipping as charged: each line after its shipping discounts.
  const shippingLines = order.shipping_lines.reduce(
    (sum, l) => sum + (l.discounted_price_set?.shop_money.amount ?? l.discounted_price ?? l.price_set?.shop_money.amount ?? l.price ?? 0),
    0,
  );
  return {
    transactionId: order.id,
    orderName: order.name ?? '',
    dt: order.processed_at ?? order.created_at,
    updatedAt: order.updated_at ?? order.created_at,
    customerId: order.customer?.id ?? '',
    isNewCustomer: order.customer?.orders_count === 1 ? 1 : 0,
    currency: order.currency.toUpperCase(),
    grossRevenue: shopMoney(order.total_price_set, order.total_price),
    tax: shopMoney(order.total_tax_set, order.total_tax),
    shipping: order.shipping_lines.length > 0 ? shippingLines : shopMoney(order.total_shipping_price_set, 0),
    discount: shopMoney(order.total_discounts_set, order.total_discounts),
    refunds: order.refunds.map((r) => toRefund(r, order.currency)),
    status: shopifyStatus({ test: order.test, cancelledAt: order.cancelled_at, financialStatus: order.financial_status }),
    platformStatus: order.financial_status ?? '',
    couponCode: order.discount_codes?.find((d) => d.code?.trim())?.code?.trim() ?? '',
    ...shopifyPlace(order.shipping_address, order.billing_address),
    lines: order.line_items.map(toLine),
    fieldNames: FIELD_NAMES,
  };
}

/** Maps the body of a `refunds/create` webhook (a Shopify refund); it names its order by `order_id`. */
export function mapShopifyRefund(body: unknown, shopCurrency: string): { orderId: string; refund: PlatformRefund } {
  const refund = parse(refundSchema, body);
  if (!refund.order_id) throw new OrderRejected('order_id: is required');
  return { orderId: refund.order_id, refund: toRefund(refund, shopCurrency) };
}
