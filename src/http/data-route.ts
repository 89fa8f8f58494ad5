import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateDataRequest } from './auth.ts';
import { HttpError, sendError } from './errors.ts';
import { keyLane, runInLimits } from './request-chain.ts';

/** Every method Fastify routes, but GET (and the HEAD derived from it), answers 405. */
const OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Registers a read-only data-API endpoint. Other methods get 405 before any credential check;
 * GET requests are authenticated (400/401), then go through the key's request chain
 * (request-chain.ts: rate limit, bound on requests in flight, 429 over either) before the handler
 * validates parameters (400) and permissions (403).
 */
export function dataRoute(
  app: FastifyInstance,
  url: string,
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  app.route({
    method: 'GET',
    url,
    onRequest: async (request) => {
      request.auth = await authenticateDataRequest(app.stores.db, request);
    },
    handler: (request, reply) => runInLimits(app, keyLane(request.auth!.keyId), () => handler(request, reply), reply),
  });
  app.route({
    method: [...OTHER_METHODS],
    url,
    handler: async (_request, reply) => sendError(reply, new HttpError(405, 'Method not allowed')),
  });
}
