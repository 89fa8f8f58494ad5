import crypto from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { findStorefront } from '../store/app/tryon-storefronts.ts';
import { findUploadByKey, markUploadStored, type TryOnUpload } from '../store/app/tryon-sessions.ts';
import { allowOrigin } from './access.ts';
import { photoKey, type TryOnContext } from './context.ts';
import { TryOnError } from './errors.ts';
import { MAX_UPLOAD_BYTES, sanitizePhoto } from './image.ts';
import { downloadSignatureParts, isStorageKey, uploadSignatureParts } from './storage/local.ts';

type KeyParams = { id: string; name: string };
type Signed = { expires?: string; sig?: string };

const CHECKSUM_HEADER = 'x-storage-checksum-sha256';

function signedExpiry(query: Signed): number {
  const expires = Number(query.expires);
  if (!query.sig || !Number.isInteger(expires)) throw new TryOnError('signature_invalid', 'The URL signature is not valid');
  return expires;
}

function checkNotExpired(ctx: TryOnContext, expires: number): void {
  if (expires * 1000 <= ctx.now().getTime()) throw new TryOnError('url_expired', 'The signed URL has expired');
}

/**
 * The service's own storage endpoint (embedded mode): signed PUT of a reserved photo and
 * signed GET of media. Every header check runs before the body is read.
 */
export const tryOnStorageRoutes: FastifyPluginAsync<{ ctx: TryOnContext }> = async (app, { ctx }) => {
  const reserved = new WeakMap<FastifyRequest, TryOnUpload>();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));

  app.put<{ Params: KeyParams; Querystring: Signed; Body: Buffer }>('/storage/:id/:name', {
    onRequest: async (request, reply) => {
      const key = `${request.params.id}/${request.params.name}`;
      const expires = signedExpiry(request.query);
      const upload = isStorageKey(key) && request.params.name === 'photo' ? await findUploadByKey(ctx.stores.db, request.params.id) : undefined;
      const parts = upload && uploadSignatureParts(key, expires, upload.bytes, upload.mime_type, upload.checksum_sha256);
      if (!upload || !parts || !ctx.signer.verify(parts, request.query.sig!)) {
        throw new TryOnError('signature_invalid', 'The URL signature is not valid');
      }
      const origin = request.headers.origin;
      if (origin && (await findStorefront(ctx.stores.db, upload.workspace_id))?.origins.includes(origin)) allowOrigin(reply, origin);
      checkNotExpired(ctx, expires);
      if (request.headers['if-none-match'] !== '*') throw new TryOnError('invalid_request', 'If-None-Match: * is required');
      if (upload.status !== 'reserved') throw new TryOnError('upload_exists', 'An object already exists under this key');
      if (request.headers['content-type'] !== upload.mime_type) {
        throw new TryOnError('upload_invalid', 'Content-Type does not match the reserved mime_type');
      }
      if (request.headers['content-length'] !== String(upload.bytes)) {
        throw new TryOnError('upload_invalid', 'Content-Length does not match the reserved size');
      }
      if (request.headers[CHECKSUM_HEADER] !== upload.checksum_sha256) {
        throw new TryOnError('upload_invalid', `${CHECKSUM_HEADER} does not match the reserved checksum`);
      }
      reserved.set(request, upload);
    },
    handler: async (request, reply) => {
      const upload = reserved.get(request)!;
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length !== upload.bytes) {
        throw new TryOnError('upload_invalid', 'The body length does not match the reserved size');
      }
      const digest = crypto.createHash('sha256').update(body).digest('base64');
      if (digest !== upload.checksum_sha256) throw new TryOnError('upload_invalid', 'The body does not match its SHA-256 checksum');
      const clean = await sanitizePhoto(body, upload.mime_type);
      await ctx.storage.put(photoKey(upload.upload_key), clean, upload.mime_type);
      if (!(await markUploadStored(ctx.stores.db, upload.id, ctx.now()))) {
        throw new TryOnError('upload_exists', 'An object already exists under this key');
      }
      return reply.code(200).header('etag', `"${digest}"`).send();
    },
  });

  // A signed URL is the credential: any page that holds one may read the image, or why not.
  app.get<{ Params: KeyParams; Querystring: Signed }>('/media/:id/:name', { config: { cors: { origin: '*' } } }, async (request, reply) => {
    const key = `${request.params.id}/${request.params.name}`;
    const expires = signedExpiry(request.query);
    if (!isStorageKey(key) || !ctx.signer.verify(downloadSignatureParts(key, expires), request.query.sig!)) {
      throw new TryOnError('signature_invalid', 'The URL signature is not valid');
    }
    checkNotExpired(ctx, expires);
    const body = await ctx.storage.get(key);
    if (!body) throw new TryOnError('media_not_found', 'This media no longer exists');
    const type = body[0] === 0x89 ? 'image/png' : 'image/jpeg';
    return reply
      .header('content-type', type)
      .header('cache-control', 'private, no-store')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(body);
  });
};
