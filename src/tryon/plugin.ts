import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { createTryOnContext, type TryOnContext } from './context.ts';
import { demoStorefrontRoutes } from './demo.ts';
import { TryOnError, type TryOnErrorCode } from './errors.ts';
import { pathOf } from '../http/errors.ts';
import { preflightRoute, type CorsRule } from '../http/cors.ts';
import { bundleShopScript } from '../kit/browser-bundle.ts';
import { Unavailable } from '../kit/errors.ts';
import { tryOnApiRoutes } from './routes.ts';
import { tryOnStorageRoutes } from './storage-routes.ts';
import { startSweeper, sweep, type SweepResult } from './sweeper.ts';
import { createWorker, type TryOnWorker } from './worker.ts';

export interface TryOnRuntime {
  context: TryOnContext;
  worker: TryOnWorker;
  sweep(): Promise<SweepResult>;
}

declare module 'fastify' {
  interface FastifyInstance {
    tryon: TryOnRuntime;
  }
}

function sendTryOnError(reply: FastifyReply, code: TryOnErrorCode, message: string, status: number) {
  return reply.code(status).send({ error: { code, message } });
}

function toTryOnError(error: unknown): TryOnError {
  if (error instanceof TryOnError) return error;
  if (error instanceof Unavailable) return new TryOnError('service_unavailable', error.message);
  const fastifyError = error as FastifyError;
  const status = fastifyError?.statusCode ?? 500;
  if (status === 413) return new TryOnError('upload_invalid', 'The request body is too large');
  if (status >= 400 && status < 500) return new TryOnError('invalid_request', 'The request is not valid JSON of the expected shape');
  return new TryOnError('internal_error', 'Internal server error');
}

/**
 * Preflight: any page may ask (a request without Origin is no preflight); each real request checks
 * the workspace's verified origin and only then lets the browser read the answer (`access.ts`).
 */
const PREFLIGHT: CorsRule = {
  origin: async (origin: string | undefined) => origin !== undefined,
  methods: 'GET, POST, PUT, DELETE',
  allowedHeaders: 'content-type, x-try-on-session, x-storage-checksum-sha256, if-none-match',
  maxAge: 600,
};

/**
 * The storefront try-on API under /try-on/v1, its job worker and media sweeper (started and
 * stopped with the app), and the demo storefront page at /demo/storefront. Not encapsulated
 * (fastify-plugin): the app carries the runtime as `app.tryon`, for the CLI's commands and tests.
 */
export const tryOnPlugin = fp(async (app: FastifyInstance) => {
  const context = createTryOnContext(app.config, app.stores);
  const worker = createWorker(context, app.log as never);
  app.decorate('tryon', { context, worker, sweep: () => sweep(context) });
  let sweeper: { stop(): void } | null = null;
  app.addHook('onReady', async () => {
    worker.start();
    sweeper = startSweeper(context, app.log as never);
  });
  app.addHook('onClose', async () => {
    sweeper?.stop();
    await worker.stop();
  });

  await app.register(
    async (api) => {
      api.setErrorHandler((error, request, reply) => {
        const tryOnError = toTryOnError(error);
        // An Unavailable is not a fault of this request: the analytics store has logged it.
        if (tryOnError.code === 'internal_error') request.log.error({ err: error, path: pathOf(request) }, 'try-on request failed');
        return sendTryOnError(reply, tryOnError.code, tryOnError.message, tryOnError.status);
      });
      api.setNotFoundHandler((_request, reply) => sendTryOnError(reply, 'not_found', 'Not found', 404));
      preflightRoute(api, '/*', PREFLIGHT);
      api.get('/tracking.js', async (_request, reply) =>
        reply
          .type('text/javascript; charset=utf-8')
          .header('cache-control', 'public, max-age=300')
          .send(await bundleShopScript(new URL('./client/tracking.js', import.meta.url), { minify: true })),
      );
      await api.register(tryOnApiRoutes, { ctx: context, worker });
      await api.register(tryOnStorageRoutes, { ctx: context });
    },
    { prefix: '/try-on/v1' },
  );

  await app.register(demoStorefrontRoutes, { ctx: context });
}, { name: 'try-on' });
