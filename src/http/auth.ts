import type { FastifyRequest } from 'fastify';
import type { AppDatabase } from '../store/app-db.ts';
import { verifyCredentials } from '../store/app/api-keys.ts';
import { visibilityOf, type Visibility } from '../analytics/permissions.ts';
import { InvalidInput } from '../kit/errors.ts';
import { HttpError } from './errors.ts';

/** Who is calling: the key's workspace and what it may see. */
export interface AuthContext {
  workspaceId: number;
  keyId: number;
  scopes: string[];
  visibility: Visibility;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Resolves a key and secret pair; throws the contract's 401 on a mismatch. */
export async function authenticateKey(db: AppDatabase, apiKey: string, clientSecret: string): Promise<AuthContext> {
  const check = await verifyCredentials(db, apiKey, clientSecret);
  if (!check.ok) throw new HttpError(401, check.reason === 'unknown_key' ? 'Invalid API key' : 'Invalid client secret');
  return {
    workspaceId: check.key.workspaceId,
    keyId: check.key.id,
    scopes: check.key.scopes,
    visibility: visibilityOf(check.key.scopes),
  };
}

/**
 * The credential of an `Authorization: Bearer <credential>` header: undefined when the header is
 * absent, null when it is not in that form.
 */
export function bearerCredential(request: FastifyRequest): string | null | undefined {
  const authorization = header(request, 'authorization');
  if (!authorization) return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? null;
}

/** `<api_key>:<client_secret>`, the key pair a Bearer credential carries; null for any other credential. */
export function keyPair(credential: string): { apiKey: string; clientSecret: string } | null {
  const colon = credential.indexOf(':');
  if (colon === -1) return null;
  return { apiKey: credential.slice(0, colon), clientSecret: credential.slice(colon + 1) };
}

export const BEARER_FORM = 'Bearer <api_key>:<client_secret>';

/**
 * Data-API credentials: the `x-api-key` and `client-secret` headers (400 when absent, 401 when
 * wrong), or, when neither header is sent, `Authorization: Bearer <api_key>:<client_secret>` as
 * on the tool endpoint.
 */
export async function authenticateDataRequest(db: AppDatabase, request: FastifyRequest): Promise<AuthContext> {
  const bearer = header(request, 'x-api-key') === undefined && header(request, 'client-secret') === undefined ? bearerCredential(request) : undefined;
  if (bearer !== undefined) {
    const pair = bearer === null ? null : keyPair(bearer);
    if (!pair) throw new InvalidInput(`Invalid Authorization header: expected ${BEARER_FORM}, or the x-api-key and client-secret headers`);
    return authenticateKey(db, pair.apiKey, pair.clientSecret);
  }
  const apiKey = header(request, 'x-api-key');
  if (!apiKey) throw new InvalidInput('Missing x-api-key header');
  const clientSecret = header(request, 'client-secret');
  if (!clientSecret) throw new InvalidInput('Missing client-secret header');
  return authenticateKey(db, apiKey, clientSecret);
}
