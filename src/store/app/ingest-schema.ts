/** Tables of app migration 0006. Timestamps are ISO text. */
export interface ImportBatchTable {
  workspace_id: number;
  kind: string;
  /** sha256 (hex) of the table name and the batch's NDJSON text. */
  digest: string;
  rows: number;
  imported_at: string;
}

export interface AdConnectionTable {
  workspace_id: number;
  /** `meta` or `google`. */
  platform: string;
  /** Meta `act_<id>`, Google customer id (digits only). */
  account_id: string;
  /** JSON of the platform's credentials, sealed by the secret box (never in clear). */
  credentials: string;
  created_at: string;
  updated_at: string;
  last_sync_at: string | null;
  last_sync_error: string | null;
}

export interface IngestTables {
  import_batches: ImportBatchTable;
  ad_connections: AdConnectionTable;
}
