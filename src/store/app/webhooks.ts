import crypto from 'node:crypto';
import type { AppDatabase } from '../app-db.ts';

/** 256-bit HMAC key with a readable prefix. */
function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64url')}`;
}

export async function findWebhookSecret(db: AppDatabase, workspaceId: number): Promise<string | undefined> {
  const row = await db.selectFrom('collect_webhooks').select('secret').where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row?.secret;
}

/** The workspace's secret, created on first use. */
export async function ensureWebhookSecret(db: AppDatabase, workspaceId: number): Promise<string> {
  const existing = await findWebhookSecret(db, workspaceId);
  if (existing) return existing;
  return rotateWebhookSecret(db, workspaceId);
}

/** Replaces the secret; deliveries signed with the old one are refused from now on. */
export async function rotateWebhookSecret(db: AppDatabase, workspaceId: number): Promise<string> {
  const secret = newWebhookSecret();
  const createdAt = new Date().toISOString();
  await db
    .insertInto('collect_webhooks')
    .values({ workspace_id: workspaceId, secret, created_at: createdAt })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ secret, created_at: createdAt }))
    .execute();
  return secret;
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
