/**
 * Field parsers of the data that comes in from outside (imports, the demo, the collector, the
 * order webhooks): each reads one value in the loose forms people export (digit strings for
 * integers, ISO timestamps with offsets, JSON text for arrays) and yields its canonical form:
 * timestamps `YYYY-MM-DD HH:MM:SS.mmm` in UTC, 64-bit ids as digit strings, cents as numbers.
 * The row schemas (`row-schemas.ts`) are built from these fields.
 */
import { z } from 'zod';
import { parseBound } from '../kit/calendar/days.ts';
import { wellFormed } from '../kit/well-formed.ts';

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

/** Epoch ms of a normalised `YYYY-MM-DD HH:MM:SS.mmm` UTC timestamp. */
export const timestampMs = (normalised: string) => Date.parse(`${normalised.replace(' ', 'T')}Z`);

/**
 * The version of an orders row: microseconds since the epoch of its `updated_at` (or of the time
 * it was written, for a row that has none); the newest version of an order is the order.
 */
export const orderVersion = (updatedAt: string) => timestampMs(updatedAt) * 1000;

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

/** The statuses of an order (docs/integrations.md, "What counts as a sale"), from most to least decisive. */
export const ORDER_STATUSES = ['test', 'cancelled', 'voided', 'pending', 'sale'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Of two reasons, the one that decides: a test order stays a test order when it is also cancelled. */
export function decisiveStatus(a: OrderStatus, b: OrderStatus): OrderStatus {
  return ORDER_STATUSES.indexOf(a) <= ORDER_STATUSES.indexOf(b) ? a : b;
}

const toOrderStatus: Convert<OrderStatus> = (value) => {
  const status = ORDER_STATUSES.find((s) => s === value);
  return status ?? new Invalid(`expected one of ${ORDER_STATUSES.join(', ')}`);
};

export interface LineItem {
  product_id: string;
  variant_id: string;
  sku: string;
  title: string;
  quantity: number;
  /** Price of one unit in cents, before order-level discounts. */
  unit_price: number;
}

export const MAX_LINE_ITEMS = 1000;
export const MAX_LINE_TEXT = 500;

const lineText = (value: unknown, name: string): string | Invalid => {
  if (value === undefined || value === null) return '';
  const out = toText(value);
  if (out instanceof Invalid) return new Invalid(`${name}: ${out.message}`);
  return out.length > MAX_LINE_TEXT ? new Invalid(`${name}: at most ${MAX_LINE_TEXT} characters`) : out.trim();
};

const toLineItem: Convert<LineItem> = (value) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return new Invalid('expected {product_id?, variant_id?, sku?, title?, quantity, unit_price}');
  }
  const v = value as Record<string, unknown>;
  const texts: string[] = [];
  for (const name of ['product_id', 'variant_id', 'sku', 'title']) {
    const out = lineText(v[name], name);
    if (out instanceof Invalid) return out;
    texts.push(out);
  }
  const quantity = v.quantity === undefined || v.quantity === null ? new Invalid('is required') : toCount(v.quantity);
  if (quantity instanceof Invalid) return new Invalid(`quantity: ${quantity.message}`);
  if (quantity > 1_000_000) return new Invalid('quantity: at most 1000000');
  const price = v.unit_price === undefined || v.unit_price === null ? new Invalid('is required') : toCount(v.unit_price);
  if (price instanceof Invalid) return new Invalid(`unit_price: ${price.message}`);
  const [product_id, variant_id, sku, title] = texts as [string, string, string, string];
  if (!product_id && !variant_id && !sku && !title) return new Invalid('names no product: give product_id, variant_id, sku or title');
  return { product_id, variant_id, sku, title, quantity, unit_price: price };
};

/** Line items: an array (JSON text in a CSV cell) of at most MAX_LINE_ITEMS lines. */
const toLineItems: Convert<LineItem[]> = (value) => {
  const lines = toArray(toLineItem, '{product_id?, variant_id?, sku?, title?, quantity, unit_price}')(value);
  if (lines instanceof Invalid) return lines;
  return lines.length > MAX_LINE_ITEMS ? new Invalid(`at most ${MAX_LINE_ITEMS} line items`) : lines;
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
/** Text trimmed and lower-cased (an ad source), or upper-cased (a country or currency code). */
export const lowerText = field(lower(toText), { default: '' });
export const upperText = field(upper(toText), { default: '' });
/** A required name, trimmed and lower-cased. */
export const lowerName = field(lower(toName));
/** An array of strings (JSON text in CSV cells); empty when absent. */
export const stringArray = field(toArray(toText, 'strings'), { default: [] as string[] });
/** A required non-negative amount in cents. */
export const requiredCents = field(toCount);
/** An amount in cents that may be left out: null when absent. */
export const optionalCents = field<number | null>(toCount, { default: null });
/** Refunds as `[{dt, amount}]` (JSON text in CSV cells); empty when absent. */
export const refunds = field(toArray(toRefund, '{dt, amount}'), { default: [] as { dt: string; amount: number }[] });
/** Line items `[{product_id?, variant_id?, sku?, title?, quantity, unit_price}]` (JSON text in CSV cells); empty when absent. */
export const lineItems = field(toLineItems, { default: [] as LineItem[] });
/** An order's status; `sale` when absent. */
export const orderStatus = field(toOrderStatus, { default: 'sale' as OrderStatus });
/** A timestamp that may be left out: null when absent. */
export const optionalTimestamp = field<string | null>(toTimestamp, { default: null });
