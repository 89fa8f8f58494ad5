import type { FastifyInstance } from 'fastify';
import { registerConsent } from './consent-route.ts';
import { registerDiscovery } from './metadata.ts';
import { registerSdkHandlers } from './sdk-handlers.ts';

/**
 * OAuth 2.1 for multi-workspace connections: the discovery metadata, the MCP SDK's
 * authorization-server handlers (dynamic client registration, authorize, token with PKCE, revoke)
 * and our consent form. Every body is read as a string, which the SDK bridge and the consent
 * form each parse as they need.
 */
export async function oauthRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
  registerDiscovery(app);
  registerSdkHandlers(app);
  registerConsent(app);
}
