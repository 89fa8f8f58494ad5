import crypto from 'node:crypto';
import type { AppDatabase } from '../app-db.ts';
import { DEFAULT_SETTINGS, settingChangesSchema, workspaceSettingsSchema, type WorkspaceSettings } from './settings.ts';
import { bumpDataVersions } from './data-versions.ts';

export interface Workspace {
  id: number;
  name: string;
  currency: string;
  timezone: string;
  pixelId: string;
  createdAt: string;
}

type WorkspaceRow = {
  id: number;
  name: string;
  currency: string;
  timezone: string;
  pixel_id: string;
  created_at: string;
};

function toWorkspace(row: WorkspaceRow): Workspace {
  return {
    id: Number(row.id),
    name: row.name,
    currency: row.currency,
    timezone: row.timezone,
    pixelId: row.pixel_id,
    createdAt: row.created_at,
  };
}

const COLUMNS = ['id', 'name', 'currency', 'timezone', 'pixel_id', 'created_at'] as const;

export async function createWorkspace(
  db: AppDatabase,
  input: { name: string; currency: string; timezone: string },
): Promise<Workspace> {
  const settings: WorkspaceSettings = { ...DEFAULT_SETTINGS, currency: input.currency, timezone: input.timezone };
  const row = await db
    .insertInto('workspaces')
    .values({
      name: input.name,
      currency: input.currency,
      timezone: input.timezone,
      pixel_id: `px_${crypto.randomBytes(12).toString('base64url')}`,
      settings: JSON.stringify(settings),
      created_at: new Date().toISOString(),
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toWorkspace(row);
}

export async function findWorkspace(db: AppDatabase, id: number): Promise<Workspace | undefined> {
  const row = await db.selectFrom('workspaces').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && toWorkspace(row);
}

export async function findWorkspaceByPixelId(db: AppDatabase, pixelId: string): Promise<Workspace | undefined> {
  const row = await db.selectFrom('workspaces').select(COLUMNS).where('pixel_id', '=', pixelId).executeTakeFirst();
  return row && toWorkspace(row);
}

export async function listWorkspaces(db: AppDatabase): Promise<Workspace[]> {
  const rows = await db.selectFrom('workspaces').select(COLUMNS).orderBy('id').execute();
  return rows.map(toWorkspace);
}

const parseSettings = (stored: string): WorkspaceSettings => workspaceSettingsSchema.parse(JSON.parse(stored));

export async function getSettings(db: AppDatabase, workspaceId: number): Promise<WorkspaceSettings> {
  const row = await db.selectFrom('workspaces').select('settings').where('id', '=', workspaceId).executeTakeFirst();
  if (!row) throw new Error(`Workspace ${workspaceId} not found`);
  return parseSettings(row.settings);
}

/**
 * The settings and the data version (data-versions.ts) of one moment, in one read: what a report
 * kept under that version is computed with (src/analytics/report/run.ts).
 */
export async function getSettingsAndVersion(db: AppDatabase, workspaceId: number): Promise<{ settings: WorkspaceSettings; version: number }> {
  const row = await db
    .selectFrom('workspaces')
    .leftJoin('data_versions', 'data_versions.workspace_id', 'workspaces.id')
    .select(['workspaces.settings', 'data_versions.version'])
    .where('workspaces.id', '=', workspaceId)
    .executeTakeFirst();
  if (!row) throw new Error(`Workspace ${workspaceId} not found`);
  return { settings: parseSettings(row.settings), version: Number(row.version ?? 0) };
}

/**
 * Merges `changes` into the stored settings; a change beyond a bound or otherwise invalid is
 * rejected as a whole (a ZodError). Unnamed settings keep their stored values.
 */
export async function updateSettings(
  db: AppDatabase,
  workspaceId: number,
  changes: Record<string, unknown>,
): Promise<WorkspaceSettings> {
  const checked = settingChangesSchema.parse(changes);
  const current = await getSettings(db, workspaceId);
  const next = workspaceSettingsSchema.parse({ ...current, ...checked });
  await db
    .updateTable('workspaces')
    .set({ settings: JSON.stringify(next), currency: next.currency, timezone: next.timezone })
    .where('id', '=', workspaceId)
    .execute();
  // Settings change the numbers (exclusions, revenue rules), as new rows do.
  await bumpDataVersions(db, [workspaceId]);
  return next;
}
