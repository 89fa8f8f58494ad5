import type { Selectable } from 'kysely';
import type { AppDatabase } from '../app-db.ts';
import type { TryOnJobTable, TryOnLeadTable, TryOnUsageTable } from './tryon-schema.ts';

export type TryOnJob = Selectable<TryOnJobTable>;
export type TryOnLead = Selectable<TryOnLeadTable>;
export type TryOnUsage = Selectable<TryOnUsageTable>;

type Db = AppDatabase;

export async function findJob(db: Db, jobId: string): Promise<TryOnJob | undefined> {
  return db.selectFrom('tryon_jobs').selectAll().where('job_id', '=', jobId).executeTakeFirst();
}

export async function findJobByRequest(
  db: Db,
  key: { sessionId: number; uploadId: number; productHandle: string; variantId: string },
): Promise<TryOnJob | undefined> {
  return db
    .selectFrom('tryon_jobs')
    .selectAll()
    .where('session_id', '=', key.sessionId)
    .where('upload_id', '=', key.uploadId)
    .where('product_handle', '=', key.productHandle)
    .where('variant_id', '=', key.variantId)
    .executeTakeFirst();
}

export async function insertJob(
  db: Db,
  input: Pick<
    TryOnJob,
    'job_id' | 'workspace_id' | 'session_id' | 'upload_id' | 'product_handle' | 'variant_id' | 'reference_image' | 'experiment_id' | 'variant_index'
  >,
  now: Date,
): Promise<TryOnJob> {
  const at = now.toISOString();
  return db
    .insertInto('tryon_jobs')
    .values({ ...input, status: 'pending', reason: '', credit: 'reserved', lease: null, lease_until: null, tries: 0, result_key: null, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listUploadJobs(db: Db, uploadId: number): Promise<TryOnJob[]> {
  return db.selectFrom('tryon_jobs').selectAll().where('upload_id', '=', uploadId).orderBy('id').execute();
}

export async function listSessionJobs(db: Db, sessionId: number): Promise<TryOnJob[]> {
  return db.selectFrom('tryon_jobs').selectAll().where('session_id', '=', sessionId).orderBy('id').execute();
}

/**
 * Leases the oldest pending job that nobody holds (or whose holder's lease ran out, e.g. after
 * a restart). The conditional UPDATE makes two workers never hold the same job.
 */
export async function claimJob(db: Db, lease: string, now: Date, leaseMs: number): Promise<TryOnJob | undefined> {
  const at = now.toISOString();
  const candidates = await db
    .selectFrom('tryon_jobs')
    .select(['id', 'lease'])
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
    .orderBy('id')
    .limit(5)
    .execute();
  for (const candidate of candidates) {
    const result = await db
      .updateTable('tryon_jobs')
      .set((eb) => ({ lease, lease_until: new Date(now.getTime() + leaseMs).toISOString(), tries: eb('tries', '+', 1), updated_at: at }))
      .where('id', '=', candidate.id)
      .where('status', '=', 'pending')
      .where((eb) => (candidate.lease === null ? eb('lease', 'is', null) : eb('lease', '=', candidate.lease)))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) {
      return db.selectFrom('tryon_jobs').selectAll().where('id', '=', candidate.id).executeTakeFirstOrThrow();
    }
  }
  return undefined;
}

/** Extends a held lease; false when the job is no longer ours (cancelled, finished, taken over). */
export async function renewLease(db: Db, id: number, lease: string, now: Date, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable('tryon_jobs')
    .set({ lease_until: new Date(now.getTime() + leaseMs).toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('lease', '=', lease)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Publishes the outcome only while the job is still pending under this lease: a cancelled job,
 * or one taken over after a lease ran out, refuses the late result.
 */
export async function finishJob(
  db: Db,
  id: number,
  lease: string | null,
  outcome: { status: 'done'; resultKey: string } | { status: 'failed'; reason: string },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('tryon_jobs')
    .set({
      status: outcome.status,
      reason: outcome.status === 'failed' ? outcome.reason : '',
      result_key: outcome.status === 'done' ? outcome.resultKey : null,
      lease: null,
      lease_until: null,
      updated_at: now.toISOString(),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .$if(lease !== null, (qb) => qb.where('lease', '=', lease))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Any state -> cancelled; returns the job as it was, or undefined when already cancelled. */
export async function cancelJob(db: Db, id: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('tryon_jobs')
    .set({ status: 'cancelled', reason: '', lease: null, lease_until: null, result_key: null, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '!=', 'cancelled')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

const dayOf = (iso: string) => iso.slice(0, 10);

async function ensureUsageRow(db: Db, workspaceId: number, day: string): Promise<void> {
  await db
    .insertInto('tryon_usage')
    .values({ workspace_id: workspaceId, day, attempts: 0, credits_reserved: 0, credits_committed: 0, credits_released: 0 })
    .onConflict((oc) => oc.columns(['workspace_id', 'day']).doNothing())
    .execute();
}

/** Counts one attempt and reserves one generation credit unless the day's limit is reached. */
export async function takeDailyAttempt(db: Db, workspaceId: number, now: Date, limit: number): Promise<boolean> {
  const day = dayOf(now.toISOString());
  await ensureUsageRow(db, workspaceId, day);
  const result = await db
    .updateTable('tryon_usage')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), credits_reserved: eb('credits_reserved', '+', 1) }))
    .where('workspace_id', '=', workspaceId)
    .where('day', '=', day)
    .where('attempts', '<', limit)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Settles a job's reserved credit once: `committed` on done, `released` on failure or
 * cancellation. The reservation's day is the job's acceptance day.
 */
export async function settleCredit(db: Db, job: Pick<TryOnJob, 'id' | 'workspace_id' | 'created_at'>, to: 'committed' | 'released'): Promise<void> {
  const result = await db
    .updateTable('tryon_jobs')
    .set({ credit: to })
    .where('id', '=', job.id)
    .where('credit', '=', 'reserved')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return;
  await db
    .updateTable('tryon_usage')
    .set((eb) =>
      to === 'committed'
        ? { credits_reserved: eb('credits_reserved', '-', 1), credits_committed: eb('credits_committed', '+', 1) }
        : { credits_reserved: eb('credits_reserved', '-', 1), credits_released: eb('credits_released', '+', 1) },
    )
    .where('workspace_id', '=', job.workspace_id)
    .where('day', '=', dayOf(job.created_at))
    .execute();
}

export async function findUsage(db: Db, workspaceId: number, day: string): Promise<TryOnUsage | undefined> {
  return db.selectFrom('tryon_usage').selectAll().where('workspace_id', '=', workspaceId).where('day', '=', day).executeTakeFirst();
}

export async function findLead(db: Db, jobId: string): Promise<TryOnLead | undefined> {
  return db.selectFrom('tryon_leads').selectAll().where('job_id', '=', jobId).executeTakeFirst();
}

/** One lead per result; returns false when the job already has one (unique job_id). */
export async function insertLead(
  db: Db,
  input: { workspaceId: number; jobId: string; email: string; marketingVersion: string },
  now: Date,
): Promise<boolean> {
  const result = await db
    .insertInto('tryon_leads')
    .values({
      workspace_id: input.workspaceId,
      job_id: input.jobId,
      email: input.email,
      marketing_version: input.marketingVersion,
      status: 'unconfirmed',
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('job_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** A workspace's leads received at or after `since`, oldest first. */
export async function listLeads(db: Db, workspaceId: number, since: Date): Promise<TryOnLead[]> {
  return db
    .selectFrom('tryon_leads')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('created_at', '>=', since.toISOString())
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Deletes the leads received before `before` (the retention period's start); returns how many. */
export async function deleteLeadsBefore(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('tryon_leads').where('created_at', '<', before.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
