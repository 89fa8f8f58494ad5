import type { AppDatabase } from '../app-db.ts';
import type { SecretBox } from '../secret-box.ts';
import { Conflict } from '../../kit/errors.ts';

export type ShopPlatform = 'shopify' | 'woocommerce';

export interface ShopIntegration {
  platform: ShopPlatform;
  shop: string;
  workspaceId: number;
  /** The signing secret in clear; it never leaves the process (not printed, logged or answered). */
  secret: string;
}

/**
 * Connects a shop to a workspace, or replaces the secret of a connection it already has. A shop
 * feeds one workspace: connected to another, it is a Conflict.
 */
export async function setShopIntegration(db: AppDatabase, box: SecretBox, integration: ShopIntegration): Promise<void> {
  const now = new Date().toISOString();
  const secret = box.seal(integration.secret);
  await db.transaction().execute(async (tx) => {
    const existing = await tx
      .selectFrom('shop_integrations')
      .select('workspace_id')
      .where('platform', '=', integration.platform)
      .where('shop', '=', integration.shop)
      .executeTakeFirst();
    if (existing && Number(existing.workspace_id) !== integration.workspaceId) {
      throw new Conflict(`${integration.shop} is already connected to workspace ${existing.workspace_id}`);
    }
    if (existing) {
      await tx
        .updateTable('shop_integrations')
        .set({ secret, updated_at: now })
        .where('platform', '=', integration.platform)
        .where('shop', '=', integration.shop)
        .execute();
    } else {
      await tx
        .insertInto('shop_integrations')
        .values({ platform: integration.platform, shop: integration.shop, workspace_id: integration.workspaceId, secret, created_at: now, updated_at: now })
        .execute();
    }
  });
}

export async function findShopIntegration(
  db: AppDatabase,
  box: SecretBox,
  platform: ShopPlatform,
  shop: string,
): Promise<ShopIntegration | undefined> {
  const row = await db
    .selectFrom('shop_integrations')
    .select(['workspace_id', 'secret'])
    .where('platform', '=', platform)
    .where('shop', '=', shop)
    .executeTakeFirst();
  return row ? { platform, shop, workspaceId: Number(row.workspace_id), secret: box.open(row.secret) } : undefined;
}

/** A workspace's connected shops, without their secrets (for listings). */
export async function listShopIntegrations(
  db: AppDatabase,
  workspaceId: number,
): Promise<{ platform: ShopPlatform; shop: string; updatedAt: string }[]> {
  const rows = await db
    .selectFrom('shop_integrations')
    .select(['platform', 'shop', 'updated_at'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('platform')
    .orderBy('shop')
    .execute();
  return rows.map((r) => ({ platform: r.platform as ShopPlatform, shop: r.shop, updatedAt: r.updated_at }));
}
