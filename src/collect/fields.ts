/**
 * Row formats of the data that comes in from outside (imports, the demo, later the collector):
 * one zod schema per kind, named after the public field names (service-spec.md), plus the
 * normalisers they share. A schema accepts the loose forms people export (digit strings for
 * integers, ISO timestamps with offsets, JSON text for arrays) and yields one canonical form:
 * timestamps `YYYY-MM-DD HH:MM:SS.mmm` in UTC, 64-bit ids as digit strings, cents as numbers.
 * Unknown fields (store_id, channel fields of conversions) are dropped.
 */
import { z } from 'zod';
import { parseBound } from '../kit/dates.ts';

const TIMESTAMP_HINT = 'expected YYYY-MM-DD HH:MM:SS[.mmm] (UTC) or ISO 8601 with Z or an offset';
const HAS_TIME = /^\d{4}-\d{2}-\d{2}([ T])/;
const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/;

/** Epoch milliseconds of an accepted timestamp text (its offset applied), or null. */
function parseTimestamp(text: string): number | null {
  const value = text.trim();
  const time = HAS_TIME.exec(value);
  // A `T` form without a zone is local time of an unknown place: refuse rather than guess.
  if (!time || (time[1] === 'T' && !HAS_ZONE.test(value))) return null;
  return parseBound(value, 'start');
}

/**
 * The time range of anything that happened (docs/collection.md, "Timestamps from outside"): from
 * 2000-01-01 UTC to now plus a small allowance for clock skew. Checked on the UTC instant, after
 * any offset or client-clock correction is applied.
 */
const EARLIEST_HAPPENED_MS = Date.UTC(2000, 0, 1);
const CLOCK_SKEW_MS = 5 * 60_000;
export const OUT_OF_RANGE = 'timestamp out of range (before 2000-01-01 or in the future)';

export function happenedInRange(ms: number, now = Date.now()): boolean {
  return ms >= EARLIEST_HAPPENED_MS && ms <= now + CLOCK_SKEW_MS;
}

// With the `u` flag a surrogate pair is one code point, so only unpaired halves match.
const LONE_SURROGATE = /\p{Surrogate}/u;
const LONE_SURROGATE_ALL = /\p{Surrogate}/gu;

/**
 * Lone UTF-16 surrogates (never valid text, refused by the analytics store) become U+FFFD, as
 * `String.prototype.toWellFormed` does (which Node 20 lacks).
 */
export function wellFormed(text: string): string {
  return LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATE_ALL, '\uFFFD') : text;
}

export function formatTimestamp(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}

/** `YYYY-MM-DD`, or null. */
export function normaliseDate(text: string): string | null {
  const value = text.trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && parseBound(value, 'start') !== null ? value : null;
}

const UINT64_MAX = 18446744073709551615n;

/** What a converter returns for a value it cannot take. */
export class Invalid {
  constructor(readonly message: string) {}
}

export type Convert<T> = (value: unknown) => T | Invalid;

/**
 * A field from a converter. Fields are one transform over `unknown` rather than unions of zod
 * types: a failed union branch builds an issue, and imports check millions of fields.
 * Absent and null mean "use the default", or "is required" when there is none.
 */
export function field<T>(convert: Convert<T>, fallback?: { default: T }) {
  // `.optional()` makes zod run the transform for an absent key too (else it reports "nonoptional").
  return z.unknown().optional().transform((value, ctx): T => {
    if (value === undefined || value === null) {
      if (fallback) return fallback.default;
      ctx.addIssue({ code: 'custom', message: 'is required' });
      return z.NEVER;
    }
    const out = convert(value);
    if (out instanceof Invalid) {
      ctx.addIssue({ code: 'custom', message: out.message });
      return z.NEVER;
    }
    return out;
  });
}

const integerText = (value: unknown): string | null => {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : null;
  return typeof value === 'string' ? value.trim() : null;
};

const toUint64: Convert<string> = (value) => {
  const text = integerText(value);
  if (text === null || !/^\d{1,20}$/.test(text) || (text.length === 20 && BigInt(text) > UINT64_MAX)) {
    return new Invalid('expected a non-negative integer (number or digit string)');
  }
  return text.length > 1 ? text.replace(/^0+(?=\d)/, '') : text;
};

const toCount: Convert<number> = (value) => {
  const text = integerText(value);
  const n = text !== null && /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(n) ? n : new Invalid('expected a non-negative integer (number or digit string)');
};

const toFlag: Convert<number> = (value) => {
  if (value === true || value === 1 || value === '1' || value === 'true') return 1;
  if (value === false || value === 0 || value === '0' || value === 'false') return 0;
  return new Invalid('expected 0 or 1');
};

const toTimestamp: Convert<string> = (value) => {
  if (typeof value !== 'string') return new Invalid(TIMESTAMP_HINT);
  const ms = parseTimestamp(value);
  if (ms === null) {
    // Years the parser does not take (before 1970, after 2299) are out of range, not malformed.
    const year = Number(value.trim().slice(0, 4));
    const wellShaped = (year < 1970 || year > 2299) && parseTimestamp(value.trim().replace(/^\d{4}/, '2000')) !== null;
    return new Invalid(wellShaped ? OUT_OF_RANGE : TIMESTAMP_HINT);
  }
  return happenedInRange(ms) ? formatTimestamp(new Date(ms)) : new Invalid(OUT_OF_RANGE);
};

const toDate: Convert<string> = (value) => (typeof value === 'string' && normaliseDate(value)) || new Invalid('expected YYYY-MM-DD');

const toText: Convert<string> = (value) =>
  typeof value === 'string' ? wellFormed(value) : typeof value === 'number' ? String(value) : new Invalid('expected a string');

const toName: Convert<string> = (value) => {
  const text = toText(value);
  if (text instanceof Invalid) return text;
  return text.trim() || new Invalid('must not be empty');
};

/** Arrays arrive as JSON arrays, or as JSON text (a CSV cell). */
function toArray<T>(item: Convert<T>, what: string): Convert<T[]> {
  return (value) => {
    let list = value;
    if (typeof list === 'string') {
      try {
        list = JSON.parse(list);
      } catch {
        return new Invalid(`expected an array of ${what} (JSON text in CSV cells)`);
      }
    }
    if (!Array.isArray(list)) return new Invalid(`expected an array of ${what} (JSON text in CSV cells)`);
    const out: T[] = [];
    for (const [i, element] of list.entries()) {
      const converted = item(element);
      if (converted instanceof Invalid) return new Invalid(`[${i}]: ${converted.message}`);
      out.push(converted);
    }
    return out;
  };
}

const toRefund: Convert<{ dt: string; amount: number }> = (value) => {
  if (value === null || typeof value !== 'object') return new Invalid('expected {dt, amount}');
  const { dt, amount } = value as Record<string, unknown>;
  const when = toTimestamp(dt);
  if (when instanceof Invalid) return new Invalid(`dt: ${when.message}`);
  const cents = toCount(amount);
  if (cents instanceof Invalid) return new Invalid(`amount: ${cents.message}`);
  return { dt: when, amount: cents };
};

const lower = (convert: Convert<string>): Convert<string> => (value) => {
  const out = convert(value);
  return out instanceof Invalid ? out : out.trim().toLowerCase();
};

const upper = (convert: Convert<string>): Convert<string> => (value) => {
  const out = convert(value);
  return out instanceof Invalid ? out : out.trim().toUpperCase();
};

/** An unsigned 64-bit id: a number or a string of digits; kept as digits. Required. */
export const uint64 = field(toUint64);
/** A non-negative amount in cents or a count: a number or digit string; 0 when absent. */
export const cents = field(toCount, { default: 0 });
export const flag = field(toFlag, { default: 0 });
/** A timestamp of something that happened: parsed, then range-checked in UTC (`happenedInRange`). */
export const timestamp = field(toTimestamp);
export const date = field(toDate);
/** An absent or null string field is the empty string (docs/api.md, "Wire types"). */
export const text = field(toText, { default: '' });
/** A required, non-empty string (numbers are taken as their digits, e.g. a numeric variant id). */
export const name = field(toName);
const lowerText = field(lower(toText), { default: '' });
const upperText = field(upper(toText), { default: '' });
const stringArray = field(toArray(toText, 'strings'), { default: [] as string[] });

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
});

export const orderRow = z.object({
  transaction_id: name,
  dt: timestamp,
  customer_id: text,
  is_new_customer: flag,
  currency: upperText,
  gross_revenue: cents,
  tax: cents,
  shipping: cents,
  discount: cents,
  refunds: field(toArray(toRefund, '{dt, amount}'), { default: [] as { dt: string; amount: number }[] }),
  cogs: cents,
  shipping_cost: cents,
  /** Absent: computed from the workspace's payment-fee settings. */
  payment_fee: field<number | null>(toCount, { default: null }),
});

export const adRow = z.object({
  dt: date,
  source: field(lower(toName)),
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
  amount: field(toCount),
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

/** One line of text per problem: `field: message`, joined with `; `. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.join('.');
      return where ? `${where}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
