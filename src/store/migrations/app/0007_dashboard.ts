import type { Kysely } from 'kysely';
import { createTableWithId } from './columns.ts';

/** Dashboard users, their workspace memberships and their signed-in sessions (docs/dashboard.md). */
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'users')
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('workspace_members')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('workspace_members_pk', ['user_id', 'workspace_id'])
    .execute();

  await createTableWithId(db, 'dashboard_sessions')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dashboard_sessions').execute();
  await db.schema.dropTable('workspace_members').execute();
  await db.schema.dropTable('users').execute();
}
