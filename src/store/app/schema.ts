import type { Generated } from 'kysely';
import type { TryOnTables } from './tryon-schema.ts';
import type { CollectTables } from './collect-schema.ts';
import type { IngestTables } from './ingest-schema.ts';
import type { DashboardTables } from './dashboard-schema.ts';

/** App state: everything that is not analytics. JSON columns are stored as text on both dialects. */
export interface WorkspaceTable {
  id: Generated<number>;
  name: string;
  currency: string;
  timezone: string;
  pixel_id: string;
  /** JSON object of workspace settings (docs/attribution.md, "Workspace settings"). */
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

/** Objects created through the tool endpoint (notes, lists, creators, ...), one JSON document each. */
export interface ToolObjectTable {
  id: Generated<number>;
  workspace_id: number;
  kind: string;
  parent_id: number | null;
  /** Unique per (workspace, kind) when set: tracking codes, topic keywords. */
  unique_key: string | null;
  /** JSON object. */
  data: string;
  /** What an output's numbers were read with (JSON ReadScope); null: stored before it was recorded. */
  read_scope: string | null;
  created_at: string;
  updated_at: string;
}

export interface OauthClientTable {
  id: Generated<number>;
  client_id: string;
  client_secret_hash: string | null;
  /** JSON of the registered client metadata (RFC 7591). */
  metadata: string;
  created_at: string;
}

export interface OauthCodeTable {
  id: Generated<number>;
  code_hash: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  /** JSON array of {workspace_id, key_id, scopes}: the permission snapshot. */
  grants: string;
  expires_at: string;
  used_at: string | null;
  /** The consent this code was made by; every token issued from it carries the same id. */
  grant_id: string;
}

export interface OauthTokenTable {
  id: Generated<number>;
  token_hash: string;
  kind: string;
  client_id: string;
  grants: string;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
  /** The resource (RFC 8707) the token was issued for; '' when the client named none. */
  resource: Generated<string>;
  /** The grant (one consent) the token belongs to: its code's grant_id, kept through every refresh. */
  grant_id: string;
}

/** One counter per workspace (store/app/data-versions.ts); bigint on PostgreSQL, read back as a string there. */
export interface DataVersionTable {
  workspace_id: number;
  version: number | string | bigint;
}

/** An experiment's measured incremental share of a source (store/app/lift-tests.ts). */
export interface LiftTestTable {
  id: Generated<number>;
  workspace_id: number;
  source: string;
  start_date: string;
  end_date: string;
  incremental_share: number;
  interval_low: number | null;
  interval_high: number | null;
  created_at: string;
}

export interface AppDb extends TryOnTables, CollectTables, IngestTables, DashboardTables {
  workspaces: WorkspaceTable;
  api_keys: ApiKeyTable;
  audit_log: AuditLogTable;
  tool_objects: ToolObjectTable;
  oauth_clients: OauthClientTable;
  oauth_codes: OauthCodeTable;
  oauth_tokens: OauthTokenTable;
  data_versions: DataVersionTable;
  lift_tests: LiftTestTable;
}
