import { sql, type Kysely } from 'kysely';

/**
 * Every code and token names the grant it belongs to: the consent that made the code, and every
 * token issued from it or from its refresh tokens. Reuse of a code or of a rotated refresh token,
 * and revoking a refresh token, revoke the whole grant (OAuth 2.1, RFC 6819 section 5.2.2.3;
 * docs/mcp.md). Rows from before carry their own hash as their grant: nothing links them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_codes').addColumn('grant_id', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('oauth_tokens').addColumn('grant_id', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.updateTable('oauth_codes').set({ grant_id: sql`code_hash` }).execute();
  await db.updateTable('oauth_tokens').set({ grant_id: sql`token_hash` }).execute();
  await db.schema.createIndex('oauth_tokens_grant').on('oauth_tokens').column('grant_id').execute();
  await db.schema.createIndex('oauth_codes_grant').on('oauth_codes').column('grant_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('oauth_codes_grant').execute();
  await db.schema.dropIndex('oauth_tokens_grant').execute();
  await db.schema.alterTable('oauth_tokens').dropColumn('grant_id').execute();
  await db.schema.alterTable('oauth_codes').dropColumn('grant_id').execute();
}
