import type { Kysely } from 'kysely';
import { createTableWithId } from './columns.ts';

/** Storefront try-on API state (docs/try-on.md). Timestamps are ISO text, JSON is text. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'tryon_storefronts')
    .addColumn('workspace_id', 'integer', (c) => c.notNull().unique().references('workspaces.id'))
    .addColumn('origins', 'text', (c) => c.notNull())
    .addColumn('consent_version', 'text', (c) => c.notNull())
    .addColumn('marketing_version', 'text', (c) => c.notNull())
    .addColumn('session_attempts', 'integer', (c) => c.notNull())
    .addColumn('daily_attempts', 'integer', (c) => c.notNull())
    .addColumn('coverage_max_age_days', 'integer', (c) => c.notNull())
    .addColumn('experiment_id', 'text', (c) => c.notNull())
    .addColumn('experiment_variants', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await createTableWithId(db, 'tryon_sessions')
    .addColumn('workspace_id', 'integer', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('media_deleted_at', 'text')
    .execute();
  await db.schema.createIndex('tryon_sessions_expiry').on('tryon_sessions').columns(['media_deleted_at', 'expires_at']).execute();

  await createTableWithId(db, 'tryon_uploads')
    .addColumn('workspace_id', 'integer', (c) => c.notNull())
    .addColumn('session_id', 'integer', (c) => c.notNull().references('tryon_sessions.id'))
    .addColumn('upload_key', 'text', (c) => c.notNull().unique())
    .addColumn('first_job_id', 'text', (c) => c.notNull().unique())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('checksum_sha256', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('url_expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('stored_at', 'text')
    .execute();
  await db.schema.createIndex('tryon_uploads_status').on('tryon_uploads').columns(['status', 'created_at']).execute();

  await createTableWithId(db, 'tryon_jobs')
    .addColumn('job_id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'integer', (c) => c.notNull())
    .addColumn('session_id', 'integer', (c) => c.notNull().references('tryon_sessions.id'))
    .addColumn('upload_id', 'integer', (c) => c.notNull().references('tryon_uploads.id'))
    .addColumn('product_handle', 'text', (c) => c.notNull())
    .addColumn('variant_id', 'text', (c) => c.notNull())
    .addColumn('reference_image', 'text', (c) => c.notNull())
    .addColumn('experiment_id', 'text', (c) => c.notNull())
    .addColumn('variant_index', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('credit', 'text', (c) => c.notNull())
    .addColumn('lease', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('tries', 'integer', (c) => c.notNull())
    .addColumn('result_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('tryon_jobs_request', ['session_id', 'upload_id', 'product_handle', 'variant_id'])
    .execute();
  await db.schema.createIndex('tryon_jobs_status').on('tryon_jobs').columns(['status', 'lease_until']).execute();

  await createTableWithId(db, 'tryon_leads')
    .addColumn('workspace_id', 'integer', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('marketing_version', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await createTableWithId(db, 'tryon_usage')
    .addColumn('workspace_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('credits_reserved', 'integer', (c) => c.notNull())
    .addColumn('credits_committed', 'integer', (c) => c.notNull())
    .addColumn('credits_released', 'integer', (c) => c.notNull())
    .addUniqueConstraint('tryon_usage_day', ['workspace_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['tryon_usage', 'tryon_leads', 'tryon_jobs', 'tryon_uploads', 'tryon_sessions', 'tryon_storefronts']) {
    await db.schema.dropTable(table).execute();
  }
}
