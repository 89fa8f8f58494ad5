import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateDataRequest } from './auth.ts';
import { HttpError, sendError } from './errors.ts';

/** Every method Fastify routes, but GET (and the HEAD derived from it), answers 405. */
const OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Registers a read-only data-API endpoint. Other methods get 405 before any credential check;
 * GET requests are authenticated (400/401) and rate-limited (429) before the handler validates
 * parameters (400) and permissions (403). The handler counts against the key's bound on requests
 * in flight (429 over it).
 */
export function dataRoute(
  app: FastifyInstance,
  url: string,
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  app.route({
    method: 'GET',
    url,
    onRequest: async (request, reply) => {
      request.auth = await authenticateDataRequest(app.stores.db, request);
      const { headers } = await app.limits.consume(`key:${request.auth.keyId}`);
      reply.headers(headers);
    },
    handler: (request, reply) => app.inFlight.run(`key:${request.auth!.keyId}`, () => handler(request, reply)),
  });
  app.route({
    method: [...OTHER_METHODS],
    url,
    handler: async (_request, reply) => sendError(reply, new HttpError(405, 'Method not allowed')),
  });
}
