import type { FastifyInstance } from 'fastify';
import { wellFormedValue } from '../kit/well-formed.ts';

/**
 * Every JSON body Fastify parses (the dashboard's, OAuth's, the try-on API's) is made well-formed
 * before a route reads it (`src/kit/well-formed.ts`). Surfaces that read their body as text parse
 * it themselves and do the same there: the tool endpoint, the collector and the webhooks.
 */
export function installWellFormedBodies(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const body = request.body;
    if (body !== null && typeof body === 'object' && !ArrayBuffer.isView(body)) wellFormedValue(body);
  });
}
