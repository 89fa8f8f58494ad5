/**
 * The demo shop sells on Shopify: its orders are written as Shopify `Order` JSON (the body of an
 * `orders/*` webhook) and reach the orders table through the same mapping as real deliveries
 * (src/collect/shop). What Shopify does not know, the shop's shipping cost per parcel and, for
 * some orders, the processor fee, is added afterwards, as a shop would import it.
 */
import { mapShopifyOrder } from '../../collect/shop/shopify.ts';
import { toOrderRow, type OrderRecord } from '../../collect/shop/order.ts';
import { PRODUCTS } from './catalog.ts';

export interface DemoOrder {
  /** A Shopify order as its webhooks send it. */
  order: Record<string, unknown>;
  shippingCost: number;
  paymentFee?: number;
}

export interface DemoLine {
  productId: string;
  variantId: string;
  sku: string;
  title: string;
  price: number;
}

export interface DemoOrderInput {
  id: string;
  number: number;
  at: number;
  customerId: string;
  isNew: number;
  lines: DemoLine[];
  discount: number;
  /** The discount code, or ''. */
  coupon: string;
  /** Where it ships. */
  city: string;
  country: string;
  shipping: number;
  tax: number;
  refunds: { id: string; at: number; amount: number }[];
  /** `paid` (or `partially_refunded` with refunds) unless given. */
  financialStatus?: string;
  cancelledAt?: number;
  test?: boolean;
  /** When this state of the order was written; the latest of its events unless given. */
  updatedAt?: number;
}

const CURRENCY = 'USD';
const amount = (cents: number) => (cents / 100).toFixed(2);
const money = (cents: number) => ({
  shop_money: { amount: amount(cents), currency_code: CURRENCY },
  presentment_money: { amount: amount(cents), currency_code: CURRENCY },
});
const iso = (ms: number) => new Date(ms).toISOString();

const address = (city: string, country: string) => ({ first_name: 'Demo', last_name: 'Buyer', address1: '1 Demo Street', city, country_code: country, zip: '10001' });

export function shopifyOrder(o: DemoOrderInput): Record<string, unknown> {
  const subtotal = o.lines.reduce((sum, l) => sum + l.price, 0);
  const total = subtotal - o.discount + o.shipping + o.tax;
  const updated = o.updatedAt ?? Math.max(o.at, o.cancelledAt ?? 0, ...o.refunds.map((r) => r.at));
  return {
    id: Number(o.id),
    admin_graphql_api_id: `gid://shopify/Order/${o.id}`,
    name: `#${o.number}`,
    order_number: o.number,
    created_at: iso(o.at),
    processed_at: iso(o.at),
    updated_at: iso(updated),
    cancelled_at: o.cancelledAt === undefined ? null : iso(o.cancelledAt),
    cancel_reason: o.cancelledAt === undefined ? null : 'customer',
    test: o.test ?? false,
    currency: CURRENCY,
    presentment_currency: CURRENCY,
    financial_status: o.financialStatus ?? (o.refunds.length ? 'partially_refunded' : 'paid'),
    total_price: amount(total),
    total_price_set: money(total),
    subtotal_price: amount(subtotal - o.discount),
    total_tax: amount(o.tax),
    total_tax_set: money(o.tax),
    total_discounts: amount(o.discount),
    total_discounts_set: money(o.discount),
    total_shipping_price_set: money(o.shipping),
    discount_codes: o.coupon ? [{ code: o.coupon, amount: amount(o.discount), type: 'percentage' }] : [],
    shipping_address: address(o.city, o.country),
    billing_address: address(o.city, o.country),
    line_items: o.lines.map((l) => ({
      product_id: Number(l.productId),
      variant_id: Number(l.variantId),
      sku: l.sku,
      title: l.title,
      name: l.title,
      quantity: 1,
      price: amount(l.price),
      price_set: money(l.price),
    })),
    shipping_lines: [{ title: 'Standard', price: amount(o.shipping), price_set: money(o.shipping), discounted_price: amount(o.shipping), discounted_price_set: money(o.shipping) }],
    customer: { id: Number(o.customerId), orders_count: o.isNew ? 1 : 2 },
    refunds: o.refunds.map((r) => ({
      id: Number(r.id),
      order_id: Number(o.id),
      created_at: iso(r.at),
      processed_at: iso(r.at),
      transactions: [{ kind: 'refund', status: 'success', amount: amount(r.amount), currency: CURRENCY }],
      refund_line_items: [],
      order_adjustments: [],
    })),
  };
}

/** Unit cost per variant id: what the demo's products rows hold. */
export const DEMO_COSTS = new Map(PRODUCTS.flatMap((p) => p.variants.map((v) => [v, p.cost] as const)));

/** The orders row of a demo order, mapped like a webhook delivery. */
export function demoOrderRow(demo: DemoOrder, workspaceId: number): OrderRecord {
  const row = toOrderRow(mapShopifyOrder(demo.order), { workspaceId, currency: CURRENCY, costs: DEMO_COSTS });
  return { ...row, shipping_cost: demo.shippingCost, ...(demo.paymentFee === undefined ? {} : { payment_fee: demo.paymentFee }) };
}
