import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { preflightRoute, type CorsRule } from '../../http/cors.ts';
import { publicBase } from '../public-base.ts';

/** The two tool-endpoint URLs an OAuth token may be issued for (docs/mcp.md). */
const OAUTH_RESOURCES = ['/mcp', '/mcp/oauth'] as const;

/** This authorization server's issuer identifier: in its metadata and, as `iss`, in every authorization response (RFC 9207). */
export function issuerOf(base: string): string {
  return `${base}/`;
}

/**
 * RFC 8414 metadata: the fields the SDK's router publishes, plus Client ID Metadata Documents
 * and RFC 9207's `iss`.
 */
function authorizationServerMetadata(base: string) {
  return {
    issuer: issuerOf(base),
    authorization_endpoint: `${base}/authorize`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint: `${base}/token`,
    token_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    revocation_endpoint: `${base}/revoke`,
    revocation_endpoint_auth_methods_supported: ['client_secret_post'],
    registration_endpoint: `${base}/register`,
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/**
 * Public documents, read by browser-based clients too: any origin may GET them, with no request
 * header beyond the CORS-safelisted ones (an empty list, not the library's echo of what was asked).
 */
export const PUBLIC_DOCUMENT: CorsRule = { origin: '*', methods: 'GET', allowedHeaders: [] };

/** RFC 9728 metadata of one tool-endpoint URL. */
function protectedResourceMetadata(base: string, path: string) {
  return { resource: `${base}${path}`, authorization_servers: [`${base}/`], resource_name: 'Storelens analytics' };
}

/**
 * The discovery documents: the authorization server's and one per tool-endpoint URL, computed per
 * request from the public base, so nothing is kept per Host.
 */
export async function discoveryRoutes(app: FastifyInstance): Promise<void> {
  const document = (url: string, body: (request: FastifyRequest) => object) => {
    app.get(url, { config: { cors: PUBLIC_DOCUMENT } }, async (request: FastifyRequest, reply: FastifyReply) => reply.send(body(request)));
    preflightRoute(app, url, PUBLIC_DOCUMENT);
  };
  document('/.well-known/oauth-authorization-server', (request) => authorizationServerMetadata(publicBase(app.config, request)));
  for (const path of OAUTH_RESOURCES) {
    document(`/.well-known/oauth-protected-resource${path}`, (request) => protectedResourceMetadata(publicBase(app.config, request), path));
  }
}
