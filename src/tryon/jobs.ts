import crypto from 'node:crypto';
import { findJob, findJobByRequest, insertJob, takeDailyAttempt, type TryOnJob } from '../store/app/tryon-jobs.ts';
import { findUploadById, findUploadByKey, markUploadStored, takeSessionAttempt, type TryOnSession, type TryOnUpload } from '../store/app/tryon-sessions.ts';
import type { Storefront } from '../store/app/tryon-storefronts.ts';
import { catalogEntry } from './catalog.ts';
import { checkConsent } from './consent.ts';
import { RESULT_URL_LIFETIME_MS, photoKey, type TryOnContext } from './context.ts';
import { TryOnError } from './errors.ts';
import { sanitizePhoto } from './image.ts';
import { purgeUpload } from './media.ts';
import type { jobRequest } from './schema.ts';
import type { TryOnWorker } from './worker.ts';
import type { z } from 'zod';

export const newJobId = () => `job_${crypto.randomBytes(18).toString('base64url')}`;

/** A job's status as a shopper sees it: a done job's result URL, a failed job's reason. */
export type JobAnswer = { status: string; result_url?: string; reason?: string };

/** Makes a stored S3 object usable: S3 checked length and checksum; we check the content. */
async function ensureStored(ctx: TryOnContext, upload: TryOnUpload): Promise<void> {
  if (upload.status === 'stored') return;
  if (upload.status === 'deleted') throw new TryOnError('upload_invalid', 'The photo of this upload was deleted');
  const raw = ctx.storage.kind === 's3' ? await ctx.storage.get(photoKey(upload.upload_key)) : null;
  if (!raw) throw new TryOnError('upload_invalid', 'The photo has not been uploaded');
  try {
    await ctx.storage.put(photoKey(upload.upload_key), await sanitizePhoto(raw, upload.mime_type), upload.mime_type);
  } catch (error) {
    await ctx.storage.delete(photoKey(upload.upload_key));
    throw error;
  }
  await markUploadStored(ctx.stores.db, upload.id, ctx.now());
}

function checkExperiment(storefront: Storefront, body: z.infer<typeof jobRequest>): void {
  if (!storefront.experiment) return;
  if (body.experiment_id !== storefront.experiment.id) {
    throw new TryOnError('invalid_request', 'experiment_id must name the storefront\'s current experiment');
  }
  if (body.variant_index === undefined || body.variant_index >= storefront.experiment.variants) {
    throw new TryOnError('invalid_request', `variant_index must be an integer from 0 to ${storefront.experiment.variants - 1}`);
  }
}

const isUniqueViolation = (error: unknown) => /unique|duplicate/i.test(String((error as Error)?.message));

/**
 * `POST /jobs`: the job that renders the session's photo in one product variant. Asking again
 * for the same photo and variant answers the existing job without charging again; a new job
 * takes one session attempt and one of the storefront's daily attempts, and wakes the worker.
 */
export async function requestJob(
  ctx: TryOnContext,
  worker: TryOnWorker,
  request: { storefront: Storefront; session: TryOnSession; body: z.infer<typeof jobRequest> },
): Promise<Pick<TryOnJob, 'job_id' | 'status'>> {
  const { storefront, session, body } = request;
  const { db } = ctx.stores;
  checkConsent(storefront, body, false);
  checkExperiment(storefront, body);
  const upload = await findUploadByKey(db, body.upload_key);
  if (!upload || Number(upload.session_id) !== Number(session.id)) {
    throw new TryOnError('upload_invalid', 'upload_key does not name an upload of this session');
  }
  const key = { sessionId: session.id, uploadId: upload.id, productHandle: body.product_handle, variantId: body.variant_id };
  const existing = await findJobByRequest(db, key);
  if (existing) return { job_id: existing.job_id, status: existing.status };
  const ownJob = body.job_id === upload.first_job_id || (await findJob(db, body.job_id))?.upload_id === upload.id;
  if (!ownJob) throw new TryOnError('invalid_request', 'job_id does not belong to upload_key');

  await ensureStored(ctx, upload);
  const entry = await catalogEntry(ctx, storefront, body.product_handle, body.variant_id);
  const now = ctx.now();
  const accept = (jobId: string) =>
    db.transaction().execute(async (trx) => {
      if (!(await takeSessionAttempt(trx, session.id, storefront.sessionAttempts))) {
        throw new TryOnError('quota_exceeded', `This try-on session has used its ${storefront.sessionAttempts} attempts`);
      }
      if (!(await takeDailyAttempt(trx, storefront.workspaceId, now, storefront.dailyAttempts))) {
        throw new TryOnError('quota_exceeded', 'The storefront has reached its daily try-on limit');
      }
      return insertJob(
        trx,
        {
          job_id: jobId,
          workspace_id: storefront.workspaceId,
          session_id: session.id,
          upload_id: upload.id,
          product_handle: entry.productHandle,
          variant_id: entry.variantId,
          reference_image: entry.reference,
          experiment_id: storefront.experiment ? body.experiment_id! : '',
          variant_index: storefront.experiment ? body.variant_index! : null,
        },
        now,
      );
    });
  // The photo's first job takes the id announced at upload; style changes get new ids.
  const firstFree = !(await findJob(db, upload.first_job_id));
  let job: TryOnJob;
  try {
    job = await accept(firstFree ? upload.first_job_id : newJobId());
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A concurrent request won: either the same job (answer it) or the first id (take another).
    job = (await findJobByRequest(db, key)) ?? (await accept(newJobId()));
  }
  worker.kick();
  return { job_id: job.job_id, status: job.status };
}

/** The job with this id, if it belongs to the session; job_not_found otherwise. */
export async function sessionJob(ctx: TryOnContext, session: TryOnSession, id: string): Promise<TryOnJob> {
  const job = await findJob(ctx.stores.db, id);
  if (!job || Number(job.session_id) !== Number(session.id)) throw new TryOnError('job_not_found', 'No try-on job with this id in this session');
  return job;
}

/**
 * `GET /jobs/{id}`: the job's status; a done job comes with a fresh signed result URL that
 * expires within a minute and never after the session.
 */
export async function jobAnswer(ctx: TryOnContext, session: TryOnSession, job: TryOnJob, baseUrl: string): Promise<JobAnswer> {
  if (job.status === 'done' && job.result_key) {
    const expiresAt = new Date(Math.min(ctx.now().getTime() + RESULT_URL_LIFETIME_MS, Date.parse(session.expires_at)));
    return { status: 'done', result_url: await ctx.storage.downloadUrl(job.result_key, expiresAt, baseUrl) };
  }
  if (job.status === 'failed') return { status: 'failed', reason: job.reason };
  return { status: job.status };
}

/** `DELETE /jobs/{id}`: deletes the job's photo and everything made from it, and stops their generations. */
export async function cancelJobAndPhoto(ctx: TryOnContext, worker: TryOnWorker, job: TryOnJob): Promise<void> {
  const upload = await findUploadById(ctx.stores.db, job.upload_id);
  if (upload) worker.cancel(await purgeUpload(ctx, upload, 'cancel'));
}
