import crypto from 'node:crypto';
import type { AppDatabase } from '../app-db.ts';
import { hashSecret } from './secrets.ts';

export interface DashboardSession {
  id: number;
  userId: number;
  csrfToken: string;
  expiresAt: string;
}

/** A new session: the cookie value (returned once, stored only as a hash) and its CSRF token. */
export async function createDashboardSession(
  db: AppDatabase,
  userId: number,
  lifetimeMs: number,
  now = Date.now(),
): Promise<{ token: string; session: DashboardSession }> {
  const token = crypto.randomBytes(32).toString('base64url');
  const csrfToken = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + lifetimeMs).toISOString();
  const row = await db
    .insertInto('dashboard_sessions')
    .values({ token_hash: hashSecret(token), user_id: userId, csrf_token: csrfToken, created_at: new Date(now).toISOString(), expires_at: expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, session: { id: Number(row.id), userId, csrfToken, expiresAt } };
}

/** The live session a cookie value stands for; expired sessions are not found. */
export async function findDashboardSession(db: AppDatabase, token: string, now = Date.now()): Promise<DashboardSession | undefined> {
  const row = await db
    .selectFrom('dashboard_sessions')
    .select(['id', 'user_id', 'csrf_token', 'expires_at'])
    .where('token_hash', '=', hashSecret(token))
    .where('expires_at', '>', new Date(now).toISOString())
    .executeTakeFirst();
  return row && { id: Number(row.id), userId: Number(row.user_id), csrfToken: row.csrf_token, expiresAt: row.expires_at };
}

export async function deleteDashboardSession(db: AppDatabase, id: number): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('id', '=', id).execute();
}

/** Signs the user out everywhere; returns how many live sessions that ended. */
export async function deleteUserSessions(db: AppDatabase, userId: number, now = Date.now()): Promise<number> {
  const live = await db
    .deleteFrom('dashboard_sessions')
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date(now).toISOString())
    .executeTakeFirst();
  await db.deleteFrom('dashboard_sessions').where('user_id', '=', userId).execute();
  return Number(live.numDeletedRows);
}

/** Drops sessions past their expiry (run at sign-in, so the table never grows without bound). */
export async function deleteExpiredSessions(db: AppDatabase, now = Date.now()): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('expires_at', '<=', new Date(now).toISOString()).execute();
}
