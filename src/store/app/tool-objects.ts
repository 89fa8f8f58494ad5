import type { Selectable } from 'kysely';
import type { AppDatabase } from '../app-db.ts';
import type { ToolObjectTable } from './schema.ts';

/**
 * Objects the tool endpoint creates: notes, lists and their columns and items, creators,
 * programs, segments, ... Each is one JSON document of a `kind`, owned by a workspace,
 * optionally under a parent (a list's items) and optionally unique per kind (tracking codes,
 * topic keywords). Nothing here deletes.
 */
export interface ToolObject<T = Record<string, unknown>> {
  id: number;
  parentId: number | null;
  uniqueKey: string | null;
  data: T;
  /** What an output's numbers were read with; null when not recorded (analytics/permissions.ts, seesOutput). */
  scope: ReadScope | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * What the numbers of a stored output were read with (docs/security.md, "Outputs of stored
 * objects"; the rule that reads it is analytics/permissions.ts, seesOutput): the raw channels,
 * null for the whole store, and whether a profit figure is in it.
 */
export interface ReadScope {
  channels: readonly string[] | null;
  profit: boolean;
}

/**
 * Objects of one kind a workspace keeps at the most. Objects under a parent are bounded by their
 * parent instead (a list's columns and items).
 */
export const MAX_OBJECTS_PER_KIND = 10_000;

export const OBJECT_COLUMNS = ['id', 'parent_id', 'unique_key', 'data', 'read_scope', 'created_at', 'updated_at'] as const;

/** A row of `tool_objects` (its OBJECT_COLUMNS) as the object it stores. */
export function toObject<T>(row: Pick<Selectable<ToolObjectTable>, (typeof OBJECT_COLUMNS)[number]>): ToolObject<T> {
  return {
    id: Number(row.id),
    parentId: row.parent_id === null ? null : Number(row.parent_id),
    uniqueKey: row.unique_key,
    data: JSON.parse(row.data) as T,
    scope: row.read_scope === null ? null : (JSON.parse(row.read_scope) as ReadScope),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function createObject<T extends object>(
  db: AppDatabase,
  workspaceId: number,
  kind: string,
  data: T,
  options: { parentId?: number; uniqueKey?: string; scope?: ReadScope } = {},
): Promise<ToolObject<T>> {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('tool_objects')
    .values({
      workspace_id: workspaceId,
      kind,
      parent_id: options.parentId ?? null,
      unique_key: options.uniqueKey ?? null,
      data: JSON.stringify(data),
      read_scope: scopeColumn(options.scope),
      created_at: now,
      updated_at: now,
    })
    .returning(OBJECT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toObject<T>(row);
}

async function findOne<T>(
  db: AppDatabase,
  workspaceId: number,
  kind: string,
  match: { id: number } | { uniqueKey: string },
): Promise<ToolObject<T> | undefined> {
  let query = db.selectFrom('tool_objects').select(OBJECT_COLUMNS).where('workspace_id', '=', workspaceId).where('kind', '=', kind);
  query = 'id' in match ? query.where('id', '=', match.id) : query.where('unique_key', '=', match.uniqueKey);
  const row = await query.executeTakeFirst();
  return row && toObject<T>(row);
}

export function findObject<T = Record<string, unknown>>(db: AppDatabase, workspaceId: number, kind: string, id: number) {
  return findOne<T>(db, workspaceId, kind, { id });
}

export function findObjectByKey<T = Record<string, unknown>>(db: AppDatabase, workspaceId: number, kind: string, uniqueKey: string) {
  return findOne<T>(db, workspaceId, kind, { uniqueKey });
}

export async function listObjects<T = Record<string, unknown>>(
  db: AppDatabase,
  workspaceId: number,
  kind: string,
  options: { parentId?: number; limit?: number; offset?: number } = {},
): Promise<ToolObject<T>[]> {
  let query = db
    .selectFrom('tool_objects')
    .select(OBJECT_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind);
  if (options.parentId !== undefined) query = query.where('parent_id', '=', options.parentId);
  const rows = await query
    .orderBy('id')
    .limit(options.limit ?? 10_000)
    .offset(options.offset ?? 0)
    .execute();
  return rows.map((row) => toObject<T>(row));
}

export async function countObjects(db: AppDatabase, workspaceId: number, kind: string, parentId?: number): Promise<number> {
  let query = db
    .selectFrom('tool_objects')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind);
  if (parentId !== undefined) query = query.where('parent_id', '=', parentId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Deletes the objects of `kind` under `parentId` past its newest `keep`, only those created before
 * `before` when given. Returns how many went.
 */
export async function pruneChildren(
  db: AppDatabase,
  workspaceId: number,
  kind: string,
  parentId: number,
  options: { keep: number; before?: Date },
): Promise<number> {
  const newestKept = db
    .selectFrom('tool_objects')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .where('parent_id', '=', parentId)
    .orderBy('id', 'desc')
    .limit(1)
    .offset(options.keep - 1);
  let query = db
    .deleteFrom('tool_objects')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .where('parent_id', '=', parentId)
    .where('id', '<', newestKept);
  if (options.before) query = query.where('created_at', '<', options.before.toISOString());
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function uniqueKeysTaken(db: AppDatabase, workspaceId: number, kind: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('tool_objects')
    .select('unique_key')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .where('unique_key', 'in', keys)
    .execute();
  return new Set(rows.map((r) => r.unique_key as string));
}

/** A scope as the read_scope column holds it. */
export const scopeColumn = (scope: ReadScope | undefined): string | null => (scope ? JSON.stringify(scope) : null);

/**
 * Merges `changes` into the stored document, and records `scope` when given (an output written
 * again holds what its new writer read); returns undefined when the object does not exist.
 */
export async function updateObject<T extends object>(
  db: AppDatabase,
  workspaceId: number,
  kind: string,
  id: number,
  changes: Partial<T>,
  scope?: ReadScope,
): Promise<ToolObject<T> | undefined> {
  return db.transaction().execute(async (trx) => {
    const current = await findObject<T>(trx, workspaceId, kind, id);
    if (!current) return undefined;
    const data = { ...current.data, ...changes };
    const updatedAt = new Date().toISOString();
    await trx
      .updateTable('tool_objects')
      .set({ data: JSON.stringify(data), updated_at: updatedAt, ...(scope ? { read_scope: scopeColumn(scope) } : {}) })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
    return { ...current, data, updatedAt, ...(scope ? { scope } : {}) };
  });
}
