import { recordAudit } from '../../../store/app/audit-log.ts';
import {
  createObject,
  findObject,
  listObjects,
  updateObject,
  type ToolObject,
} from '../../../store/app/tool-objects.ts';
import { z } from 'zod';
import { NotFound } from '../../../kit/errors.ts';
import * as out from './outputs.ts';
import { InvalidRequest, limitArg, offsetArg, readTool, type ToolContext, type ToolDefinition } from './tool.ts';

/**
 * Shared plumbing of the stored-object tools: ids go out as strings, every write lands in the
 * audit log, and a missing object is a `not_found` tool error.
 */
export function present(object: ToolObject<object>): Record<string, unknown> {
  return { id: String(object.id), ...object.data, created_at: object.createdAt, updated_at: object.updatedAt };
}

export async function audit(ctx: ToolContext, action: string, target: string, details: Record<string, unknown> = {}): Promise<void> {
  await recordAudit(ctx.db, { workspaceId: ctx.workspaceId, actor: ctx.actor, action, target, details });
}

export async function createAudited<T extends object>(
  ctx: ToolContext,
  action: string,
  kind: string,
  data: T,
  options: { parentId?: number; uniqueKey?: string } = {},
): Promise<ToolObject<T>> {
  const object = await createObject(ctx.db, ctx.workspaceId, kind, data, options);
  await audit(ctx, action, `${kind}:${object.id}`, { created: data });
  return object;
}

const notFound = (what: string, id: string) => new NotFound(`${what} ${id} not found`);

export async function requireObject<T = Record<string, unknown>>(ctx: ToolContext, kind: string, id: string, label = kind): Promise<ToolObject<T>> {
  const object = await findObject<T>(ctx.db, ctx.workspaceId, kind, Number(id));
  if (!object) throw notFound(label, id);
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
  const updated = await updateObject<T>(ctx.db, ctx.workspaceId, kind, Number(id), defined);
  if (!updated) throw notFound(label, id);
  await audit(ctx, action, `${kind}:${id}`, { changed: defined });
  return updated;
}

export async function listPresented(
  ctx: ToolContext,
  kind: string,
  page: { limit: number; offset: number },
  parentId?: number,
): Promise<Record<string, unknown>[]> {
  const objects = await listObjects(ctx.db, ctx.workspaceId, kind, { ...page, parentId });
  return objects.map(present);
}

/** A read tool that lists one kind of stored object, a page at a time, oldest first. */
export function listTool(name: string, title: string, description: string, dataSource: string, kind: string, member: string): ToolDefinition {
  const input = z.object({ limit: limitArg, offset: offsetArg }).strict();
  const output = z.strictObject({ [member]: out.storedList });
  return readTool(name, title, description, dataSource, input, output, async (ctx, page) => ({ [member]: await listPresented(ctx, kind, page) }));
}
