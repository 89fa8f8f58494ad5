import type { Clickhouse } from '../store/clickhouse.ts';
import type { AppDatabase } from '../store/app-db.ts';
import { updateSettings } from '../store/app/workspaces.ts';
import { settingChangesSchema, type WorkspaceSettings } from '../store/app/settings.ts';
import { InvalidInput } from '../kit/errors.ts';
import { describeIssues } from '../kit/zod-issues.ts';
import { PIXEL_SOURCES } from './sources.ts';
import { ensureExcludedList } from './queries/settings/excluded-transactions.ts';

/**
 * A change of a workspace's settings from the CLI or the dashboard: bounded and checked as a
 * whole (a refusal is an InvalidInput naming the setting and its bound), source names from the
 * channel vocabulary, the excluded ids written where reports read them, then the settings.
 */
export async function changeSettings(stores: { db: AppDatabase; ch: Clickhouse }, workspaceId: number, changes: unknown): Promise<WorkspaceSettings> {
  const parsed = settingChangesSchema.safeParse(changes);
  if (!parsed.success) throw new InvalidInput(describeIssues(parsed.error));
  const unknown = (parsed.data.ignore_sources ?? []).filter((source) => !(PIXEL_SOURCES as readonly string[]).includes(source));
  if (unknown.length) throw new InvalidInput(`ignore_sources: unknown source ${unknown.join(', ')}. Sources: ${PIXEL_SOURCES.join(', ')}`);
  if (parsed.data.excluded_transaction_ids) await ensureExcludedList(stores.ch, workspaceId, parsed.data.excluded_transaction_ids);
  return updateSettings(stores.db, workspaceId, parsed.data);
}
