import crypto from 'node:crypto';
import { hashSecret, newToken } from '../store/app/secrets.ts';
import { countSessionUploads, createSession, createUpload, type TryOnSession } from '../store/app/tryon-sessions.ts';
import { lockStorefront, type Storefront } from '../store/app/tryon-storefronts.ts';
import { checkConsent } from './consent.ts';
import { SESSION_LIFETIME_MS, UPLOAD_URL_LIFETIME_MS, photoKey, type TryOnContext } from './context.ts';
import { TryOnError } from './errors.ts';
import { MAX_UPLOAD_BYTES, MIME_TYPES } from './image.ts';
import { newJobId } from './jobs.ts';
import { checkOpenUploads } from './reservations.ts';
import type { uploadRequest } from './schema.ts';
import type { z } from 'zod';

export interface UploadReservationRequest {
  storefront: Storefront;
  /** The session the shopper already holds and its token; null starts a new session. */
  session: { row: TryOnSession; token: string } | null;
  body: z.infer<typeof uploadRequest>;
  /** The client the reservation is counted against (reservations.ts). */
  clientKey: string;
  /** The service's public base URL, for the local storage's signed upload URL. */
  baseUrl: string;
}

export interface UploadReservation {
  job_id: string;
  upload_key: string;
  session_token: string;
  upload_url: string;
  upload_headers: Record<string, string>;
  expires_at: string;
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

/**
 * `POST /uploads`: reserves room for one declared photo in the shopper's session (a new one when
 * it has none), within the session's and the open-reservation limits, and hands out the signed
 * URL the photo goes to. The announced job id is the one the photo's first job will take.
 */
export async function reserveUpload(ctx: TryOnContext, request: UploadReservationRequest): Promise<UploadReservation> {
  const { storefront, session: existing, body } = request;
  checkConsent(storefront, body, true);
  const declared = checkUploadDeclaration(body);
  const now = ctx.now();
  const token = existing ? existing.token : newToken('tos');
  const upload = await ctx.stores.db.transaction().execute(async (trx) => {
    await lockStorefront(trx, storefront.workspaceId);
    const session =
      existing?.row ??
      (await createSession(trx, { workspaceId: storefront.workspaceId, tokenHash: hashSecret(token), now, lifetimeMs: SESSION_LIFETIME_MS }));
    if ((await countSessionUploads(trx, session.id)) >= storefront.sessionAttempts) {
      throw new TryOnError('quota_exceeded', 'This try-on session has reached its upload limit');
    }
    await checkOpenUploads(ctx, trx, storefront.workspaceId, request.clientKey);
    return createUpload(trx, {
      workspace_id: storefront.workspaceId,
      session_id: session.id,
      upload_key: crypto.randomBytes(24).toString('base64url'),
      first_job_id: newJobId(),
      bytes: declared.bytes,
      mime_type: declared.mime,
      checksum_sha256: declared.checksum,
      client_key: request.clientKey,
      url_expires_at: new Date(Math.min(now.getTime() + UPLOAD_URL_LIFETIME_MS, Date.parse(session.expires_at))).toISOString(),
      created_at: now.toISOString(),
    });
  });
  const expiresAt = new Date(upload.url_expires_at);
  const uploadUrl = await ctx.storage.uploadUrl(
    { key: photoKey(upload.upload_key), bytes: declared.bytes, mimeType: declared.mime, checksumSha256: declared.checksum, expiresAt },
    request.baseUrl,
  );
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
}
