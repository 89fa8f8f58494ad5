import type { Kysely } from 'kysely';

/** Per-workspace order-webhook secret, and the delivery ids already accepted (idempotency). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('collect_webhooks')
    .addColumn('workspace_id', 'integer', (c) => c.primaryKey().references('workspaces.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('workspace_id', 'integer', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_deliveries_pk', ['workspace_id', 'delivery_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('collect_webhooks').execute();
}
