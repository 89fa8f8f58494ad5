import type { Generated } from 'kysely';

/** Try-on tables (migration 0003_tryon). Timestamps are ISO text; JSON is text. */
export interface TryOnStorefrontTable {
  id: Generated<number>;
  workspace_id: number;
  /** JSON array of verified origins (`https://shop.example`). */
  origins: string;
  consent_version: string;
  marketing_version: string;
  session_attempts: number;
  daily_attempts: number;
  coverage_max_age_days: number;
  /** Empty when no experiment is configured. */
  experiment_id: string;
  experiment_variants: number;
  updated_at: string;
}

export interface TryOnSessionTable {
  id: Generated<number>;
  workspace_id: number;
  /** sha256 of the session token; the token itself is never stored. */
  token_hash: string;
  attempts: number;
  created_at: string;
  expires_at: string;
  media_deleted_at: string | null;
}

export interface TryOnUploadTable {
  id: Generated<number>;
  workspace_id: number;
  session_id: number;
  upload_key: string;
  first_job_id: string;
  bytes: number;
  mime_type: string;
  checksum_sha256: string;
  /** Keyed hash of the reserving client's network (src/http/client-network.ts); '' before migration 0008. */
  client_key: string;
  /** reserved -> stored -> deleted */
  status: string;
  url_expires_at: string;
  created_at: string;
  stored_at: string | null;
}

export interface TryOnJobTable {
  id: Generated<number>;
  job_id: string;
  workspace_id: number;
  session_id: number;
  upload_id: number;
  product_handle: string;
  variant_id: string;
  reference_image: string;
  experiment_id: string;
  variant_index: number | null;
  /** pending | done | failed | cancelled */
  status: string;
  /** Safe reason code of a failed job, else empty. */
  reason: string;
  /** reserved | committed | released */
  credit: string;
  lease: string | null;
  lease_until: string | null;
  tries: number;
  result_key: string | null;
  created_at: string;
  updated_at: string;
}

export interface TryOnLeadTable {
  id: Generated<number>;
  workspace_id: number;
  job_id: string;
  email: string;
  marketing_version: string;
  /** Always `unconfirmed`: nothing is sent. */
  status: string;
  created_at: string;
}

export interface TryOnUsageTable {
  id: Generated<number>;
  workspace_id: number;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  attempts: number;
  credits_reserved: number;
  credits_committed: number;
  credits_released: number;
}

export interface TryOnTables {
  tryon_storefronts: TryOnStorefrontTable;
  tryon_sessions: TryOnSessionTable;
  tryon_uploads: TryOnUploadTable;
  tryon_jobs: TryOnJobTable;
  tryon_leads: TryOnLeadTable;
  tryon_usage: TryOnUsageTable;
}
