import crypto from 'node:crypto';
import type { Logger } from 'pino';
import { claimJob, finishJob, renewLease, settleCredit, type TryOnJob } from '../store/app/tryon-jobs.ts';
import { findSessionById, findUploadById } from '../store/app/tryon-sessions.ts';
import { loadReference } from './catalog.ts';
import { photoKey, resultKey, type TryOnContext } from './context.ts';
import type { FailureReason } from './errors.ts';
import { GenerationError } from './generators/generator.ts';

/** A lease this old is free to take over (its holder crashed or stopped). */
export const LEASE_MS = 30_000;
/** A job leased this many times without an outcome fails with generation_failed. */
export const MAX_TRIES = 3;

export interface TryOnWorker {
  /** Processes every job that is due now, one after another; resolves with how many. */
  drain(): Promise<number>;
  /** Asks the background loop to look for work now (no-op without a loop). */
  kick(): void;
  /** Stops generating these jobs now if this process runs them (their rows are already cancelled). */
  cancel(jobIds: string[]): void;
  start(): void;
  stop(): Promise<void>;
}

export function createWorker(ctx: TryOnContext, logger: Logger): TryOnWorker {
  const boot = crypto.randomBytes(6).toString('base64url');
  let counter = 0;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  const stopping = new AbortController();
  const inFlight = new Map<string, AbortController>();
  const { db } = ctx.stores;

  async function fail(job: TryOnJob, lease: string | null, reason: FailureReason): Promise<void> {
    if (await finishJob(db, job.id, lease, { status: 'failed', reason }, ctx.now())) await settleCredit(db, job, 'released');
  }

  async function process(job: TryOnJob, lease: string): Promise<void> {
    const session = await findSessionById(db, job.session_id);
    if (!session || session.expires_at <= ctx.now().toISOString()) return fail(job, lease, 'session_expired');
    if (job.tries > MAX_TRIES) return fail(job, lease, 'generation_failed');
    const upload = await findUploadById(db, job.upload_id);
    const person = upload && upload.status === 'stored' ? await ctx.storage.get(photoKey(upload.upload_key)) : null;
    if (!person) return fail(job, lease, 'input_unreadable');

    const abort = new AbortController();
    inFlight.set(job.job_id, abort);
    const onStop = () => abort.abort();
    stopping.signal.addEventListener('abort', onStop);
    const heartbeat = setInterval(() => {
      renewLease(db, job.id, lease, ctx.now(), LEASE_MS).then(
        (held) => held || abort.abort(),
        () => undefined,
      );
    }, LEASE_MS / 3);
    heartbeat.unref();
    try {
      let reference: Buffer;
      try {
        reference = await loadReference(ctx.root, job.reference_image, abort.signal);
      } catch (error) {
        if (abort.signal.aborted) return;
        logger.warn({ job: job.job_id, err: (error as Error).message }, 'try-on reference image unavailable');
        return fail(job, lease, 'generation_failed');
      }
      let output;
      try {
        output = await ctx.generator.generate({ jobId: job.job_id, person, reference, signal: abort.signal });
      } catch (error) {
        if (abort.signal.aborted) return;
        if (error instanceof GenerationError) return fail(job, lease, error.reason);
        logger.error({ job: job.job_id, err: error }, 'try-on generation crashed');
        return fail(job, lease, 'generation_failed');
      }
      const key = resultKey(job.job_id);
      await ctx.storage.put(key, output.image, output.mimeType);
      if (await finishJob(db, job.id, lease, { status: 'done', resultKey: key }, ctx.now())) {
        await settleCredit(db, job, 'committed');
      } else {
        // Cancelled (or taken over) while we worked: the result must not outlive the refusal.
        await ctx.storage.delete(key);
      }
    } finally {
      inFlight.delete(job.job_id);
      clearInterval(heartbeat);
      stopping.signal.removeEventListener('abort', onStop);
    }
  }

  async function drainOnce(): Promise<number> {
    let done = 0;
    while (!stopping.signal.aborted) {
      const lease = `${boot}:${++counter}`;
      const job = await claimJob(db, lease, ctx.now(), LEASE_MS);
      if (!job) break;
      try {
        await process(job, lease);
      } catch (error) {
        logger.error({ job: job.job_id, err: error }, 'try-on job failed unexpectedly');
        await fail(job, lease, 'generation_failed').catch(() => undefined);
      }
      done++;
    }
    return done;
  }

  const worker: TryOnWorker = {
    drain() {
      if (!running) running = drainOnce().finally(() => (running = null));
      return running;
    },
    kick() {
      if (timer) setImmediate(() => worker.drain().catch((err) => logger.error({ err }, 'try-on worker failed')));
    },
    cancel(jobIds) {
      for (const id of jobIds) inFlight.get(id)?.abort();
    },
    start() {
      const every = ctx.config.tryon.workerIntervalMs;
      if (every <= 0 || timer) return;
      timer = setInterval(() => worker.kick(), every);
      timer.unref();
      worker.kick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      stopping.abort();
      await running?.catch(() => undefined);
    },
  };
  return worker;
}
