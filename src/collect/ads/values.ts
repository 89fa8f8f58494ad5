/**
 * How ad platforms write money, counts and days, turned into our canonical forms (cents, integers,
 * `YYYY-MM-DD`). Shared by the export reader and the API pulls. Rules in docs/integrations.md.
 */
import { Invalid } from '../fields.ts';

/** Digits after the decimal point of a currency's minor unit (USD 2, JPY 0, KWD 3), from ICU. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

const AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d{1,15})(?:\.(\d{1,9}))?$/;
const COUNT = /^(\d{1,3}(?:,\d{3})+|\d{1,15})$/;

/**
 * An amount in main units ("1,234.56", "0.5", "12") as minor units (cents), rounded half up;
 * English notation: `,` groups thousands, `.` starts the decimals.
 */
export function amountToMinor(text: string, digits: number): number | Invalid {
  const match = AMOUNT.exec(text.trim());
  if (!match) return new Invalid(`expected an amount like 1,234.56, got "${text}"`);
  const whole = Number(match[1]!.replace(/,/g, ''));
  const fraction = (match[2] ?? '').padEnd(digits + 1, '0');
  const kept = Number(fraction.slice(0, digits) || '0');
  const roundUp = Number(fraction[digits]) >= 5 ? 1 : 0;
  const minor = whole * 10 ** digits + kept + roundUp;
  return Number.isSafeInteger(minor) ? minor : new Invalid(`amount too large: "${text}"`);
}

/** A count ("1,234" or "1234"). */
export function parseCount(text: string): number | Invalid {
  const match = COUNT.exec(text.trim());
  return match ? Number(match[1]!.replace(/,/g, '')) : new Invalid(`expected a whole number like 1,234, got "${text}"`);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/;
const US_DAY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: .*)?$/;
const NAMED_DAY = /^(?:[A-Za-z]{3,9},\s*)?([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),\s*(\d{4})$/;
/** The earliest day an ads row may have; later than tomorrow (UTC) is refused too. */
const FIRST_AD_DAY = '2000-01-01';

function isoFromParts(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/**
 * A reporting day as the platforms write it: `2026-11-01` (also with a time, which is dropped),
 * `11/1/2026` (month first, as the English exports write it) or `Nov 1, 2026` / `Sun, Nov 1, 2026`.
 * Days before 2000 or after tomorrow are refused: no ad ran then, so the column is not a date.
 */
export function parseAdDay(text: string, now = Date.now()): string | Invalid {
  const value = text.trim();
  let iso: string | null = null;
  let m: RegExpExecArray | null;
  if ((m = ISO_DAY.exec(value))) iso = isoFromParts(Number(m[1]), Number(m[2]), Number(m[3]));
  else if ((m = US_DAY.exec(value))) iso = isoFromParts(Number(m[3]), Number(m[1]), Number(m[2]));
  else if ((m = NAMED_DAY.exec(value))) {
    const month = MONTHS.indexOf(m[1]!.toLowerCase()) + 1;
    iso = month > 0 ? isoFromParts(Number(m[3]), month, Number(m[2])) : null;
  }
  if (iso === null) return new Invalid(`expected a day like 2026-11-01, got "${text}"`);
  const tomorrow = new Date(now + 86_400_000).toISOString().slice(0, 10);
  if (iso < FIRST_AD_DAY || iso > tomorrow) return new Invalid(`${iso} is outside ${FIRST_AD_DAY} to tomorrow`);
  return iso;
}
