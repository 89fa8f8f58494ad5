import type { AppDatabase } from '../app-db.ts';

export type Role = 'owner' | 'viewer';

export interface User {
  id: number;
  email: string;
  passwordHash: string;
}

export interface Membership {
  workspaceId: number;
  workspaceName: string;
  currency: string;
  /** The workspace's time zone setting: the dashboard reads every view in it. */
  timeZone: string;
  role: Role;
  /** Null: every channel, no profit (a viewer created without --scopes); owners ignore it. */
  scopes: string[] | null;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: AppDatabase, email: string): Promise<User | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash'])
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return row && { id: Number(row.id), email: row.email, passwordHash: row.password_hash };
}

export async function findUser(db: AppDatabase, id: number): Promise<User | undefined> {
  const row = await db.selectFrom('users').select(['id', 'email', 'password_hash']).where('id', '=', id).executeTakeFirst();
  return row && { id: Number(row.id), email: row.email, passwordHash: row.password_hash };
}

export async function createUser(db: AppDatabase, email: string, passwordHash: string): Promise<User> {
  const row = await db
    .insertInto('users')
    .values({ email: normalizeEmail(email), password_hash: passwordHash, created_at: new Date().toISOString() })
    .returning(['id', 'email', 'password_hash'])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), email: row.email, passwordHash: row.password_hash };
}

export async function setPasswordHash(db: AppDatabase, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** Adds the user to a workspace, or changes their role and scopes there. */
export async function setMembership(
  db: AppDatabase,
  input: { userId: number; workspaceId: number; role: Role; scopes: string[] | null },
): Promise<void> {
  const values = { role: input.role, scopes: input.scopes ? JSON.stringify(input.scopes) : null };
  await db
    .insertInto('workspace_members')
    .values({ user_id: input.userId, workspace_id: input.workspaceId, ...values, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['user_id', 'workspace_id']).doUpdateSet(values))
    .execute();
}

/** The user's workspaces, by workspace id. */
export async function listMemberships(db: AppDatabase, userId: number): Promise<Membership[]> {
  const rows = await db
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['m.workspace_id', 'w.name', 'w.currency', 'w.timezone', 'm.role', 'm.scopes'])
    .where('m.user_id', '=', userId)
    .orderBy('m.workspace_id')
    .execute();
  return rows.map((r) => ({
    workspaceId: Number(r.workspace_id),
    workspaceName: r.name,
    currency: r.currency,
    timeZone: r.timezone,
    role: r.role,
    scopes: r.scopes === null ? null : (JSON.parse(r.scopes) as string[]),
  }));
}

export interface Member {
  email: string;
  role: Role;
  scopes: string[] | null;
  createdAt: string;
}

export async function listWorkspaceMembers(db: AppDatabase, workspaceId: number): Promise<Member[]> {
  const rows = await db
    .selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.email', 'm.role', 'm.scopes', 'm.created_at'])
    .where('m.workspace_id', '=', workspaceId)
    .orderBy('u.email')
    .execute();
  return rows.map((r) => ({
    email: r.email,
    role: r.role,
    scopes: r.scopes === null ? null : (JSON.parse(r.scopes) as string[]),
    createdAt: r.created_at,
  }));
}
