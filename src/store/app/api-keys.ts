import type { AppDatabase } from '../app-db.ts';
import { hashSecret, newToken, secretMatches } from './secrets.ts';

export interface ApiKeyRecord {
  id: number;
  workspaceId: number;
  scopes: string[];
  secretHash: string;
}

export interface IssuedKey {
  api_key: string;
  client_secret: string;
  scopes: string[];
}

export async function createApiKey(db: AppDatabase, workspaceId: number, scopes: string[]): Promise<IssuedKey> {
  const apiKey = newToken('sl');
  const clientSecret = newToken('slsec');
  await db
    .insertInto('api_keys')
    .values({
      workspace_id: workspaceId,
      key_hash: hashSecret(apiKey),
      key_prefix: apiKey.slice(0, 10),
      secret_hash: hashSecret(clientSecret),
      scopes: JSON.stringify(scopes),
      created_at: new Date().toISOString(),
      revoked_at: null,
    })
    .execute();
  return { api_key: apiKey, client_secret: clientSecret, scopes };
}

/** Looks up an active key by its clear value; revoked keys are not found. */
export async function findActiveKey(db: AppDatabase, apiKey: string): Promise<ApiKeyRecord | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'workspace_id', 'scopes', 'secret_hash'])
    .where('key_hash', '=', hashSecret(apiKey))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: Number(row.id),
    workspaceId: Number(row.workspace_id),
    scopes: JSON.parse(row.scopes) as string[],
    secretHash: row.secret_hash,
  };
}

export type KeyCheck =
  | { ok: true; key: ApiKeyRecord }
  | { ok: false; reason: 'unknown_key' | 'wrong_secret' };

export async function verifyCredentials(db: AppDatabase, apiKey: string, clientSecret: string): Promise<KeyCheck> {
  const key = await findActiveKey(db, apiKey);
  if (!key) return { ok: false, reason: 'unknown_key' };
  if (!secretMatches(clientSecret, key.secretHash)) return { ok: false, reason: 'wrong_secret' };
  return { ok: true, key };
}

export async function revokeApiKey(db: AppDatabase, apiKey: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date().toISOString() })
    .where('key_hash', '=', hashSecret(apiKey))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface ApiKeyListing {
  id: number;
  keyPrefix: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
}

/** A workspace's keys, newest first; only the prefix of each key is known. */
export async function listApiKeys(db: AppDatabase, workspaceId: number): Promise<ApiKeyListing[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'key_prefix', 'scopes', 'created_at', 'revoked_at'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    keyPrefix: r.key_prefix,
    scopes: JSON.parse(r.scopes) as string[],
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  }));
}

/** Revokes a key by id, only within its own workspace; false when no active key matched. */
export async function revokeApiKeyById(db: AppDatabase, workspaceId: number, id: number): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
