import type { Selectable } from 'kysely';
import type { AppDatabase } from '../app-db.ts';
import type { TryOnSessionTable, TryOnUploadTable } from './tryon-schema.ts';

export type TryOnSession = Selectable<TryOnSessionTable>;
export type TryOnUpload = Selectable<TryOnUploadTable>;

export async function createSession(
  db: AppDatabase,
  input: { workspaceId: number; tokenHash: string; now: Date; lifetimeMs: number },
): Promise<TryOnSession> {
  return db
    .insertInto('tryon_sessions')
    .values({
      workspace_id: input.workspaceId,
      token_hash: input.tokenHash,
      attempts: 0,
      created_at: input.now.toISOString(),
      expires_at: new Date(input.now.getTime() + input.lifetimeMs).toISOString(),
      media_deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findSessionByHash(db: AppDatabase, tokenHash: string): Promise<TryOnSession | undefined> {
  return db.selectFrom('tryon_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function findSessionById(db: AppDatabase, id: number): Promise<TryOnSession | undefined> {
  return db.selectFrom('tryon_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countSessionUploads(db: AppDatabase, sessionId: number): Promise<number> {
  const row = await db
    .selectFrom('tryon_uploads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Upload reservations that may still hold a photo: reserved since `since`, not deleted, and not
 * the photo of a job yet. Counted per client key or per workspace.
 */
export async function countOpenUploads(
  db: AppDatabase,
  by: { column: 'client_key'; value: string } | { column: 'workspace_id'; value: number },
  since: Date,
): Promise<number> {
  const row = await db
    .selectFrom('tryon_uploads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(by.column, '=', by.value)
    .where('created_at', '>', since.toISOString())
    .where('status', '!=', 'deleted')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('tryon_jobs').select('tryon_jobs.id').whereRef('tryon_jobs.upload_id', '=', 'tryon_uploads.id'))),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Counts one generation attempt unless the session's limit is reached (atomic). */
export async function takeSessionAttempt(db: AppDatabase, sessionId: number, limit: number): Promise<boolean> {
  const result = await db
    .updateTable('tryon_sessions')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', sessionId)
    .where('attempts', '<', limit)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Sessions whose 23 hours are over and whose media has not been swept yet. */
export async function listExpiredSessions(db: AppDatabase, now: Date, limit = 100): Promise<TryOnSession[]> {
  return db
    .selectFrom('tryon_sessions')
    .selectAll()
    .where('media_deleted_at', 'is', null)
    .where('expires_at', '<=', now.toISOString())
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function markSessionSwept(db: AppDatabase, sessionId: number, now: Date): Promise<void> {
  await db.updateTable('tryon_sessions').set({ media_deleted_at: now.toISOString() }).where('id', '=', sessionId).execute();
}

export async function createUpload(
  db: AppDatabase,
  input: Omit<TryOnUpload, 'id' | 'status' | 'stored_at'>,
): Promise<TryOnUpload> {
  return db
    .insertInto('tryon_uploads')
    .values({ ...input, status: 'reserved', stored_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findUploadByKey(db: AppDatabase, uploadKey: string): Promise<TryOnUpload | undefined> {
  return db.selectFrom('tryon_uploads').selectAll().where('upload_key', '=', uploadKey).executeTakeFirst();
}

export async function findUploadById(db: AppDatabase, id: number): Promise<TryOnUpload | undefined> {
  return db.selectFrom('tryon_uploads').selectAll().where('id', '=', id).executeTakeFirst();
}

/** reserved -> stored, once: a second write of the same key does not match. */
export async function markUploadStored(db: AppDatabase, id: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('tryon_uploads')
    .set({ status: 'stored', stored_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'reserved')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markUploadDeleted(db: AppDatabase, id: number): Promise<void> {
  await db.updateTable('tryon_uploads').set({ status: 'deleted' }).where('id', '=', id).execute();
}

export async function listSessionUploads(db: AppDatabase, sessionId: number): Promise<TryOnUpload[]> {
  return db.selectFrom('tryon_uploads').selectAll().where('session_id', '=', sessionId).execute();
}

/** Uploads reserved before `before` that never became a job (and are not deleted yet). */
export async function listOrphanUploads(db: AppDatabase, before: Date, limit = 100): Promise<TryOnUpload[]> {
  return db
    .selectFrom('tryon_uploads')
    .selectAll()
    .where('status', '!=', 'deleted')
    .where('created_at', '<', before.toISOString())
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('tryon_jobs').select('tryon_jobs.id').whereRef('tryon_jobs.upload_id', '=', 'tryon_uploads.id'))),
    )
    .orderBy('id')
    .limit(limit)
    .execute();
}
