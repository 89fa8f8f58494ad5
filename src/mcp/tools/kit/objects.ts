import { recordAudit } from '../../../store/app/audit-log.ts';
import {
  countObjects,
  createObject,
  MAX_OBJECTS_PER_KIND,
  findObject,
  listObjects,
  updateObject,
  type ReadScope,
  type ToolObject,
} from '../../../store/app/tool-objects.ts';
import { z } from 'zod';
import { AccessDenied, NotFound } from '../../../kit/errors.ts';
import { NO_SOURCE_ACCESS, readScopeOf } from '../../../analytics/permissions.ts';
import { CHANNELS, isOutput, mayHide, visibleObject, visibleTo } from '../../../analytics/stored-channels.ts';
import * as out from './outputs.ts';
import { InvalidRequest, limitArg, offsetArg, readTool, type ToolContext, type ToolDefinition } from './tool.ts';

/**
 * Shared plumbing of the stored-object tools: ids go out as strings, every write lands in the
 * audit log, and a missing object is a `not_found` tool error.
 */
export function present(object: ToolObject<object>): Record<string, unknown> {
  const { [CHANNELS]: _channels, ...data } = object.data as Record<string, unknown>;
  return { id: String(object.id), ...data, created_at: object.createdAt, updated_at: object.updatedAt };
}

/** Refuses to store channel data the writing key does not see itself (as a filter naming a hidden source is refused). */
function checkWritable(ctx: ToolContext, kind: string, data: object): void {
  if (!visibleTo(ctx.visibility, kind, data as Record<string, unknown>)) throw new AccessDenied(NO_SOURCE_ACCESS);
}

export async function audit(ctx: ToolContext, action: string, target: string, details: Record<string, unknown> = {}): Promise<void> {
  await recordAudit(ctx.db, { workspaceId: ctx.workspaceId, actor: ctx.actor, action, target, details });
}

export { MAX_OBJECTS_PER_KIND };

/** Refuses `adding` new top-level objects of a kind that would go past its bound (invalid_request). */
export async function checkRoomFor(ctx: ToolContext, kind: string, adding = 1): Promise<void> {
  if ((await countObjects(ctx.db, ctx.workspaceId, kind)) + adding > MAX_OBJECTS_PER_KIND) {
    throw new InvalidRequest(`A workspace keeps at most ${MAX_OBJECTS_PER_KIND} objects of kind ${kind}; this one has no room for ${adding} more`);
  }
}

/** What an output written by this key holds: what the key reads (anything it typed may come from there). */
const writerScope = (ctx: ToolContext, kind: string) => (isOutput(kind) ? readScopeOf(ctx.visibility) : undefined);

/** Stores a new object; an output records `scope`, by default the writing key's (writerScope). */
export async function createAudited<T extends object>(
  ctx: ToolContext,
  action: string,
  kind: string,
  data: T,
  options: { parentId?: number; uniqueKey?: string; scope?: ReadScope } = {},
): Promise<ToolObject<T>> {
  checkWritable(ctx, kind, data);
  if (options.parentId === undefined) await checkRoomFor(ctx, kind);
  const object = await createObject(ctx.db, ctx.workspaceId, kind, data, { ...options, scope: options.scope ?? writerScope(ctx, kind) });
  await audit(ctx, action, `${kind}:${object.id}`, { created: data });
  return object;
}

const notFound = (what: string, id: string) => new NotFound(`${what} ${id} not found`);

/** An object the key may see; one it may not (channels it does not see, a wider output) is not found, as if absent. */
export async function requireObject<T = Record<string, unknown>>(ctx: ToolContext, kind: string, id: string, label = kind): Promise<ToolObject<T>> {
  const object = await findObject<T>(ctx.db, ctx.workspaceId, kind, Number(id));
  if (!object || !visibleObject(ctx.visibility, kind, object)) throw notFound(label, id);
  return object;
}

/** Applies only the fields present in `changes` (undefined means "leave as is"). */
export async function updateAudited<T extends object>(
  ctx: ToolContext,
  action: string,
  kind: string,
  id: string,
  changes: Partial<T>,
  label = kind,
): Promise<ToolObject<T>> {
  const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<T>;
  if (Object.keys(defined).length === 0) throw new InvalidRequest('Nothing to change: name at least one field');
  const current = await requireObject<T>(ctx, kind, id, label);
  checkWritable(ctx, kind, { ...current.data, ...defined });
  const updated = await updateObject<T>(ctx.db, ctx.workspaceId, kind, Number(id), defined, writerScope(ctx, kind));
  if (!updated) throw notFound(label, id);
  await audit(ctx, action, `${kind}:${id}`, { changed: defined });
  return updated;
}

/** The objects of a kind (under a parent) this key may see, oldest first. */
async function visibleObjects(ctx: ToolContext, kind: string, parentId?: number): Promise<ToolObject[]> {
  const all = await listObjects(ctx.db, ctx.workspaceId, kind, { parentId, limit: MAX_OBJECTS_PER_KIND, offset: 0 });
  return all.filter((object) => visibleObject(ctx.visibility, kind, object));
}

/**
 * A page of the objects of a kind the key may see. Where some may be hidden from the key (channels
 * it does not see, an output's scope wider than its own), the page is cut from the visible ones (a
 * kind holds at most MAX_OBJECTS_PER_KIND, a list at most its item bound), so pages stay full and
 * counts never include hidden objects.
 */
export async function listPresented(
  ctx: ToolContext,
  kind: string,
  page: { limit: number; offset: number },
  parentId?: number,
): Promise<Record<string, unknown>[]> {
  if (!mayHide(ctx.visibility, kind)) {
    return (await listObjects(ctx.db, ctx.workspaceId, kind, { ...page, parentId })).map(present);
  }
  return (await visibleObjects(ctx, kind, parentId)).slice(page.offset, page.offset + page.limit).map(present);
}

/** How many objects of a kind (under a parent) the key may see. */
export async function countVisible(ctx: ToolContext, kind: string, parentId?: number): Promise<number> {
  if (!mayHide(ctx.visibility, kind)) return countObjects(ctx.db, ctx.workspaceId, kind, parentId);
  return (await visibleObjects(ctx, kind, parentId)).length;
}

/** A read tool that lists one kind of stored object, a page at a time, oldest first. */
export function listTool(name: string, title: string, description: string, dataSource: string, kind: string, member: string): ToolDefinition {
  const input = z.object({ limit: limitArg, offset: offsetArg }).strict();
  const output = z.strictObject({ [member]: out.storedList });
  return readTool(name, title, description, dataSource, input, output, async (ctx, page) => ({ [member]: await listPresented(ctx, kind, page) }));
}
