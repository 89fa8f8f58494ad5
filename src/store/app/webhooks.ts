import crypto from 'node:crypto';
import type { AppDatabase } from '../app-db.ts';
import { isSealed, type SecretBox } from '../secret-box.ts';

/** 256-bit HMAC key with a readable prefix. */
function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64url')}`;
}

/** The secret in clear (it is stored sealed). */
export async function findWebhookSecret(db: AppDatabase, box: SecretBox, workspaceId: number): Promise<string | undefined> {
  const row = await db.selectFrom('collect_webhooks').select('secret').where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row ? box.open(row.secret) : undefined;
}

/** The workspace's secret, created on first use. */
export async function ensureWebhookSecret(db: AppDatabase, box: SecretBox, workspaceId: number): Promise<string> {
  const existing = await findWebhookSecret(db, box, workspaceId);
  if (existing) return existing;
  return rotateWebhookSecret(db, box, workspaceId);
}

/** Replaces the secret; deliveries signed with the old one are refused from now on. */
export async function rotateWebhookSecret(db: AppDatabase, box: SecretBox, workspaceId: number): Promise<string> {
  const plain = newWebhookSecret();
  const secret = box.seal(plain);
  const createdAt = new Date().toISOString();
  await db
    .insertInto('collect_webhooks')
    .values({ workspace_id: workspaceId, secret, created_at: createdAt })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ secret, created_at: createdAt }))
    .execute();
  return plain;
}

/**
 * Seals secrets written in clear by versions before sealing existed; run when the stores open,
 * so no clear secret outlives an upgrade.
 */
export async function sealClearWebhookSecrets(db: AppDatabase, box: SecretBox): Promise<number> {
  const rows = await db.selectFrom('collect_webhooks').select(['workspace_id', 'secret']).execute();
  const clear = rows.filter((row) => !isSealed(row.secret));
  for (const row of clear) {
    await db
      .updateTable('collect_webhooks')
      .set({ secret: box.seal(row.secret) })
      .where('workspace_id', '=', row.workspace_id)
      .where('secret', '=', row.secret)
      .execute();
  }
  return clear.length;
}

export async function isDeliveryKnown(db: AppDatabase, workspaceId: number, deliveryId: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('delivery_id')
    .where('workspace_id', '=', workspaceId)
    .where('delivery_id', '=', deliveryId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records an accepted delivery; false when it was already there (a concurrent duplicate). */
export async function recordDelivery(db: AppDatabase, workspaceId: number, deliveryId: string): Promise<boolean> {
  const result = await db
    .insertInto('webhook_deliveries')
    .values({ workspace_id: workspaceId, delivery_id: deliveryId, received_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['workspace_id', 'delivery_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
