import type { Kysely } from 'kysely';

/**
 * Try-on limits (docs/try-on.md): each upload reservation remembers its client (a keyed hash of
 * the client's network, never the address) so open reservations can be counted per client and
 * per workspace; "not yet a job" looks jobs up by upload (also what the orphan sweep asks);
 * leads get an index for the retention sweep.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tryon_uploads').addColumn('client_key', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createIndex('tryon_uploads_client').on('tryon_uploads').columns(['client_key', 'created_at']).execute();
  await db.schema.createIndex('tryon_uploads_workspace').on('tryon_uploads').columns(['workspace_id', 'created_at']).execute();
  await db.schema.createIndex('tryon_jobs_upload').on('tryon_jobs').column('upload_id').execute();
  await db.schema.createIndex('tryon_leads_created').on('tryon_leads').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tryon_leads_created').execute();
  await db.schema.dropIndex('tryon_jobs_upload').execute();
  await db.schema.dropIndex('tryon_uploads_workspace').execute();
  await db.schema.dropIndex('tryon_uploads_client').execute();
  await db.schema.alterTable('tryon_uploads').dropColumn('client_key').execute();
}
