import type { Kysely } from 'kysely';

/**
 * Shop platforms connected to a workspace (docs/integrations.md): one row per (platform, shop),
 * so an incoming webhook finds its workspace by the shop it names. The signing secret is sealed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shop_integrations')
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('shop', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('shop_integrations_pk', ['platform', 'shop'])
    .execute();
  await db.schema.createIndex('shop_integrations_workspace').on('shop_integrations').column('workspace_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('shop_integrations').execute();
}
