import { isSafeNumber, parse } from 'lossless-json';
import { InvalidInput } from '../../kit/errors.ts';

/**
 * A platform's JSON body. Shop platforms use 64-bit ids (Shopify's sample payloads carry ids
 * like 820982911946154508, beyond 2^53), which JSON.parse would round to a different id; here a
 * number that a double cannot hold exactly stays its digits, as a string.
 */
export function parsePlatformJson(body: unknown): unknown {
  if (typeof body !== 'string' || body.trim() === '') throw new InvalidInput('Invalid JSON');
  try {
    return parse(body, null, (digits) => (isSafeNumber(digits) ? Number(digits) : digits));
  } catch {
    throw new InvalidInput('Invalid JSON');
  }
}
