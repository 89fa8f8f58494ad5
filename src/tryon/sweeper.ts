import type { Logger } from 'pino';
import { DAY_MS } from '../kit/calendar/days.ts';
import { deleteLeadsBefore } from '../store/app/tryon-jobs.ts';
import { listExpiredSessions, listOrphanUploads, listSessionUploads, markSessionSwept, markUploadDeleted } from '../store/app/tryon-sessions.ts';
import { ORPHAN_UPLOAD_MS, photoKey, type TryOnContext } from './context.ts';
import { purgeUpload } from './media.ts';

export interface SweepResult {
  sessions: number;
  orphan_uploads: number;
  leads: number;
}

/**
 * Deletes personal data that must not outlive its purpose: everything of sessions past their
 * 23 hours, photos whose upload never became a job within 30 minutes, and leads past their
 * retention period (docs/try-on.md, "Leads").
 */
export async function sweep(ctx: TryOnContext): Promise<SweepResult> {
  const { db } = ctx.stores;
  const now = ctx.now();
  let sessions = 0;
  for (;;) {
    const batch = await listExpiredSessions(db, now);
    for (const session of batch) {
      for (const upload of await listSessionUploads(db, session.id)) await purgeUpload(ctx, upload, 'expire');
      await markSessionSwept(db, session.id, now);
    }
    sessions += batch.length;
    if (batch.length === 0) break;
  }
  let orphans = 0;
  for (;;) {
    const batch = await listOrphanUploads(db, new Date(now.getTime() - ORPHAN_UPLOAD_MS));
    for (const upload of batch) {
      await ctx.storage.delete(photoKey(upload.upload_key));
      await markUploadDeleted(db, upload.id);
    }
    orphans += batch.length;
    if (batch.length === 0) break;
  }
  const leads = await deleteLeadsBefore(db, new Date(now.getTime() - ctx.config.tryon.leadRetentionDays * DAY_MS));
  return { sessions, orphan_uploads: orphans, leads };
}

export function startSweeper(ctx: TryOnContext, logger: Logger): { stop(): void } {
  const every = ctx.config.tryon.sweepIntervalMs;
  if (every <= 0) return { stop() {} };
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    sweep(ctx)
      .then((result) => (result.sessions || result.orphan_uploads || result.leads) && logger.info(result, 'try-on data swept'))
      .catch((err) => logger.error({ err }, 'try-on sweep failed'))
      .finally(() => (busy = false));
  }, every);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
