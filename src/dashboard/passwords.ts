import crypto from 'node:crypto';
import { argon2Verify, argon2id } from 'hash-wasm';

/**
 * Passwords are hashed with argon2id (hash-wasm, WebAssembly: no native per-platform package) at
 * OWASP's minimum for argon2id: 19 MiB of memory, 2 passes, one lane. Stored as the PHC string,
 * which carries its own parameters, so raising them later still verifies old hashes.
 */
const PARAMS = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 } as const;

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;

/** A password for a person to copy once (the demo's, a reset's): 16 characters, 96 random bits. */
export function generatePassword(): string {
  return crypto.randomBytes(12).toString('base64url');
}

export function hashPassword(password: string): Promise<string> {
  return argon2id({ password, salt: crypto.randomBytes(16), ...PARAMS, outputType: 'encoded' });
}

let dummy: Promise<string> | null = null;

/**
 * Checks a password against a stored hash; without a hash (unknown email) it still spends the
 * same work on a dummy, so the answer time does not tell whether the account exists.
 */
export async function verifyPassword(password: string, hash: string | undefined): Promise<boolean> {
  if (hash === undefined) {
    dummy ??= hashPassword(crypto.randomBytes(16).toString('hex'));
    await argon2Verify({ password, hash: await dummy });
    return false;
  }
  try {
    return await argon2Verify({ password, hash });
  } catch {
    return false;
  }
}
