/**
 * Shop platform payloads in the platforms' documented shapes (docs/integrations.md lists the
 * documents): a Shopify Admin REST `Order` and `Refund` as the `orders/*` and `refunds/create`
 * webhooks send them, a WooCommerce REST v3 `order`, and the signing both platforms use. Field
 * names, nesting and value formats (decimal strings, `*_set` money bags, offsets in timestamps,
 * `*_gmt` dates without zone, negative refund totals) follow those documents; values are ours.
 */
import crypto from 'node:crypto';
import type { TestApp } from '../helper.ts';
import { runCommand } from '../../src/cli/run-command.ts';
import { createLogger } from '../../src/log.ts';
import { DESKTOP_UA } from './helpers.ts';

/** Base64 HMAC-SHA256 of the raw body: `X-Shopify-Hmac-Sha256` and `X-WC-Webhook-Signature`. */
export const sign = (secret: string, body: string | Buffer) => crypto.createHmac('sha256', secret).update(body).digest('base64');

/**
 * A JSON object's bytes with a member `note` whose value is the bytes FF FE, which are not UTF-8:
 * text decoded from them and encoded again is other bytes, so only a signature checked over the
 * raw body accepts a delivery that carries them.
 */
export const withBytesFFFE = (json: string): Buffer =>
  Buffer.concat([Buffer.from('{"note":"'), Buffer.from([0xff, 0xfe]), Buffer.from('",'), Buffer.from(json.slice(1))]);

const money = (amount: string, currency = 'USD') => ({
  shop_money: { amount, currency_code: currency },
  presentment_money: { amount, currency_code: currency },
});

/** ISO 8601 with a -05:00 offset, the way Shopify writes shop-local times. */
export function shopifyTime(ms: number): string {
  return `${new Date(ms - 5 * 3_600_000).toISOString().slice(0, 19)}-05:00`;
}

export interface ShopifyOrderInput {
  id: string;
  name: string;
  createdMs: number;
  updatedMs?: number;
  currency?: string;
  total: string;
  tax: string;
  discounts: string;
  shipping: string;
  lines: { variant_id: number | null; quantity: number; price: string; sku?: string; title?: string }[];
  /** Digits, written as a bare JSON number (may be beyond 2^53). */
  customerId?: string;
  test?: boolean;
  cancelledMs?: number;
  /** `paid` unless given (`pending`, `authorized`, `voided`, ...). */
  financialStatus?: string;
  discountCodes?: string[];
  /** Shipping and billing city; a `null` shipping city leaves the shipping address out (a digital order). */
  shippingCity?: string | null;
  billingCity?: string;
  refunds?: object[];
}

/** A Shopify `MailingAddress` as orders carry it. */
const shopifyAddress = (city: string, countryCode: string) => ({
  first_name: 'Bob', last_name: 'Norman', address1: 'Chestnut Street 92', address2: '', city, zip: '97470',
  province: 'Kentucky', country: 'United States', country_code: countryCode, province_code: 'KY', phone: '+1(502)-459-2181',
});

/** A Shopify `Order`; ids are written as bare JSON numbers even beyond 2^53, as Shopify does. */
export function shopifyOrderJson(input: ShopifyOrderInput): string {
  const currency = input.currency ?? 'USD';
  const order = {
    id: '__ID__',
    admin_graphql_api_id: `gid://shopify/Order/${input.id}`,
    name: input.name,
    order_number: Number(input.name.replace('#', '')),
    email: 'buyer@example.com',
    created_at: shopifyTime(input.createdMs),
    processed_at: shopifyTime(input.createdMs),
    updated_at: shopifyTime(input.updatedMs ?? input.createdMs),
    cancelled_at: input.cancelledMs ? shopifyTime(input.cancelledMs) : null,
    cancel_reason: input.cancelledMs ? 'customer' : null,
    test: input.test ?? false,
    currency,
    presentment_currency: currency,
    financial_status: input.financialStatus ?? 'paid',
    taxes_included: false,
    total_price: input.total,
    total_price_set: money(input.total, currency),
    subtotal_price: input.total,
    total_tax: input.tax,
    total_tax_set: money(input.tax, currency),
    total_discounts: input.discounts,
    total_discounts_set: money(input.discounts, currency),
    total_shipping_price_set: money(input.shipping, currency),
    discount_codes: (input.discountCodes ?? []).map((code) => ({ code, amount: input.discounts, type: 'fixed_amount' })),
    shipping_address: input.shippingCity === null ? null : shopifyAddress(input.shippingCity ?? 'Louisville', 'US'),
    billing_address: shopifyAddress(input.billingCity ?? 'Lexington', 'US'),
    line_items: input.lines.map((line, i) => ({
      id: 866550311766439000 + i,
      variant_id: line.variant_id,
      product_id: 632910392,
      title: line.title ?? 'Linen Shirt',
      name: line.title ?? 'Linen Shirt',
      sku: line.sku ?? '',
      quantity: line.quantity,
      price: line.price,
      price_set: money(line.price, currency),
      total_discount: '0.00',
      gift_card: false,
      tax_lines: [],
    })),
    shipping_lines: [
      {
        id: 271878346596884015,
        title: 'Standard',
        price: input.shipping,
        price_set: money(input.shipping, currency),
        discounted_price: input.shipping,
        discounted_price_set: money(input.shipping, currency),
        tax_lines: [],
      },
    ],
    customer: input.customerId ? { id: '__CUSTOMER__', email: 'buyer@example.com', orders_count: 1, currency } : null,
    refunds: input.refunds ?? [],
  };
  return JSON.stringify(order).replace('"__ID__"', input.id).replace('"__CUSTOMER__"', input.customerId ?? 'null');
}

/** A Shopify `Refund` of one line item plus shipping, paid back through one refund transaction. */
export function shopifyRefund(input: { id: number; orderId: string; createdMs: number; amount: string; lineSubtotal: string; lineTax: string; shipping: string }) {
  return {
    id: input.id,
    order_id: '__ORDER_ID__',
    created_at: shopifyTime(input.createdMs),
    processed_at: shopifyTime(input.createdMs),
    note: 'wrong size',
    restock: true,
    admin_graphql_api_id: `gid://shopify/Refund/${input.id}`,
    refund_line_items: [
      { id: 104689539, quantity: 1, line_item_id: 866550311766439000, subtotal: Number(input.lineSubtotal), total_tax: Number(input.lineTax), subtotal_set: money(input.lineSubtotal), total_tax_set: money(input.lineTax) },
    ],
    refund_shipping_lines: [{ id: 1, shipping_line_id: 271878346596884015, subtotal_amount_set: money(input.shipping), tax_amount_set: money('0.00') }],
    order_adjustments: [],
    transactions: [
      { id: 389404469, kind: 'refund', gateway: 'bogus', status: 'success', amount: input.amount, currency: 'USD', created_at: shopifyTime(input.createdMs) },
    ],
  };
}

/** The refund as a webhook body (its `order_id` a bare number like the order's id). */
export const shopifyRefundJson = (refund: ReturnType<typeof shopifyRefund>, orderId: string) =>
  JSON.stringify(refund).replace('"__ORDER_ID__"', orderId);

export interface WooOrderInput {
  id: number;
  number?: string;
  status?: string;
  createdMs: number;
  modifiedMs?: number;
  currency?: string;
  total: string;
  totalTax: string;
  shipping: string;
  discount: string;
  customerId?: number;
  lines: { product_id: number; variation_id: number; quantity: number; subtotal?: string; sku?: string; name?: string }[];
  refunds?: { id: number; total: string }[];
  coupons?: string[];
  shippingCity?: string;
  billingCity?: string;
}

/** `*_gmt`: UTC without a zone. */
const gmt = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** A WooCommerce REST v3 `order`. */
export function wooOrder(input: WooOrderInput) {
  return {
    id: input.id,
    parent_id: 0,
    number: input.number ?? String(input.id),
    order_key: 'wc_order_58d2d042d1d',
    created_via: 'checkout',
    version: '9.4.2',
    status: input.status ?? 'processing',
    currency: input.currency ?? 'USD',
    date_created: gmt(input.createdMs),
    date_created_gmt: gmt(input.createdMs),
    date_modified: gmt(input.modifiedMs ?? input.createdMs),
    date_modified_gmt: gmt(input.modifiedMs ?? input.createdMs),
    discount_total: input.discount,
    discount_tax: '0.00',
    shipping_total: input.shipping,
    shipping_tax: '0.00',
    cart_tax: input.totalTax,
    total: input.total,
    total_tax: input.totalTax,
    prices_include_tax: false,
    customer_id: input.customerId ?? 0,
    billing: { first_name: 'Ada', last_name: 'Lovelace', address_1: '969 Market', city: input.billingCity ?? 'San Francisco', state: 'CA', postcode: '94103', country: 'US', email: 'ada@example.com' },
    shipping: { first_name: 'Ada', last_name: 'Lovelace', address_1: '969 Market', city: input.shippingCity ?? '', state: 'CA', postcode: '94103', country: input.shippingCity ? 'US' : '' },
    payment_method: 'bacs',
    line_items: input.lines.map((line, i) => ({
      id: 315 + i, name: line.name ?? 'Linen Shirt', product_id: line.product_id, variation_id: line.variation_id, quantity: line.quantity,
      tax_class: '', subtotal: line.subtotal ?? '20.00', subtotal_tax: '0.00', total: line.subtotal ?? '20.00', total_tax: '0.00', sku: line.sku ?? '',
      price: Number(line.subtotal ?? '20.00') / Math.max(1, line.quantity),
    })),
    shipping_lines: [{ id: 317, method_title: 'Flat Rate', method_id: 'flat_rate', total: input.shipping, total_tax: '0.00' }],
    coupon_lines: (input.coupons ?? []).map((code, i) => ({ id: 320 + i, code, discount: input.discount, discount_tax: '0.00' })),
    refunds: (input.refunds ?? []).map((r) => ({ id: r.id, reason: '', total: r.total })),
  };
}

/** Runs a CLI command in-process against the test app's stores (as the admin endpoint does). */
export async function cli(t: TestApp, argv: string[]) {
  return runCommand({ config: t.config, stores: t.stores, logger: createLogger('silent'), progress: () => {} }, argv);
}

/**
 * What the storefront pixel sends for a Google-ad visitor who buys: a pageview a minute and forty
 * seconds before `atMs`, then the purchase with the order's name as its transaction id ($122.00).
 */
export async function collectGooglePurchase(t: TestApp, pixelId: string, transactionId: string, atMs: number): Promise<void> {
  const collected = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', 'user-agent': DESKTOP_UA },
    payload: JSON.stringify({
      pixel_id: pixelId, visitor_id: '2716389124431', session_id: '918273645501',
      entry_url: 'https://northwind.example/?gclid=Cj0KCQ', referrer: 'https://www.google.com/', timezone: 'UTC',
      items: [
        { type: 'event', name: 'pageview', url: 'https://northwind.example/', ts: atMs - 100_000 },
        { type: 'conversion', name: 'purchase', url: 'https://northwind.example/thank-you', ts: atMs, transaction_id: transactionId, revenue: 12200, currency: 'USD' },
      ],
    }),
  });
  if (collected.statusCode !== 202) throw new Error(`/collect answered ${collected.statusCode}: ${collected.body}`);
}
