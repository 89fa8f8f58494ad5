import type { FastifyRequest } from 'fastify';
import { BEARER_FORM, authenticateKey, bearerCredential, keyPair, type AuthContext } from '../http/auth.ts';
import { HttpError } from '../http/errors.ts';
import { visibilityOf } from '../analytics/permissions.ts';
import type { AppDatabase } from '../store/app-db.ts';
import { AUTH_ERROR, RpcError } from './protocol.ts';
import { activeKeyIds, findToken } from '../store/app/oauth.ts';
import { AccessDenied } from '../kit/errors.ts';

/** Who calls the tool endpoint: one workspace by API key, or several through an OAuth connection. */
export type Caller =
  | { kind: 'key'; actor: string; auth: AuthContext }
  | {
      kind: 'oauth';
      actor: string;
      workspaces: { id: number; name: string }[];
      /** The permission snapshot of one connected workspace. */
      grant(workspaceId: string | undefined): Promise<AuthContext>;
    };

const MISSING = `Missing credentials: send Authorization: ${BEARER_FORM}, or the x-api-key and client-secret headers`;
const MISSING_TOKEN = 'Missing OAuth access token: this URL is for OAuth connections (API keys connect to /mcp)';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function byKey(db: AppDatabase, apiKey: string, secret: string): Promise<Caller> {
  try {
    const auth = await authenticateKey(db, apiKey, secret);
    return { kind: 'key', actor: `key:${auth.keyId}`, auth };
  } catch (error) {
    if (error instanceof HttpError) throw new RpcError(AUTH_ERROR, error.message);
    throw error;
  }
}

/**
 * An OAuth access token, accepted only on the URL it was issued for (RFC 8707 `resource`); a
 * token issued without a resource is accepted on both tool-endpoint URLs.
 */
async function byToken(db: AppDatabase, token: string, resource: string): Promise<Caller> {
  const found = await findToken(db, 'access', token);
  if (!found) throw new RpcError(AUTH_ERROR, 'Invalid or expired access token');
  if (found.resource && found.resource !== resource) {
    throw new RpcError(AUTH_ERROR, `This access token was issued for ${found.resource}, not ${resource}`);
  }
  const grants = found.grants;
  return {
    kind: 'oauth',
    actor: `oauth:${found.clientId}`,
    workspaces: grants.map((g) => ({ id: g.workspace_id, name: g.workspace_name })),
    async grant(workspaceId) {
      const grant = grants.find((g) => String(g.workspace_id) === workspaceId);
      if (!grant) throw new AccessDenied(`Workspace ${workspaceId} is not part of this connection`);
      const active = await activeKeyIds(db, [grant.key_id]);
      if (!active.has(grant.key_id)) throw new AccessDenied(`The API key that connected workspace ${workspaceId} was revoked`);
      return {
        workspaceId: grant.workspace_id,
        keyId: grant.key_id,
        scopes: grant.scopes,
        visibility: visibilityOf(grant.scopes),
      };
    },
  };
}

function bearer(request: FastifyRequest): string | undefined {
  const credential = bearerCredential(request);
  if (credential === null) throw new RpcError(AUTH_ERROR, `Invalid Authorization header: expected ${BEARER_FORM}`);
  return credential;
}

function queryParam(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * `POST /mcp`: Bearer `<api_key>:<client_secret>`, an OAuth access token issued for `resource`,
 * the two data-API headers, or for clients that take nothing but a URL the `api_key` and
 * `client_secret` query parameters (docs/mcp.md).
 */
export async function resolveCaller(db: AppDatabase, request: FastifyRequest, resource: string): Promise<Caller> {
  const credential = bearer(request);
  if (credential) {
    const pair = keyPair(credential);
    return pair ? byKey(db, pair.apiKey, pair.clientSecret) : byToken(db, credential, resource);
  }
  const inHeaders = header(request, 'x-api-key') !== undefined || header(request, 'client-secret') !== undefined;
  const apiKey = inHeaders ? header(request, 'x-api-key') : queryParam(request, 'api_key');
  const secret = inHeaders ? header(request, 'client-secret') : queryParam(request, 'client_secret');
  if (!apiKey && !secret) throw new RpcError(AUTH_ERROR, MISSING);
  if (!apiKey) throw new RpcError(AUTH_ERROR, inHeaders ? 'Missing x-api-key header' : 'Missing api_key parameter');
  if (!secret) throw new RpcError(AUTH_ERROR, inHeaders ? 'Missing client-secret header' : 'Missing client_secret parameter');
  return byKey(db, apiKey, secret);
}

/** `POST /mcp/oauth`: only an OAuth access token issued for `resource` (or for no resource). */
export async function resolveOAuthCaller(db: AppDatabase, request: FastifyRequest, resource: string): Promise<Caller> {
  const credential = bearer(request);
  if (!credential) throw new RpcError(AUTH_ERROR, MISSING_TOKEN);
  if (credential.includes(':')) throw new RpcError(AUTH_ERROR, 'API keys are not accepted here: connect them to /mcp, or connect through OAuth');
  return byToken(db, credential, resource);
}
