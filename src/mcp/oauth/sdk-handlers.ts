import express from 'express';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { secretMatches } from '../../store/app/secrets.ts';
import { publicBase } from '../public-base.ts';
import type { ClientDocuments } from './client-documents.ts';
import { issuerOf } from './metadata.ts';
import { StorelensOAuthProvider } from './provider.ts';
import { findClient } from '../../store/app/oauth.ts';

/** The SDK's handlers, each at its path; none depends on the server's address. */
const SDK_PATHS = ['/authorize', '/token', '/register', '/revoke'];

type Handler = (req: unknown, res: unknown, next: () => void) => void;

/** The request as handed to Express: the body Fastify read, and the issuer of this request's public base. */
type BridgedRequest = FastifyRequest['raw'] & { body?: unknown; _body?: boolean; issuer?: string };

/**
 * The SDK's authorization error redirects (a bad `response_type`, no PKCE challenge, ...) carry
 * `iss` (RFC 9207), as the consent form's redirect with the code does, and the request's `state`
 * (RFC 6749 section 4.1.2.1), which the SDK leaves out when the parameter check fails as a whole.
 */
const issuerOnRedirects: express.RequestHandler = (req, res, next) => {
  const { issuer, body } = req as unknown as BridgedRequest;
  const state = (req.method === 'POST' ? (body as Record<string, unknown> | undefined) : req.query)?.state;
  const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
  res.redirect = ((status: number, url: string) => {
    const target = new URL(url);
    target.searchParams.set('iss', issuer!);
    if (typeof state === 'string' && state && !target.searchParams.has('state')) target.searchParams.set('state', state);
    redirect(status, target.href);
  }) as typeof res.redirect;
  next();
};

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

/**
 * Registration, authorize, token and revoke: the MCP SDK's authorization-server handlers, in one
 * Express app made at start-up, reached from Fastify at their paths. Fastify has already read the
 * body (as a string); it is handed to Express pre-parsed.
 */
export async function sdkRoutes(app: FastifyInstance, { documents }: { documents: ClientDocuments }): Promise<void> {
  const provider = new StorelensOAuthProvider(app.stores.db, documents);
  const ex = express();
  ex.disable('x-powered-by');
  // Trust X-Forwarded-For exactly when the Fastify app does, so the SDK's per-IP limits count
  // clients, not the proxy.
  ex.set('trust proxy', app.config.trustProxy);
  const rateLimit = { validate: false };
  ex.use('/authorize', issuerOnRedirects, authorizationHandler({ provider, rateLimit }));
  ex.use('/token', tokenHandler({ provider, rateLimit }));
  ex.use('/register', clientRegistrationHandler({ clientsStore: provider.clientsStore, rateLimit }));
  ex.use('/revoke', revocationHandler({ provider, rateLimit }));
  const server = ex as unknown as Handler;

  const bridge = async (request: FastifyRequest, reply: FastifyReply) => {
    const raw: BridgedRequest = request.raw;
    raw.issuer = issuerOf(publicBase(app.config, request));
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
}
