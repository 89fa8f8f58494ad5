import crypto from 'node:crypto';

/** 256-bit random token with a readable prefix. */
export function newToken(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(32).toString('base64url')}`;
}

/**
 * Keys and secrets are 256-bit random values, so a fast hash is enough: there is nothing
 * to brute-force, and every request can afford the check.
 */
export function hashSecret(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

export function secretMatches(value: string, expectedHash: string): boolean {
  const actual = Buffer.from(hashSecret(value), 'hex');
  const expected = Buffer.from(expectedHash, 'hex');
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}
