import { z } from 'zod';

const DECIMAL = /^(-?)(\d{1,13})(?:\.(\d{1,12}))?$/;

/**
 * Cents of a decimal amount as shop platforms write it (`"403.00"`, `"-5.5"`, `12.99`), rounded
 * half away from zero; null when it is not such an amount. Strings are read digit by digit, so
 * `"0.29"` is exactly 29, never 28.999….
 */
export function toCents(value: unknown): number | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? value.toFixed(6) : value;
  if (typeof text !== 'string') return null;
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const digits = fraction.padEnd(3, '0');
  const cents = Number(whole) * 100 + Number(digits.slice(0, 2)) + (Number(digits[2]) >= 5 ? 1 : 0);
  return sign === '-' && cents !== 0 ? -cents : cents;
}

/** A decimal amount (string or number) as cents; `null`/absent as undefined. */
export const optionalMoney = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((value, ctx) => {
    if (value === null || value === undefined) return undefined;
    const cents = toCents(value);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: 'expected a decimal amount' });
      return z.NEVER;
    }
    return cents;
  });

/** A decimal amount (string or number) as cents; `null`/absent as 0. */
export const moneyAmount = optionalMoney.transform((cents) => cents ?? 0);

/** An amount a platform documents as positive (a refund's money): a negative one is refused. */
export const positiveMoney = moneyAmount.refine((cents) => cents >= 0, { message: 'must not be negative (refund amounts are positive)' });
