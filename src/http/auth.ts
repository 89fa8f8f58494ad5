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

/** Data-API credentials from `x-api-key` and `client-secret` (400 when absent, 401 when wrong). */
export async function authenticateDataRequest(db: AppDatabase, request: FastifyRequest): Promise<AuthContext> {
  const apiKey = header(request, 'x-api-key');
  if (!apiKey) throw new InvalidInput('Missing x-api-key header');
  const clientSecret = header(request, 'client-secret');
  if (!clientSecret) throw new InvalidInput('Missing client-secret header');
  return authenticateKey(db, apiKey, clientSecret);
}
