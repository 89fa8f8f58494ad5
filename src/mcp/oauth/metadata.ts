import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { publicBase } from '../public-base.ts';

/** The two tool-endpoint URLs an OAuth token may be issued for (docs/mcp.md). */
const OAUTH_RESOURCES = ['/mcp', '/mcp/oauth'] as const;

/** RFC 8414 metadata; the same fields the SDK's router publishes. */
function authorizationServerMetadata(base: string) {
  return {
    issuer: `${base}/`,
    authorization_endpoint: `${base}/authorize`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint: `${base}/token`,
    token_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    revocation_endpoint: `${base}/revoke`,
    revocation_endpoint_auth_methods_supported: ['client_secret_post'],
    registration_endpoint: `${base}/register`,
  };
}

/** RFC 9728 metadata of one tool-endpoint URL. */
function protectedResourceMetadata(base: string, path: string) {
  return { resource: `${base}${path}`, authorization_servers: [`${base}/`], resource_name: 'Storelens analytics' };
}

/**
 * The discovery documents: the authorization server's and one per tool-endpoint URL, computed per
 * request from the public base, so nothing is kept per Host.
 */
export function registerDiscovery(app: FastifyInstance): void {
  const metadata = (body: (request: FastifyRequest) => object) => async (request: FastifyRequest, reply: FastifyReply) => {
    // Public documents, read by browser-based clients too.
    reply.header('access-control-allow-origin', '*');
    if (request.method === 'OPTIONS') return reply.code(204).header('access-control-allow-methods', 'GET').send();
    return reply.send(body(request));
  };
  app.route({
    method: ['GET', 'OPTIONS'],
    url: '/.well-known/oauth-authorization-server',
    handler: metadata((request) => authorizationServerMetadata(publicBase(app.config, request))),
  });
  for (const path of OAUTH_RESOURCES) {
    app.route({
      method: ['GET', 'OPTIONS'],
      url: `/.well-known/oauth-protected-resource${path}`,
      handler: metadata((request) => protectedResourceMetadata(publicBase(app.config, request), path)),
    });
  }
}
