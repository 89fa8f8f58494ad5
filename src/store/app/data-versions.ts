import { sql } from 'kysely';
import type { AppDatabase } from '../app-db.ts';

/**
 * A workspace's data version: a counter raised after every change to what its reports read
 * (a collector flush that stored rows, an import, an ad sync, the demo, a settings change;
 * docs/architecture.md, "Data versions"). Anything computed from a workspace's data may be cached
 * under the version it was computed at: a newer version means the data may have changed since.
 * It lives in app state, which every node of a deployment shares, and is raised with one atomic
 * statement, so several processes never lose a raise.
 */

/** Raises the version of each workspace once. */
export async function bumpDataVersions(db: AppDatabase, workspaceIds: Iterable<number>): Promise<void> {
  for (const workspaceId of new Set(workspaceIds)) {
    await db
      .insertInto('data_versions')
      .values({ workspace_id: workspaceId, version: 1 })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ version: sql`data_versions.version + 1` }))
      .execute();
  }
}

/** The current version (0 before the first raise): one primary-key read. */
export async function readDataVersion(db: AppDatabase, workspaceId: number): Promise<number> {
  const row = await db.selectFrom('data_versions').select('version').where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row ? Number(row.version) : 0;
}
