import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * HMAC signatures for the service's own storage and media URLs. The key comes from
 * configuration (shared by every node) or is generated once in the data dir.
 */
export interface Signer {
  sign(parts: readonly (string | number)[]): string;
  verify(parts: readonly (string | number)[], signature: string): boolean;
}

export function loadSigningKey(secret: string | null, dataDir: string): Buffer {
  if (secret) return Buffer.from(secret, 'utf8');
  const file = path.join(dataDir, 'tryon', 'signing.key');
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const key = crypto.randomBytes(32);
    try {
      fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
      return key;
    } catch {
      return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    }
  }
}

export function createSigner(key: Buffer): Signer {
  const sign = (parts: readonly (string | number)[]) =>
    crypto.createHmac('sha256', key).update(parts.join('\n')).digest('base64url');
  return {
    sign,
    verify(parts, signature) {
      const expected = Buffer.from(sign(parts));
      const given = Buffer.from(signature);
      return expected.length === given.length && crypto.timingSafeEqual(expected, given);
    },
  };
}
