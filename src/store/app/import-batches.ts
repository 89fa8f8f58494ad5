import type { AppDatabase } from '../app-db.ts';

/** The ledger of batches already written by imports of append-only kinds (app migration 0006). */
export async function hasImportBatch(db: AppDatabase, workspaceId: number, kind: string, digest: string): Promise<boolean> {
  const row = await db
    .selectFrom('import_batches')
    .select('digest')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .where('digest', '=', digest)
    .executeTakeFirst();
  return row !== undefined;
}

export async function recordImportBatch(db: AppDatabase, workspaceId: number, kind: string, digest: string, rows: number): Promise<void> {
  await db
    .insertInto('import_batches')
    .values({ workspace_id: workspaceId, kind, digest, rows, imported_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['workspace_id', 'kind', 'digest']).doNothing())
    .execute();
}
