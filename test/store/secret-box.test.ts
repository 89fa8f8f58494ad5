/**
 * The secret box seals credentials at rest (AES-256-GCM); these cover its format, its refusals and
 * where its key comes from, plus the one-time sealing of webhook secrets stored in clear by older
 * versions. Fixture: temp data dirs, one workspace "Legacy shop" on SQLite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSecretBox, openSecretBox, parseSecretKey, SecretBoxError } from '../../src/store/secret-box.ts';
import { migrateAppDb, openAppDb } from '../../src/store/app-db.ts';
import { createWorkspace } from '../../src/store/app/workspaces.ts';
import { findWebhookSecret, sealClearWebhookSecrets } from '../../src/store/app/webhooks.ts';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-secret-box-'));

test('seals to the v1 format and opens back to the same text', () => {
  const box = createSecretBox(crypto.randomBytes(32));
  const sealed = box.seal('shpss_0123456789abcdef é');
  assert.match(sealed, /^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
  assert.ok(!sealed.includes('shpss'));
  assert.equal(box.open(sealed), 'shpss_0123456789abcdef é');
  assert.notEqual(box.seal('same'), box.seal('same'), 'a fresh IV per seal');
});

test('refuses a sealed secret whose ciphertext, tag or IV was changed', () => {
  const box = createSecretBox(crypto.randomBytes(32));
  const [version, iv, tag, ct] = box.seal('a signing secret').split(':');
  const flip = (part: string) => {
    const bytes = Buffer.from(part, 'base64url');
    bytes[0] ^= 1;
    return bytes.toString('base64url');
  };
  for (const forged of [
    [version, iv, tag, flip(ct)],
    [version, iv, flip(tag), ct],
    [version, flip(iv), tag, ct],
  ]) {
    assert.throws(() => box.open(forged.join(':')), SecretBoxError);
  }
});

test('refuses text sealed with another key, and text that is not sealed at all', () => {
  const sealed = createSecretBox(crypto.randomBytes(32)).seal('secret');
  const other = createSecretBox(crypto.randomBytes(32));
  assert.throws(() => other.open(sealed), { message: 'the sealed secret was changed or sealed with another key' });
  for (const text of ['secret', 'v2:a:b:c', 'v1:only:three', '']) {
    assert.throws(() => other.open(text), { message: 'not a sealed secret' });
  }
});

test('creates the key file with mode 0600 on first use and reuses it afterwards', () => {
  const dataDir = tempDir();
  try {
    const sealed = openSecretBox({ secretKey: null, dataDir }).seal('kept');
    const file = path.join(dataDir, 'secret.key');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(openSecretBox({ secretKey: null, dataDir }).open(sealed), 'kept');
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('uses STORELENS_SECRET_KEY (hex or base64) instead of a key file, and refuses a malformed one', () => {
  const dataDir = tempDir();
  try {
    const key = crypto.randomBytes(32);
    const sealed = openSecretBox({ secretKey: key.toString('hex'), dataDir }).seal('from env');
    assert.equal(openSecretBox({ secretKey: key.toString('base64'), dataDir }).open(sealed), 'from env');
    assert.equal(openSecretBox({ secretKey: key.toString('base64url'), dataDir }).open(sealed), 'from env');
    assert.equal(fs.existsSync(path.join(dataDir, 'secret.key')), false);
    assert.throws(() => openSecretBox({ secretKey: 'too-short', dataDir }), {
      message: 'STORELENS_SECRET_KEY must be 32 bytes written as 64 hex digits or base64',
    });
    assert.equal(parseSecretKey(crypto.randomBytes(31).toString('hex')), null);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('seals order-webhook secrets that an older version stored in clear, once', async () => {
  const dataDir = tempDir();
  const db = await openAppDb({ databaseUrl: null, dataDir });
  try {
    await migrateAppDb(db);
    const box = openSecretBox({ secretKey: null, dataDir });
    const shop = await createWorkspace(db, { name: 'Legacy shop', currency: 'USD', timezone: 'UTC' });
    await db.insertInto('collect_webhooks').values({ workspace_id: shop.id, secret: 'whsec_legacy', created_at: '2026-01-01T00:00:00Z' }).execute();

    assert.equal(await sealClearWebhookSecrets(db, box), 1);
    const stored = await db.selectFrom('collect_webhooks').select('secret').executeTakeFirstOrThrow();
    assert.match(stored.secret, /^v1:/);
    assert.equal(await findWebhookSecret(db, box, shop.id), 'whsec_legacy');
    assert.equal(await sealClearWebhookSecrets(db, box), 0);
    assert.equal(await findWebhookSecret(db, box, shop.id), 'whsec_legacy');
  } finally {
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
