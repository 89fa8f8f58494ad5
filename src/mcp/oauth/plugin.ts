import type { FastifyInstance } from 'fastify';
import { createClientDocuments } from './client-documents.ts';
import { consentRoutes } from './consent-route.ts';
import { discoveryRoutes } from './metadata.ts';
import { sdkRoutes } from './sdk-handlers.ts';

/**
 * OAuth 2.1 for multi-workspace connections: the discovery metadata, the MCP SDK's
 * authorization-server handlers (dynamic client registration, authorize, token with PKCE, revoke),
 * clients described by their own metadata documents, and our consent form. Every body is read as
 * a string, which the SDK bridge and the consent form each parse as they need.
 */
export async function oauthPlugin(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
  const documents = createClientDocuments(app.config);
  await app.register(discoveryRoutes);
  await app.register(sdkRoutes, { documents });
  await app.register(consentRoutes, { documents });
}
