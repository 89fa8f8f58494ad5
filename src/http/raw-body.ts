import type { FastifyInstance } from 'fastify';

/**
 * Bodies of these content types reach the routes of `app` (an encapsulated plugin) as the bytes
 * that came, a Buffer: a webhook's signature covers the raw body, and text decoded from it and
 * encoded again is not those bytes when they are not valid UTF-8.
 */
export function readBodiesAsBytes(app: FastifyInstance, types: string[]): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(types, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}

/** The body a route read with `readBodiesAsBytes`; empty when none came. */
export const bodyBytes = (body: unknown): Buffer => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));
