import crypto from 'node:crypto';
import express from 'express';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authorizationHandler, redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { authenticateKey } from '../../http/auth.ts';
import { HttpError } from '../../http/errors.ts';
import { recordAudit } from '../../store/app/audit-log.ts';
import { secretMatches } from '../../store/app/secrets.ts';
import { findWorkspace } from '../../store/app/workspaces.ts';
import { publicBase } from '../public-base.ts';
import { consentPage, type ConsentView } from './consent-page.ts';
import { StorelensOAuthProvider } from './provider.ts';
import { findClient, saveCode, type WorkspaceGrant } from './store.ts';

/** The SDK's handlers, each at its path; none depends on the server's address. */
const SDK_PATHS = ['/authorize', '/token', '/register', '/revoke'];
/** The two tool-endpoint URLs an OAuth token may be issued for (docs/mcp.md). */
export const OAUTH_RESOURCES = ['/mcp', '/mcp/oauth'] as const;
const MAX_WORKSPACES = 20;

type Handler = (req: unknown, res: unknown, next: () => void) => void;

function parseBody(contentType: string | undefined, text: string): unknown {
  if (contentType?.includes('application/json')) {
    try {
      return JSON.parse(text);
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply.code(status).header('cache-control', 'no-store').send({ error, error_description: description });
}

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
 * OAuth 2.1 for multi-workspace connections, built on the MCP SDK's authorization-server handlers
 * (dynamic client registration, authorize, token with PKCE, revoke), plus our consent form and
 * the discovery metadata. The handlers run in one Express app made at start-up; the metadata is
 * computed per request from the public base, so nothing is kept per Host. Fastify has already
 * read the body; it is handed to Express pre-parsed.
 */
export async function oauthRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));

  const provider = new StorelensOAuthProvider(app.stores.db);
  const ex = express();
  ex.disable('x-powered-by');
  // Trust X-Forwarded-For exactly when the Fastify app does, so the SDK's per-IP limits count
  // clients, not the proxy.
  ex.set('trust proxy', app.config.trustProxy);
  const rateLimit = { validate: false };
  ex.use('/authorize', authorizationHandler({ provider, rateLimit }));
  ex.use('/token', tokenHandler({ provider, rateLimit }));
  ex.use('/register', clientRegistrationHandler({ clientsStore: provider.clientsStore, rateLimit }));
  ex.use('/revoke', revocationHandler({ provider, rateLimit }));
  const server = ex as unknown as Handler;

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

  const bridge = async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.raw as typeof request.raw & { body?: unknown; _body?: boolean };
    if (typeof request.body === 'string') {
      raw.body = parseBody(request.headers['content-type'], request.body);
      raw._body = true;
    }
    // Client secrets are stored hashed, so a confidential client's secret is checked here.
    const path = request.routeOptions.url;
    if ((path === '/token' || path === '/revoke') && raw.body && typeof raw.body === 'object') {
      const { client_id: clientId, client_secret: secret } = raw.body as Record<string, unknown>;
      const client = typeof clientId === 'string' ? await findClient(app.stores.db, clientId) : undefined;
      if (client?.secretHash && (typeof secret !== 'string' || !secretMatches(secret, client.secretHash))) {
        return oauthError(reply, 401, 'invalid_client', 'Invalid client_secret');
      }
    }
    reply.hijack();
    server(raw, reply.raw, () => {
      reply.raw.statusCode = 404;
      reply.raw.setHeader('content-type', 'application/json');
      reply.raw.end(JSON.stringify({ message: 'Not found' }));
    });
  };
  for (const url of SDK_PATHS) app.route({ method: ['GET', 'POST', 'OPTIONS'], url, handler: bridge });

  // No CSRF token: a consent only succeeds with the workspace keys and secrets typed into the form,
  // which a cross-site attacker does not have; the redirect goes only to a registered URI.
  app.post('/oauth/consent', async (request, reply) => {
    const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
    const field = (name: string) => form.get(name) ?? '';
    const client = await findClient(app.stores.db, field('client_id'));
    const redirectUri = field('redirect_uri');
    // Never redirect anywhere the client did not register.
    if (!client || !client.metadata.redirect_uris.some((uri) => redirectUriMatches(redirectUri, uri))) {
      return reply.code(400).type('text/plain').send('Unknown client or redirect_uri: start the connection again from your app.');
    }
    if (!field('code_challenge')) return reply.code(400).type('text/plain').send('Missing code_challenge: start the connection again from your app.');
    const keys = form.getAll('workspace_key').map((k) => k.trim());
    const secrets = form.getAll('workspace_secret').map((s) => s.trim());
    const view: ConsentView = {
      clientId: client.metadata.client_id,
      clientName: client.metadata.client_name ?? client.metadata.client_id,
      redirectUri,
      codeChallenge: field('code_challenge'),
      state: field('state'),
      resource: field('resource'),
      nonce: crypto.randomBytes(16).toString('base64'),
      rows: keys.length ? keys.map((apiKey) => ({ apiKey })) : [{ apiKey: '' }],
      error: '',
    };
    const refuse = (error: string) => {
      const page = consentPage({ ...view, error });
      return reply.code(400).headers(page.headers).type('text/html; charset=utf-8').send(page.body);
    };
    if (keys.length === 0 || keys.length !== secrets.length) return refuse('Add at least one workspace with its API key and client secret.');
    if (keys.length > MAX_WORKSPACES) return refuse(`At most ${MAX_WORKSPACES} workspaces per connection.`);

    const grants = new Map<number, WorkspaceGrant>();
    for (const [i, apiKey] of keys.entries()) {
      try {
        const auth = await authenticateKey(app.stores.db, apiKey, secrets[i]!);
        const workspace = await findWorkspace(app.stores.db, auth.workspaceId);
        grants.set(auth.workspaceId, { workspace_id: auth.workspaceId, workspace_name: workspace?.name ?? '', key_id: auth.keyId, scopes: auth.scopes });
      } catch (error) {
        if (error instanceof HttpError) return refuse(`Workspace ${i + 1}: ${error.message}`);
        throw error;
      }
    }
    const code = await saveCode(app.stores.db, {
      clientId: client.metadata.client_id,
      redirectUri,
      codeChallenge: view.codeChallenge,
      resource: view.resource,
      grants: [...grants.values()],
    });
    for (const grant of grants.values()) {
      await recordAudit(app.stores.db, {
        workspaceId: grant.workspace_id,
        actor: `key:${grant.key_id}`,
        action: 'oauth.connect',
        target: `oauth_client:${client.metadata.client_id}`,
        details: { client_name: view.clientName, scopes: grant.scopes },
      });
    }
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    if (view.state) target.searchParams.set('state', view.state);
    return reply.code(302).header('location', target.href).header('cache-control', 'no-store').send();
  });
}
