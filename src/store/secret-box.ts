import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Encryption at rest for credentials and signing secrets the service must read back in clear
 * (an HMAC key, an ad platform's token): AES-256-GCM with one key per deployment, from
 * `STORELENS_SECRET_KEY` or generated once in `<data dir>/secret.key` (mode 0600). Sealed text is
 * `v1:<iv>:<tag>:<ciphertext>`, each part base64url; the version lets a later format or key
 * coexist. Rules in docs/architecture.md ("Secrets at rest").
 */
export interface SecretBox {
  seal(plain: string): string;
  /** Throws when the text was not sealed with this key or was changed. */
  open(sealed: string): string;
}

const VERSION = 'v1';
const KEY_FILE = 'secret.key';

export class SecretBoxError extends Error {}

/** A 32-byte key written as 64 hex digits or as base64/base64url; null for anything else. */
export function parseSecretKey(text: string): Buffer | null {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const key = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return key.length === 32 ? key : null;
  }
  return null;
}

function loadOrCreateKey(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  const read = () => {
    const key = parseSecretKey(fs.readFileSync(file, 'utf8'));
    if (!key) throw new SecretBoxError(`${file} does not hold a 32-byte key`);
    return key;
  };
  if (fs.existsSync(file)) return read();
  fs.mkdirSync(dataDir, { recursive: true });
  const key = crypto.randomBytes(32);
  try {
    fs.writeFileSync(file, `${key.toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw error;
  }
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new SecretBoxError('the secret key must be 32 bytes');
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), ct].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join(':');
    },
    open(sealed) {
      const parts = sealed.split(':');
      if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('not a sealed secret');
      const [iv, tag, ct] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
      if (iv.length !== 12 || tag.length !== 16) throw new SecretBoxError('not a sealed secret');
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError('the sealed secret was changed or sealed with another key');
      }
    },
  };
}

/** Whether a stored value is in the sealed format (anything else is a legacy clear value). */
export function isSealed(value: string): boolean {
  return value.startsWith(`${VERSION}:`);
}

/** The deployment's box: the configured key, else the data dir's key file (created on first use). */
export function openSecretBox(config: { secretKey: string | null; dataDir: string }): SecretBox {
  if (config.secretKey) {
    const key = parseSecretKey(config.secretKey);
    if (!key) throw new SecretBoxError('STORELENS_SECRET_KEY must be 32 bytes written as 64 hex digits or base64');
    return createSecretBox(key);
  }
  return createSecretBox(loadOrCreateKey(config.dataDir));
}
