import crypto from 'node:crypto';
import type { AppDatabase } from '../app-db.ts';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { hashSecret, newToken } from './secrets.ts';

/** One workspace of a connection, with the key's scopes as they were when the person consented. */
export interface WorkspaceGrant {
  workspace_id: number;
  workspace_name: string;
  key_id: number;
  scopes: string[];
}

/** A registered client as RFC 7591 describes it (the SDK's type); the secret is stored hashed. */
export type RegisteredClient = OAuthClientInformationFull;

export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 90 * 86_400;
export const CODE_SECONDS = 300;

const iso = (ms: number) => new Date(ms).toISOString();

export async function saveClient(db: AppDatabase, client: RegisteredClient): Promise<void> {
  const { client_secret: secret, ...metadata } = client;
  await db
    .insertInto('oauth_clients')
    .values({
      client_id: client.client_id,
      client_secret_hash: secret ? hashSecret(secret) : null,
      metadata: JSON.stringify(metadata),
      created_at: iso(Date.now()),
    })
    .execute();
}

export async function findClient(
  db: AppDatabase,
  clientId: string,
): Promise<{ metadata: Omit<RegisteredClient, 'client_secret'>; secretHash: string | null } | undefined> {
  const row = await db
    .selectFrom('oauth_clients')
    .select(['metadata', 'client_secret_hash'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row && { metadata: JSON.parse(row.metadata), secretHash: row.client_secret_hash };
}

/**
 * Codes and tokens expired for more than a day are of no use, not even for an audit: drop them.
 * A used code stays while its grant has a token that has not expired, so that its reuse can
 * still revoke that grant.
 */
export async function pruneExpired(db: AppDatabase): Promise<void> {
  const now = iso(Date.now());
  const cutoff = iso(Date.now() - 86_400_000);
  await db.deleteFrom('oauth_tokens').where('expires_at', '<', cutoff).execute();
  await db
    .deleteFrom('oauth_codes')
    .where('expires_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('oauth_tokens').select('id').whereRef('oauth_tokens.grant_id', '=', 'oauth_codes.grant_id').where('oauth_tokens.expires_at', '>', now))))
    .execute();
}

/** A new code, the start of a new grant: every token issued from it shares its grant id. */
export async function saveCode(
  db: AppDatabase,
  input: { clientId: string; redirectUri: string; codeChallenge: string; resource: string; grants: WorkspaceGrant[] },
): Promise<string> {
  await pruneExpired(db);
  const code = newToken('slc');
  await db
    .insertInto('oauth_codes')
    .values({
      code_hash: hashSecret(code),
      client_id: input.clientId,
      redirect_uri: input.redirectUri,
      code_challenge: input.codeChallenge,
      resource: input.resource,
      grants: JSON.stringify(input.grants),
      expires_at: iso(Date.now() + CODE_SECONDS * 1000),
      used_at: null,
      grant_id: crypto.randomUUID(),
    })
    .execute();
  return code;
}

/** A stored code as the token endpoint needs it first: its client, PKCE challenge and state. */
export interface CodeState {
  clientId: string;
  codeChallenge: string;
  grantId: string;
  used: boolean;
  expired: boolean;
}

export async function findCode(db: AppDatabase, code: string): Promise<CodeState | undefined> {
  const row = await db
    .selectFrom('oauth_codes')
    .select(['client_id', 'code_challenge', 'grant_id', 'used_at', 'expires_at'])
    .where('code_hash', '=', hashSecret(code))
    .executeTakeFirst();
  return row && {
    clientId: row.client_id,
    codeChallenge: row.code_challenge,
    grantId: row.grant_id,
    used: row.used_at !== null,
    expired: row.expires_at <= iso(Date.now()),
  };
}

export interface StoredCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  grants: WorkspaceGrant[];
  grantId: string;
}

/**
 * Marks a code used and returns it; a code works once and only before it expires. Of two
 * concurrent exchanges of one code, exactly one gets it.
 */
export async function consumeCode(db: AppDatabase, code: string): Promise<StoredCode | undefined> {
  const hash = hashSecret(code);
  const now = iso(Date.now());
  const updated = await db
    .updateTable('oauth_codes')
    .set({ used_at: now })
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return undefined;
  const row = await db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', hash).executeTakeFirstOrThrow();
  return {
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    resource: row.resource,
    grants: JSON.parse(row.grants),
    grantId: row.grant_id,
  };
}

/** What a token carries: its client, the workspace grants, the resource it was issued for and its grant. */
export interface TokenGrant {
  clientId: string;
  grants: WorkspaceGrant[];
  resource: string;
  grantId: string;
}

async function saveToken(db: AppDatabase, kind: 'access' | 'refresh', grant: TokenGrant, seconds: number) {
  const token = newToken(kind === 'access' ? 'sla' : 'slr');
  const now = Date.now();
  await db
    .insertInto('oauth_tokens')
    .values({
      token_hash: hashSecret(token),
      kind,
      client_id: grant.clientId,
      grants: JSON.stringify(grant.grants),
      resource: grant.resource,
      grant_id: grant.grantId,
      expires_at: iso(now + seconds * 1000),
      revoked_at: null,
      created_at: iso(now),
    })
    .execute();
  return token;
}

export async function issueTokens(db: AppDatabase, grant: TokenGrant) {
  return {
    access_token: await saveToken(db, 'access', grant, ACCESS_TOKEN_SECONDS),
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: await saveToken(db, 'refresh', grant, REFRESH_TOKEN_SECONDS),
  };
}

type TokenKind = 'access' | 'refresh';

/** An unexpired token of this kind, revoked or not. */
async function findUnexpired(db: AppDatabase, kind: TokenKind, token: string) {
  return db
    .selectFrom('oauth_tokens')
    .select(['client_id', 'grants', 'resource', 'grant_id', 'revoked_at'])
    .where('token_hash', '=', hashSecret(token))
    .where('kind', '=', kind)
    .where('expires_at', '>', iso(Date.now()))
    .executeTakeFirst();
}

/** A token that works: not expired, not revoked. */
export async function findToken(db: AppDatabase, kind: TokenKind, token: string): Promise<TokenGrant | undefined> {
  const row = await findUnexpired(db, kind, token);
  return row && row.revoked_at === null
    ? { clientId: row.client_id, grants: JSON.parse(row.grants), resource: row.resource, grantId: row.grant_id }
    : undefined;
}

/** An unexpired refresh token and whether it was revoked already (rotated away, or its grant revoked). */
export async function findRefreshToken(db: AppDatabase, token: string): Promise<(TokenGrant & { revoked: boolean }) | undefined> {
  const row = await findUnexpired(db, 'refresh', token);
  return row && {
    clientId: row.client_id, grants: JSON.parse(row.grants), resource: row.resource, grantId: row.grant_id, revoked: row.revoked_at !== null,
  };
}

/** Revokes one token if it is still active; false when it was not (already revoked, or unknown). */
export async function revokeOneToken(db: AppDatabase, token: string): Promise<boolean> {
  const updated = await db
    .updateTable('oauth_tokens')
    .set({ revoked_at: iso(Date.now()) })
    .where('token_hash', '=', hashSecret(token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Revokes every token of a grant (access and refresh, whichever refresh issued them). */
export async function revokeGrant(db: AppDatabase, grantId: string): Promise<void> {
  await db.updateTable('oauth_tokens').set({ revoked_at: iso(Date.now()) }).where('grant_id', '=', grantId).where('revoked_at', 'is', null).execute();
}

/** A token of any kind with its client and grant, for the revocation endpoint. */
export async function findTokenForRevocation(db: AppDatabase, token: string): Promise<{ kind: TokenKind; clientId: string; grantId: string } | undefined> {
  const row = await db
    .selectFrom('oauth_tokens')
    .select(['kind', 'client_id', 'grant_id'])
    .where('token_hash', '=', hashSecret(token))
    .executeTakeFirst();
  return row && { kind: row.kind as TokenKind, clientId: row.client_id, grantId: row.grant_id };
}

/** Keys revoked since the connection was made no longer open their workspace. */
export async function activeKeyIds(db: AppDatabase, keyIds: number[]): Promise<Set<number>> {
  if (keyIds.length === 0) return new Set();
  const rows = await db.selectFrom('api_keys').select('id').where('id', 'in', keyIds).where('revoked_at', 'is', null).execute();
  return new Set(rows.map((r) => Number(r.id)));
}
