import type { FastifyRequest } from 'fastify';
import { authenticateKey, type AuthContext } from '../http/auth.ts';
import { HttpError } from '../http/errors.ts';
import { visibilityOf } from '../analytics/permissions.ts';
import type { AppDatabase } from '../store/app-db.ts';
import { AUTH_ERROR, RpcError } from './protocol.ts';
import { activeKeyIds, findToken } from './oauth/store.ts';
import { permissionDenied } from './tools/types.ts';

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

const MISSING =
  'Missing credentials: send Authorization: Bearer <api_key>:<client_secret>, or the x-api-key and client-secret headers';

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

async function byToken(db: AppDatabase, token: string): Promise<Caller> {
  const found = await findToken(db, 'access', token);
  if (!found) throw new RpcError(AUTH_ERROR, 'Invalid or expired access token');
  const grants = found.grants;
  return {
    kind: 'oauth',
    actor: `oauth:${found.clientId}`,
    workspaces: grants.map((g) => ({ id: g.workspace_id, name: g.workspace_name })),
    async grant(workspaceId) {
      const grant = grants.find((g) => String(g.workspace_id) === workspaceId);
      if (!grant) throw permissionDenied(`Workspace ${workspaceId} is not part of this connection`);
      const active = await activeKeyIds(db, [grant.key_id]);
      if (!active.has(grant.key_id)) throw permissionDenied(`The API key that connected workspace ${workspaceId} was revoked`);
      return {
        workspaceId: grant.workspace_id,
        keyId: grant.key_id,
        scopes: grant.scopes,
        visibility: visibilityOf(grant.scopes),
      };
    },
  };
}

/** Bearer `<api_key>:<client_secret>`, an OAuth access token, or the two data-API headers. */
export async function resolveCaller(db: AppDatabase, request: FastifyRequest): Promise<Caller> {
  const authorization = header(request, 'authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new RpcError(AUTH_ERROR, 'Invalid Authorization header: expected Bearer <api_key>:<client_secret>');
    const credential = match[1]!;
    const colon = credential.indexOf(':');
    if (colon === -1) return byToken(db, credential);
    return byKey(db, credential.slice(0, colon), credential.slice(colon + 1));
  }
  const apiKey = header(request, 'x-api-key');
  const secret = header(request, 'client-secret');
  if (!apiKey && !secret) throw new RpcError(AUTH_ERROR, MISSING);
  if (!apiKey) throw new RpcError(AUTH_ERROR, 'Missing x-api-key header');
  if (!secret) throw new RpcError(AUTH_ERROR, 'Missing client-secret header');
  return byKey(db, apiKey, secret);
}
