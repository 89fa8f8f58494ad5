import type { Generated } from 'kysely';
import type { CollectTables } from './collect-schema.ts';

/** App state: everything that is not analytics. JSON columns are stored as text on both dialects. */
export interface WorkspaceTable {
  id: Generated<number>;
  name: string;
  currency: string;
  timezone: string;
  pixel_id: string;
  /** JSON object of workspace settings (decisions.md section 6). */
  settings: string;
  created_at: string;
}

export interface ApiKeyTable {
  id: Generated<number>;
  workspace_id: number;
  /** sha256 of the API key: keys are looked up by hash, never stored in clear. */
  key_hash: string;
  /** First characters of the key, to recognise it in listings. */
  key_prefix: string;
  secret_hash: string;
  /** JSON array of scope strings. */
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  workspace_id: number;
  actor: string;
  action: string;
  target: string;
  /** JSON object. */
  details: string;
  created_at: string;
}

export interface AppDb extends CollectTables {
  workspaces: WorkspaceTable;
  api_keys: ApiKeyTable;
  audit_log: AuditLogTable;
}
