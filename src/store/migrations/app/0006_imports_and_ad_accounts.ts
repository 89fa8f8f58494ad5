import type { Kysely } from 'kysely';

/**
 * - `import_batches`: the content digest of every batch an import wrote to an append-only table
 *   (events, conversions, expenses), so importing the same rows again writes nothing
 *   (docs/integrations.md, "Importing the same file twice").
 * - `ad_connections`: ad platform accounts the server pulls spend from, with their API
 *   credentials sealed by the deployment's secret box (docs/integrations.md, "Ad platforms").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_batches')
    .addColumn('workspace_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_batches_pk', ['workspace_id', 'kind', 'digest'])
    .execute();

  await db.schema
    .createTable('ad_connections')
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('credentials', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_sync_at', 'text')
    .addColumn('last_sync_error', 'text')
    .addPrimaryKeyConstraint('ad_connections_pk', ['workspace_id', 'platform', 'account_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ad_connections').execute();
  await db.schema.dropTable('import_batches').execute();
}
