import type { Kysely } from 'kysely';

/**
 * OAuth tokens remember the resource (RFC 8707) they were issued for, so a token obtained for
 * `/mcp/oauth` is not accepted elsewhere (docs/mcp.md). Tokens issued before carry '' (none).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_tokens').addColumn('resource', 'text', (c) => c.notNull().defaultTo('')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_tokens').dropColumn('resource').execute();
}
