import type { Kysely } from 'kysely';

/**
 * `data_versions`: one counter per workspace, raised whenever what its reports read changes
 * (docs/architecture.md, "Data versions"). A workspace without a row is at version 0.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('data_versions')
    .addColumn('workspace_id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('data_versions').execute();
}
