import type { FastifyPluginAsync } from 'fastify';
import { contentSecurityPolicy } from '../../http/security-headers.ts';
import { openApiDocument } from './document.ts';
import { REFERENCE_CSS, referencePage } from './page.ts';

/**
 * `GET /openapi.json` (the data API as OpenAPI 3.1), `GET /api-docs` (the same rendered as a
 * page) and its stylesheet. Public: they describe the API, not a workspace's data.
 */
export const openApiRoute: FastifyPluginAsync = async (app) => {
  // The servers entry: the public URL when set; else relative, so it resolves against wherever
  // the document was fetched from.
  const document = openApiDocument(app.config.publicUrl?.replace(/\/+$/, '') || '/');
  const json = JSON.stringify(document);
  const page = referencePage(document);

  app.get('/openapi.json', { config: { cors: { origin: '*' } } }, async (_request, reply) => reply.type('application/json; charset=utf-8').send(json));
  app.get('/api-docs', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', contentSecurityPolicy({ 'style-src': ["'self'"] })).send(page),
  );
  app.get('/api-docs.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(REFERENCE_CSS));
};
