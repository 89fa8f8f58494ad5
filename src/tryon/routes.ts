import crypto from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { hashSecret, newToken } from '../store/app/secrets.ts';
import {
  findJob,
  findJobByRequest,
  findLead,
  insertJob,
  insertLead,
  takeDailyAttempt,
  type TryOnJob,
} from '../store/app/tryon-jobs.ts';
import {
  countSessionUploads,
  createSession,
  createUpload,
  findUploadById,
  findUploadByKey,
  markUploadStored,
  takeSessionAttempt,
  type TryOnSession,
  type TryOnUpload,
} from '../store/app/tryon-sessions.ts';
import { lockStorefront, type Storefront } from '../store/app/tryon-storefronts.ts';
import { SESSION_HEADER, requireSession, verifiedStorefront } from './access.ts';
import { catalogEntry } from './catalog.ts';
import {
  RESULT_URL_LIFETIME_MS,
  SESSION_LIFETIME_MS,
  UPLOAD_URL_LIFETIME_MS,
  baseUrl,
  photoKey,
  type TryOnContext,
} from './context.ts';
import { TryOnError } from './errors.ts';
import { MAX_UPLOAD_BYTES, MIME_TYPES, sanitizePhoto } from './image.ts';
import { purgeUpload } from './media.ts';
import { checkOpenUploads, clientKeyOf } from './reservations.ts';
import { firstIssue, jobRequest, leadRequest, uploadRequest } from './schema.ts';
import type { TryOnWorker } from './worker.ts';
import type { z } from 'zod';

const randomId = (prefix: string) => `${prefix}_${crypto.randomBytes(18).toString('base64url')}`;

function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw new TryOnError('invalid_request', firstIssue(result.error));
  return result.data;
}

function checkConsent(storefront: Storefront, body: { consent?: boolean; adult?: boolean; consent_version?: string }, needAdult: boolean): void {
  if (body.consent !== true) throw new TryOnError('invalid_consent', 'consent must be true');
  if (needAdult && body.adult !== true) throw new TryOnError('invalid_consent', 'adult must be true');
  if (body.consent_version !== storefront.consentVersion) {
    throw new TryOnError('invalid_consent', 'consent_version is not the current consent version');
  }
}

function checkUploadDeclaration(body: { bytes: unknown; mime_type: unknown; checksum_sha256: unknown }) {
  const { bytes, mime_type: mime, checksum_sha256: checksum } = body;
  if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 1 || bytes > MAX_UPLOAD_BYTES) {
    throw new TryOnError('upload_invalid', `bytes must be an integer from 1 to ${MAX_UPLOAD_BYTES} (7 MB)`);
  }
  if (typeof mime !== 'string' || !(MIME_TYPES as readonly string[]).includes(mime)) {
    throw new TryOnError('upload_invalid', 'mime_type must be image/jpeg or image/png');
  }
  if (typeof checksum !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(checksum)) {
    throw new TryOnError('upload_invalid', 'checksum_sha256 must be the base64 SHA-256 of the file');
  }
  return { bytes, mime, checksum };
}

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

async function jobOfSession(ctx: TryOnContext, id: string, session: TryOnSession): Promise<TryOnJob> {
  const job = await findJob(ctx.stores.db, id);
  if (!job || Number(job.session_id) !== Number(session.id)) throw new TryOnError('job_not_found', 'No try-on job with this id in this session');
  return job;
}

const isUniqueViolation = (error: unknown) => /unique|duplicate/i.test(String((error as Error)?.message));

/** The try-on API of docs/try-on.md, under /try-on/v1. */
export function tryOnApiRoutes(ctx: TryOnContext, worker: TryOnWorker): FastifyPluginAsync {
  const { db } = ctx.stores;
  return async (app) => {
    app.post('/uploads', async (request, reply) => {
      const storefront = await verifiedStorefront(ctx, request, reply);
      const now = ctx.now();
      const given = request.headers[SESSION_HEADER];
      const existing = given === undefined ? null : await requireSession(ctx, request, storefront);
      const body = parse(uploadRequest, request.body);
      checkConsent(storefront, body, true);
      const declared = checkUploadDeclaration(body);
      const token = existing ? String(given) : newToken('tos');
      const clientKey = clientKeyOf(ctx, request);
      const upload = await db.transaction().execute(async (trx) => {
        await lockStorefront(trx, storefront.workspaceId);
        const session =
          existing ??
          (await createSession(trx, { workspaceId: storefront.workspaceId, tokenHash: hashSecret(token), now, lifetimeMs: SESSION_LIFETIME_MS }));
        if ((await countSessionUploads(trx, session.id)) >= storefront.sessionAttempts) {
          throw new TryOnError('quota_exceeded', 'This try-on session has reached its upload limit');
        }
        await checkOpenUploads(ctx, trx, storefront.workspaceId, clientKey);
        return createUpload(trx, {
          workspace_id: storefront.workspaceId,
          session_id: session.id,
          upload_key: crypto.randomBytes(24).toString('base64url'),
          first_job_id: randomId('job'),
          bytes: declared.bytes,
          mime_type: declared.mime,
          checksum_sha256: declared.checksum,
          client_key: clientKey,
          url_expires_at: new Date(Math.min(now.getTime() + UPLOAD_URL_LIFETIME_MS, Date.parse(session.expires_at))).toISOString(),
          created_at: now.toISOString(),
        });
      });
      const expiresAt = new Date(upload.url_expires_at);
      const uploadUrl = await ctx.storage.uploadUrl(
        { key: photoKey(upload.upload_key), bytes: declared.bytes, mimeType: declared.mime, checksumSha256: declared.checksum, expiresAt },
        baseUrl(ctx, request),
      );
      reply.code(200).header('cache-control', 'no-store');
      return {
        job_id: upload.first_job_id,
        upload_key: upload.upload_key,
        session_token: token,
        upload_url: uploadUrl,
        upload_headers: {
          'content-type': declared.mime,
          [ctx.storage.checksumHeader]: declared.checksum,
          'if-none-match': '*',
        },
        expires_at: expiresAt.toISOString(),
      };
    });

    app.post('/jobs', async (request, reply) => {
      const storefront = await verifiedStorefront(ctx, request, reply);
      const session = await requireSession(ctx, request, storefront);
      const body = parse(jobRequest, request.body);
      checkConsent(storefront, body, false);
      if (storefront.experiment) {
        if (body.experiment_id !== storefront.experiment.id) {
          throw new TryOnError('invalid_request', 'experiment_id must name the storefront\'s current experiment');
        }
        if (body.variant_index === undefined || body.variant_index >= storefront.experiment.variants) {
          throw new TryOnError('invalid_request', `variant_index must be an integer from 0 to ${storefront.experiment.variants - 1}`);
        }
      }
      const upload = await findUploadByKey(db, body.upload_key);
      if (!upload || Number(upload.session_id) !== Number(session.id)) {
        throw new TryOnError('upload_invalid', 'upload_key does not name an upload of this session');
      }
      const key = { sessionId: session.id, uploadId: upload.id, productHandle: body.product_handle, variantId: body.variant_id };
      const existing = await findJobByRequest(db, key);
      if (existing) return reply.code(202).send({ job_id: existing.job_id, status: existing.status });
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
        job = await accept(firstFree ? upload.first_job_id : randomId('job'));
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // A concurrent request won: either the same job (answer it) or the first id (take another).
        job = (await findJobByRequest(db, key)) ?? (await accept(randomId('job')));
      }
      worker.kick();
      return reply.code(202).send({ job_id: job.job_id, status: job.status });
    });

    app.get<{ Params: { id: string } }>('/jobs/:id', async (request, reply) => {
      const storefront = await verifiedStorefront(ctx, request, reply);
      const session = await requireSession(ctx, request, storefront);
      const job = await jobOfSession(ctx, request.params.id, session);
      reply.header('cache-control', 'no-store');
      if (job.status === 'done' && job.result_key) {
        const expiresAt = new Date(Math.min(ctx.now().getTime() + RESULT_URL_LIFETIME_MS, Date.parse(session.expires_at)));
        return { status: 'done', result_url: await ctx.storage.downloadUrl(job.result_key, expiresAt, baseUrl(ctx, request)) };
      }
      if (job.status === 'failed') return { status: 'failed', reason: job.reason };
      return { status: job.status };
    });

    app.delete<{ Params: { id: string } }>('/jobs/:id', async (request, reply) => {
      const storefront = await verifiedStorefront(ctx, request, reply);
      const session = await requireSession(ctx, request, storefront);
      const job = await jobOfSession(ctx, request.params.id, session);
      const upload = await findUploadById(db, job.upload_id);
      if (upload) worker.cancel(await purgeUpload(ctx, upload, 'cancel'));
      return { status: 'cancelled' };
    });

    app.post<{ Params: { id: string } }>('/jobs/:id/leads', async (request, reply) => {
      const storefront = await verifiedStorefront(ctx, request, reply);
      const session = await requireSession(ctx, request, storefront);
      const job = await jobOfSession(ctx, request.params.id, session);
      const body = parse(leadRequest, request.body);
      if (body.marketing_consent !== true) throw new TryOnError('invalid_consent', 'marketing_consent must be true');
      if (body.marketing_version !== storefront.marketingVersion) {
        throw new TryOnError('invalid_consent', 'marketing_version is not the current marketing version');
      }
      if (job.status !== 'done') throw new TryOnError('lead_not_allowed', 'Only a completed try-on accepts a contact request');
      const email = body.email.trim().toLowerCase();
      const created = await insertLead(db, { workspaceId: storefront.workspaceId, jobId: job.job_id, email, marketingVersion: storefront.marketingVersion }, ctx.now());
      if (!created && (await findLead(db, job.job_id))?.email !== email) {
        throw new TryOnError('lead_not_allowed', 'This result already has a contact request');
      }
      return { status: 'received', created };
    });
  };
}
