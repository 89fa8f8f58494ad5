/**
 * Row formats of the data that comes in from outside (imports, the demo, later the collector):
 * one zod schema per kind, named after the public field names (service-spec.md), plus the
 * normalisers they share. A schema accepts the loose forms people export (digit strings for
 * integers, ISO timestamps with offsets, JSON text for arrays) and yields one canonical form:
 * timestamps `YYYY-MM-DD HH:MM:SS.mmm` in UTC, 64-bit ids as digit strings, cents as numbers.
 * Unknown fields (store_id, channel fields of conversions) are dropped.
 */
import { z } from 'zod';

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})([ T])(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP_HINT = 'expected YYYY-MM-DD HH:MM:SS[.mmm] (UTC) or ISO 8601 with Z or an offset';
/** DateTime64 holds 1900..2299; earlier than 1970 is a data error in an analytics store. */
const MIN_YEAR = 1970;
const MAX_YEAR = 2299;

/** Error text for a value of the wrong type: says "is required" when it is absent. */
const expected = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? 'is required' : `expected ${what}`;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function validDate(year: number, month: number, day: number): boolean {
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `YYYY-MM-DD HH:MM:SS.mmm` in UTC, or null when the text is not an accepted timestamp. */
export function normaliseTimestamp(text: string): string | null {
  const m = TIMESTAMP.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, sep, h, mi, s, fraction = '', zone] = m;
  // A `T` form without a zone is local time of an unknown place: refuse rather than guess.
  if (sep === 'T' && !zone) return null;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  let epoch = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  if (zone && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetHours = Number(digits.slice(0, 2));
    const offsetMinutes = Number(digits.slice(2));
    if (offsetHours > 23 || offsetMinutes > 59) return null;
    epoch -= sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  return formatTimestamp(new Date(epoch));
}

export function formatTimestamp(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}`
  );
}

/** `YYYY-MM-DD`, or null. */
export function normaliseDate(text: string): string | null {
  const m = DATE.exec(text.trim());
  if (!m) return null;
  return validDate(Number(m[1]), Number(m[2]), Number(m[3])) ? text.trim() : null;
}

const UINT64_MAX = 18446744073709551615n;
const INT64_MAX = 9223372036854775807n;

/** An unsigned 64-bit id: a non-negative integer number or a string of digits; kept as digits. */
export const uint64 = z.union([z.number(), z.string()], { error: expected('a non-negative integer') }).transform((value, ctx) => {
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) && value >= 0 ? String(value) : '') : value.trim();
  if (!/^\d{1,20}$/.test(text) || BigInt(text) > UINT64_MAX) {
    ctx.addIssue({ code: 'custom', message: 'expected a non-negative integer (number or digit string)' });
    return z.NEVER;
  }
  return text.replace(/^0+(?=\d)/, '');
});

/** A signed amount in cents (or a count): an integer number or an integer string. */
export const int64 = z.union([z.number(), z.string()], { error: expected('an integer') }).transform((value, ctx) => {
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : value.trim();
  if (!/^-?\d{1,19}$/.test(text) || BigInt(text) > INT64_MAX || BigInt(text) < -INT64_MAX - 1n) {
    ctx.addIssue({ code: 'custom', message: 'expected an integer (number or digit string)' });
    return z.NEVER;
  }
  const n = Number(text);
  if (!Number.isSafeInteger(n)) {
    ctx.addIssue({ code: 'custom', message: 'integer out of range' });
    return z.NEVER;
  }
  return n;
});

/** A non-negative count or amount. */
export const count = int64.refine((n) => n >= 0, { message: 'expected a non-negative integer' });

/** 0/1, also given as true/false or "0"/"1". */
export const flag = z.union([z.boolean(), z.number(), z.string()], { error: expected('0 or 1') }).transform((value, ctx) => {
  if (value === true || value === 1 || value === '1' || value === 'true') return 1;
  if (value === false || value === 0 || value === '0' || value === 'false') return 0;
  ctx.addIssue({ code: 'custom', message: 'expected 0 or 1' });
  return z.NEVER;
});

export const timestamp = z.string({ error: expected(TIMESTAMP_HINT.slice('expected '.length)) }).transform((value, ctx) => {
  const normal = normaliseTimestamp(value);
  if (normal === null) {
    ctx.addIssue({ code: 'custom', message: TIMESTAMP_HINT });
    return z.NEVER;
  }
  return normal;
});

export const date = z.string({ error: expected('YYYY-MM-DD') }).transform((value, ctx) => {
  const normal = normaliseDate(value);
  if (normal === null) {
    ctx.addIssue({ code: 'custom', message: 'expected YYYY-MM-DD' });
    return z.NEVER;
  }
  return normal;
});

/** An absent or null string field is the empty string (decisions.md section 3). */
export const text = z
  .union([z.string(), z.number()], { error: expected('a string') })
  .nullish()
  .transform((v) => (v === null || v === undefined ? '' : String(v)));

/** A required, non-empty string (numbers are taken as their digits, e.g. a numeric variant id). */
export const name = z
  .union([z.string(), z.number()], { error: expected('a string') })
  .transform((v) => String(v).trim())
  .pipe(z.string().min(1, 'must not be empty'));

/** Arrays arrive as JSON arrays, or as JSON text (a CSV cell). */
function jsonArray<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }, z.array(item, { error: expected('an array (JSON text in CSV cells)') }));
}

const stringArray = jsonArray(z.string()).optional().default([]);

const CLICK = {
  adv_source: text.transform((s) => s.trim().toLowerCase()),
  adv_campaign_id: text,
  adv_adgroup_id: text,
  adv_ad_id: text,
};

export const eventRow = z
  .object({
    dt: timestamp,
    name,
    session_id: uint64,
    visitor_id: uint64,
    visitor_timezone: text,
    ...CLICK,
    adv_asset_group_id: text,
    utm_source: text,
    utm_medium: text,
    utm_campaign: text,
    utm_content: text,
    utm_term: text,
    device_type: text,
    country_code: text.transform((s) => s.toUpperCase()),
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
  is_new_customer: flag.optional().default(0),
  transaction_gross_revenue: int64.optional().default(0),
  transaction_currency: text.transform((s) => s.toUpperCase()),
  transaction_country_code: text.transform((s) => s.toUpperCase()),
  transaction_city: text,
  hostname: text,
  coupon_code: text,
});

const refund = z.object({ dt: timestamp, amount: count });

const optionalCents = count.optional().default(0);

export const orderRow = z.object({
  transaction_id: name,
  dt: timestamp,
  customer_id: text,
  is_new_customer: flag.optional().default(0),
  currency: text.transform((s) => s.toUpperCase()),
  gross_revenue: optionalCents,
  tax: optionalCents,
  shipping: optionalCents,
  discount: optionalCents,
  refunds: jsonArray(refund).optional().default([]),
  cogs: optionalCents,
  shipping_cost: optionalCents,
  /** Absent: computed from the workspace's payment-fee settings. */
  payment_fee: count.nullish().transform((v) => v ?? null),
});

export const adRow = z.object({
  dt: date,
  source: name.transform((s) => s.toLowerCase()),
  ad_id: name,
  adaccount_id: text,
  campaign_id: text,
  campaign_name: text,
  adgroup_id: text,
  adgroup_name: text,
  ad_name: text,
  spend: optionalCents,
  impressions: optionalCents,
  clicks: optionalCents,
  reach: optionalCents,
});

export const productRow = z.object({
  product_handle: name,
  variant_id: name,
  title: text,
  image_path_or_url: text,
  cost: optionalCents,
});

export const expenseRow = z.object({
  dt: date,
  name,
  amount: count,
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
