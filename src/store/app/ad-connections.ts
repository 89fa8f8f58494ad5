/**
 * Ad platform accounts a workspace pulls spend from (app migration 0006). The credentials are
 * kept as JSON sealed by the deployment's secret box and opened only to call the platform.
 */
import type { AppDatabase } from '../app-db.ts';
import type { SecretBox } from '../secret-box.ts';

export interface AdConnection {
  workspaceId: number;
  platform: string;
  accountId: string;
  credentials: Record<string, string>;
  createdAt: string;
  lastSyncAt: string | null;
  lastSyncError: string | null;
}

export async function saveAdConnection(
  db: AppDatabase,
  secrets: SecretBox,
  input: { workspaceId: number; platform: string; accountId: string; credentials: Record<string, string> },
): Promise<void> {
  const now = new Date().toISOString();
  const sealed = secrets.seal(JSON.stringify(input.credentials));
  await db
    .insertInto('ad_connections')
    .values({
      workspace_id: input.workspaceId,
      platform: input.platform,
      account_id: input.accountId,
      credentials: sealed,
      created_at: now,
      updated_at: now,
      last_sync_at: null,
      last_sync_error: null,
    })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'platform', 'account_id']).doUpdateSet({ credentials: sealed, updated_at: now, last_sync_error: null }),
    )
    .execute();
}

/** Every connection, or one workspace's, with the credentials opened. */
export async function listAdConnections(db: AppDatabase, secrets: SecretBox, workspaceId?: number): Promise<AdConnection[]> {
  let query = db.selectFrom('ad_connections').selectAll().orderBy('workspace_id').orderBy('platform').orderBy('account_id');
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
  const rows = await query.execute();
  return rows.map((row) => ({
    workspaceId: row.workspace_id,
    platform: row.platform,
    accountId: row.account_id,
    credentials: JSON.parse(secrets.open(row.credentials)) as Record<string, string>,
    createdAt: row.created_at,
    lastSyncAt: row.last_sync_at,
    lastSyncError: row.last_sync_error,
  }));
}

/** Records a pull attempt: when, and its error (null when it worked). */
export async function recordAdSync(db: AppDatabase, connection: AdConnection, at: string, error: string | null): Promise<void> {
  await db
    .updateTable('ad_connections')
    .set({ last_sync_at: at, last_sync_error: error })
    .where('workspace_id', '=', connection.workspaceId)
    .where('platform', '=', connection.platform)
    .where('account_id', '=', connection.accountId)
    .execute();
}
