import type { Kysely } from 'kysely';
import { createTableWithId } from './columns.ts';

/**
 * State of the tool endpoint: the objects tools create (notes, lists, creators, ...) and the
 * OAuth connections of multi-workspace clients.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'tool_objects')
    .addColumn('workspace_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'integer')
    .addColumn('unique_key', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tool_objects_kind').on('tool_objects').columns(['workspace_id', 'kind', 'id']).execute();
  await db.schema
    .createIndex('tool_objects_unique_key')
    .on('tool_objects')
    .columns(['workspace_id', 'kind', 'unique_key'])
    .unique()
    .execute();

  await createTableWithId(db, 'oauth_clients')
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('client_secret_hash', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // Codes and tokens are stored as sha256 hashes; `grants` is the JSON snapshot of the workspaces
  // the person connected and the scopes each key had at that moment.
  await createTableWithId(db, 'oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('grants', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await createTableWithId(db, 'oauth_tokens')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('grants', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_tokens').execute();
  await db.schema.dropTable('oauth_codes').execute();
  await db.schema.dropTable('oauth_clients').execute();
  await db.schema.dropTable('tool_objects').execute();
}
