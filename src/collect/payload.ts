/**
 * The body of `POST /collect` (docs/collection.md section 2) and its turn into table rows. The
 * whole request is checked before anything is stored: one bad item refuses the request.
 */
import { z } from 'zod';
import { InvalidInput } from '../kit/errors.ts';
import { flag, formatTimestamp, happenedInRange, lineItems, uint64, type LineItem } from './fields.ts';
import type { ConversionRow, EventRow } from './row-schemas.ts';
import { deriveAttribution } from './channel.ts';
import { CONVERSION_NAME } from '../kit/conversion-name.ts';

export const MAX_ITEMS = 50;
/** Line items of one purchase (the pixel sends at most this many). */
export const MAX_PURCHASE_LINES = 100;
/**
 * Items may arrive late (an offline queue) but not older than this; on top of the range of
 * everything that happened (`happenedInRange`, which also bounds how far ahead they may be).
 */
export const MAX_AGE_MS = 7 * 86_400_000;
/**
 * Most revenue one collected conversion may carry, in cents: 100,000,000.00 in the workspace's
 * currency, above any single order in any currency (a large order in rupiah or dong included).
 * The collector takes requests from anyone; orders of any size come in signed, through the order
 * webhook and the shop platforms (docs/collection.md, "Bounds").
 */
export const MAX_CONVERSION_REVENUE_CENTS = 10_000_000_000;
/** What a purchase's line items add up to, in cents; bounded like its revenue. */
const lineTotal = (lines: LineItem[]) => lines.reduce((sum, line) => sum + line.unit_price * line.quantity, 0);
/** Event and conversion names that are always conversions, whatever the type says. */
export const CONVERSION_NAMES = new Set(['purchase', 'lead', 'subscribe']);

const shortText = (max: number) => z.string({ error: 'expected a string' }).max(max, `at most ${max} characters`);

const httpUrl = z.string({ error: 'expected an absolute http(s) URL' }).max(4000, 'at most 4000 characters').transform((value, ctx) => {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: 'custom', message: 'expected an absolute http(s) URL' });
  return z.NEVER;
});

const positiveId = uint64.refine((id) => id !== '0', { message: 'expected a positive integer' });

const epochMs = z.number({ error: 'expected milliseconds since the epoch' }).int('expected milliseconds since the epoch').nonnegative('expected milliseconds since the epoch');

const item = z.object({
  type: z.enum(['event', 'conversion'], { error: 'expected event or conversion' }),
  name: z.string({ error: 'expected a name' }).regex(CONVERSION_NAME, 'expected 1-64 letters, digits or _ . : -'),
  url: httpUrl,
  ts: epochMs,
  transaction_id: shortText(200).optional(),
  revenue: z.number({ error: 'expected an integer amount in cents' }).int('expected an integer amount in cents').min(0, 'must not be negative').max(MAX_CONVERSION_REVENUE_CENTS, `at most ${MAX_CONVERSION_REVENUE_CENTS} cents`).optional(),
  currency: z.string({ error: 'expected a three-letter currency code' }).regex(/^[A-Za-z]{3}$/, 'expected a three-letter currency code').optional(),
  customer_id: shortText(200).optional(),
  is_new_customer: flag.optional(),
  coupon_code: shortText(200).optional(),
  /** What a purchase bought (docs/collection.md section 1): stored as the conversion's line items. */
  items: lineItems
    .refine((lines) => lines.length <= MAX_PURCHASE_LINES, `at most ${MAX_PURCHASE_LINES} items`)
    .refine((lines) => lineTotal(lines) <= MAX_CONVERSION_REVENUE_CENTS, `unit_price x quantity: at most ${MAX_CONVERSION_REVENUE_CENTS} cents over all items`),
});

export const collectBody = z.object({
  pixel_id: z.string({ error: 'is required' }).min(1, 'is required').max(100),
  visitor_id: positiveId,
  session_id: positiveId,
  entry_url: httpUrl,
  referrer: shortText(4000).optional().default(''),
  timezone: z.string({ error: 'expected an IANA time zone' }).regex(/^$|^[A-Za-z0-9_+\-/]{1,64}$/, 'expected an IANA time zone').optional().default(''),
  customer_id: shortText(200).optional().default(''),
  sent_at: epochMs.optional(),
  items: z.array(item, { error: 'expected an array of items' }).min(1, 'must not be empty').max(MAX_ITEMS, `at most ${MAX_ITEMS} items`),
});

export type CollectBody = z.infer<typeof collectBody>;

/** What the server knows about the request, never taken from the body. */
export interface RequestContext {
  workspaceId: number;
  now: number;
  deviceType: string;
  countryCode: string;
  city: string;
}

type Stored<T> = T & { store_id: number };

/** Table rows for a checked body; throws InvalidInput on timestamps out of range. */
export function toRows(body: CollectBody, ctx: RequestContext): { events: Stored<EventRow>[]; conversions: Stored<ConversionRow>[] } {
  const attribution = deriveAttribution(body.entry_url.searchParams);
  const offset = body.sent_at === undefined ? 0 : ctx.now - body.sent_at;
  const events: Stored<EventRow>[] = [];
  const conversions: Stored<ConversionRow>[] = [];
  body.items.forEach((it, index) => {
    const at = it.ts + offset;
    if (at < ctx.now - MAX_AGE_MS || !happenedInRange(at, ctx.now)) {
      throw new InvalidInput(`items.${index}.ts: timestamp out of range (older than 7 days or in the future)`);
    }
    const dt = formatTimestamp(new Date(at));
    // Each item's own object, completed in place by Object.assign below: on Node 20 a literal
    // that starts with a spread of it or of the attribution took ~50 µs per row (V8 left its fast
    // cloning path), more than everything else the collector does for a request.
    const common = { store_id: ctx.workspaceId, dt, name: it.name, session_id: body.session_id, visitor_id: body.visitor_id };
    if (it.type === 'conversion' || CONVERSION_NAMES.has(it.name)) {
      conversions.push(Object.assign(common, {
        customer_id: it.customer_id ?? body.customer_id,
        transaction_id: it.transaction_id ?? '',
        is_new_customer: it.is_new_customer ?? 0,
        transaction_gross_revenue: it.revenue ?? 0,
        transaction_currency: (it.currency ?? '').toUpperCase(),
        transaction_country_code: ctx.countryCode,
        transaction_city: ctx.city,
        hostname: it.url.hostname,
        coupon_code: it.coupon_code ?? '',
        line_items: it.items,
      }));
      return;
    }
    events.push(Object.assign(common, { visitor_timezone: body.timezone }, attribution, {
      device_type: ctx.deviceType,
      country_code: ctx.countryCode,
      city: ctx.city,
      hostname: it.url.hostname,
      pathname: it.url.pathname,
      referrer: body.referrer,
      customer_id: body.customer_id,
    }));
  });
  return { events, conversions };
}
