import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Stores } from '../store/index.ts';
import { createSigner, loadSigningKey, type Signer } from './signing.ts';
import { createLocalStorage } from './storage/local.ts';
import { createS3Storage } from './storage/s3.ts';
import type { MediaStorage } from './storage/storage.ts';
import { createCompositor } from './generators/compositor.ts';
import { createHttpProvider } from './generators/http-provider.ts';
import type { Generator } from './generators/generator.ts';

/** Lifetimes of sessions, signed URLs and unused uploads (docs/try-on.md). */
export const SESSION_LIFETIME_MS = 23 * 60 * 60 * 1000;
export const UPLOAD_URL_LIFETIME_MS = 2 * 60 * 1000;
export const RESULT_URL_LIFETIME_MS = 60 * 1000;
/** An upload that has not become a job this long after its reservation is deleted. */
export const ORPHAN_UPLOAD_MS = 30 * 60 * 1000;

/** Everything the try-on routes, worker and sweeper share. */
export interface TryOnContext {
  config: Config;
  stores: Stores;
  storage: MediaStorage;
  generator: Generator;
  signer: Signer;
  /** Root of local try-on files: `<data dir>/tryon`. */
  root: string;
  now(): Date;
}

export function createTryOnContext(config: Config, stores: Stores, overrides: Partial<Pick<TryOnContext, 'storage' | 'generator' | 'now'>> = {}): TryOnContext {
  const root = path.join(config.dataDir, 'tryon');
  const signer = createSigner(loadSigningKey(config.tryon.signingSecret, config.dataDir));
  const storage =
    overrides.storage ??
    (config.tryon.storage === 's3' ? createS3Storage(config.tryon.s3) : createLocalStorage(path.join(root, 'objects'), signer));
  const generator =
    overrides.generator ??
    (config.tryon.generator === 'http'
      ? createHttpProvider({ url: config.tryon.providerUrl!, token: config.tryon.providerToken })
      : createCompositor());
  return { config, stores, storage, generator, signer, root, now: overrides.now ?? (() => new Date()) };
}

/** The service's public base URL: STORELENS_PUBLIC_URL, else the request's own scheme and host. */
export function baseUrl(ctx: TryOnContext, request: FastifyRequest): string {
  return (ctx.config.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}

/** The origin of baseUrl; null when the Host header does not make a URL. */
export function serviceOrigin(ctx: TryOnContext, request: FastifyRequest): string | null {
  try {
    return new URL(baseUrl(ctx, request)).origin;
  } catch {
    return null;
  }
}

export const photoKey = (uploadKey: string) => `${uploadKey}/photo`;
export const resultKey = (jobId: string) => `${jobId}/result`;
