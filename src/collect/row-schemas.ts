/**
 * Row formats of the data that comes in from outside: one zod schema per kind, named after the
 * public field names (docs/api.md), built from the field parsers of `fields.ts`. Unknown fields
 * (store_id, channel fields of conversions) are dropped.
 */
import { z } from 'zod';
import {
  cents, date, decisiveStatus, flag, lineItems, lowerName, lowerText, name, optionalCents, optionalTimestamp, orderStatus, refunds, requiredCents,
  stringArray, text, timestamp, uint64, upperText, type OrderStatus,
} from './fields.ts';

export const eventRow = z
  .object({
    dt: timestamp,
    name,
    session_id: uint64,
    visitor_id: uint64,
    visitor_timezone: text,
    adv_source: lowerText,
    adv_campaign_id: text,
    adv_adgroup_id: text,
    adv_ad_id: text,
    adv_asset_group_id: text,
    utm_source: text,
    utm_medium: text,
    utm_campaign: text,
    utm_content: text,
    utm_term: text,
    device_type: text,
    country_code: upperText,
    city: text,
    hostname: text,
    pathname: text,
    referrer: text,
    entry_meta_keys: stringArray,
    entry_meta_values: stringArray,
    customer_id: text,
  })
  .refine((row) => row.entry_meta_keys.length === row.entry_meta_values.length, {
    message: 'entry_meta_keys and entry_meta_values must have the same length',
    path: ['entry_meta_values'],
  });

export const conversionRow = z.object({
  dt: timestamp,
  name,
  session_id: uint64,
  visitor_id: uint64,
  customer_id: text,
  transaction_id: text,
  is_new_customer: flag,
  transaction_gross_revenue: cents,
  transaction_currency: upperText,
  transaction_country_code: upperText,
  transaction_city: text,
  hostname: text,
  coupon_code: text,
  line_items: lineItems,
});

/**
 * The fields of an orders row (import, the order webhook, the platform mappings). `updated_at`
 * versions the row (newest wins); `cancelled` is the older way to say `status: cancelled`.
 */
export const orderFields = {
  transaction_id: name,
  dt: timestamp,
  updated_at: optionalTimestamp,
  customer_id: text,
  is_new_customer: flag,
  currency: upperText,
  gross_revenue: cents,
  tax: cents,
  shipping: cents,
  discount: cents,
  refunds,
  cogs: cents,
  shipping_cost: cents,
  /** Absent: computed from the workspace's payment-fee settings. */
  payment_fee: optionalCents,
  status: orderStatus,
  cancelled: flag,
  platform_status: text,
  coupon_code: text,
  city: text,
  country_code: upperText,
  line_items: lineItems,
};

/** Folds the `cancelled` flag into `status`. */
export function foldCancelled<T extends { status: OrderStatus; cancelled: number }>(row: T): Omit<T, 'cancelled'> {
  const { cancelled, ...rest } = row;
  return { ...rest, status: cancelled === 1 ? decisiveStatus(row.status, 'cancelled') : row.status };
}

/** What a refund beyond its order says: together the refunds may give back at most what the order took. */
export const refundsOverOrder = (refunded: number, grossRevenue: number) => `${refunded} in total, more than the order's gross_revenue of ${grossRevenue}`;

/**
 * An order's refunds add up to at most its gross_revenue (docs/collection.md, "Bounds"); checked
 * on every path an order comes in by (imports, the order webhook, the shop platforms).
 */
export function checkRefundsWithinOrder(order: { gross_revenue: number; refunds: { amount: number }[] }, ctx: z.RefinementCtx): void {
  const refunded = order.refunds.reduce((sum, refund) => sum + refund.amount, 0);
  if (refunded > order.gross_revenue) ctx.addIssue({ code: 'custom', path: ['refunds'], message: refundsOverOrder(refunded, order.gross_revenue) });
}

export const orderRow = z.object(orderFields).superRefine(checkRefundsWithinOrder).transform(foldCancelled);

export const adRow = z.object({
  dt: date,
  source: lowerName,
  ad_id: name,
  adaccount_id: text,
  campaign_id: text,
  campaign_name: text,
  adgroup_id: text,
  adgroup_name: text,
  ad_name: text,
  spend: cents,
  impressions: cents,
  clicks: cents,
  reach: cents,
});

export const productRow = z.object({
  product_handle: name,
  variant_id: name,
  title: text,
  image_path_or_url: text,
  cost: cents,
});

export const expenseRow = z.object({
  dt: date,
  name,
  amount: requiredCents,
});

/**
 * One daily weather observation (`import --kind weather`): `dt, country_code, city?,
 * temperature_c, precipitation_mm?, condition?`. Numbers may be text.
 */
export const weatherRow = z.object({
  dt: date,
  country_code: z
    .string({ error: 'expected a two-letter country code' })
    .trim()
    .regex(/^[A-Za-z]{2}$/, { error: 'expected a two-letter country code' })
    .transform((v) => v.toUpperCase()),
  city: text,
  temperature_c: z.coerce.number({ error: 'expected a number' }).min(-90).max(60),
  precipitation_mm: z.coerce.number({ error: 'expected a number' }).min(0).max(2000).default(0),
  condition: z.string().trim().toLowerCase().max(40).default(''),
});

export type EventRow = z.infer<typeof eventRow>;
export type ConversionRow = z.infer<typeof conversionRow>;
export type OrderRow = z.infer<typeof orderRow>;
export type AdRow = z.infer<typeof adRow>;
export type ProductRow = z.infer<typeof productRow>;
export type ExpenseRow = z.infer<typeof expenseRow>;
