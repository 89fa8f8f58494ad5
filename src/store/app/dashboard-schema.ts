import type { Generated } from 'kysely';

/** Dashboard tables (migration 0007_dashboard). Timestamps are ISO text. */
export interface UserTable {
  id: Generated<number>;
  /** Lower-cased. */
  email: string;
  /** argon2id PHC string (docs/dashboard.md). */
  password_hash: string;
  created_at: string;
}

export interface WorkspaceMemberTable {
  user_id: number;
  workspace_id: number;
  role: 'owner' | 'viewer';
  /** JSON array of scopes narrowing a viewer (or adding read:profit); null: every channel, no profit. */
  scopes: string | null;
  created_at: string;
}

export interface DashboardSessionTable {
  id: Generated<number>;
  /** sha256 of the cookie value: a stolen database holds no usable session. */
  token_hash: string;
  user_id: number;
  /** Sent back in the x-csrf-token header of every write. */
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface DashboardTables {
  users: UserTable;
  workspace_members: WorkspaceMemberTable;
  dashboard_sessions: DashboardSessionTable;
}
