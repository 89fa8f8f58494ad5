import { cancelJob, finishJob, listUploadJobs, settleCredit } from '../store/app/tryon-jobs.ts';
import { markUploadDeleted, type TryOnUpload } from '../store/app/tryon-sessions.ts';
import { photoKey, resultKey, type TryOnContext } from './context.ts';

/**
 * Removes a photo and everything generated from it; returns the ids of its jobs. `cancel` (DELETE /jobs/{id}) turns every
 * job of the upload into `cancelled`; `expire` (the sweeper) fails pending jobs with
 * `session_expired` and leaves finished jobs' status alone. Reserved credits are released.
 * Result files are deleted by their derived key too, so a result written by a worker that has
 * not published yet is caught here or by the worker's own refused publish.
 */
export async function purgeUpload(ctx: TryOnContext, upload: TryOnUpload, mode: 'cancel' | 'expire'): Promise<string[]> {
  const { db } = ctx.stores;
  const now = ctx.now();
  const jobs = await listUploadJobs(db, upload.id);
  for (const job of jobs) {
    if (mode === 'cancel') await cancelJob(db, job.id, now);
    else if (job.status === 'pending') await finishJob(db, job.id, null, { status: 'failed', reason: 'session_expired' }, now);
    await settleCredit(db, job, 'released');
    await ctx.storage.delete(resultKey(job.job_id));
  }
  await ctx.storage.delete(photoKey(upload.upload_key));
  await markUploadDeleted(db, upload.id);
  return jobs.map((job) => job.job_id);
}
