/**
 * add_to_list and save_note (docs/workflows.md, "Actions"): what fired goes into the workspace's
 * own lists and notes, the same stored objects the lists and notes tools read, with an audit entry
 * naming the workflow. Each records the scope the firing's numbers were read with.
 */
import type { AppDatabase } from '../../store/app-db.ts';
import { recordAudit } from '../../store/app/audit-log.ts';
import { countObjects, createObject, findObject, listObjects, MAX_OBJECTS_PER_KIND } from '../../store/app/tool-objects.ts';
import { LIST_COLUMN_KIND, LIST_ITEM_KIND, LIST_KIND, MAX_ITEMS_PER_LIST, NOTE_KIND } from '../../store/app/lists-and-notes.ts';
import type { ActionOutcome } from '../../store/app/workflows.ts';
import type { Firing } from '../firing.ts';

/**
 * One item per firing, with the values its list has columns for: `workflow`, `trigger`,
 * `fired_at` and `summary` (a list without any of these columns gets an item without values).
 */
export async function addToList(db: AppDatabase, workspaceId: number, target: string, firing: Firing): Promise<ActionOutcome> {
  const listId = Number(target);
  if (!(await findObject(db, workspaceId, LIST_KIND, listId))) return { type: 'add_to_list', status: 'failed', detail: `list ${target} not found` };
  if ((await countObjects(db, workspaceId, LIST_ITEM_KIND, listId)) >= MAX_ITEMS_PER_LIST) {
    return { type: 'add_to_list', status: 'failed', detail: `list ${target} is full (${MAX_ITEMS_PER_LIST} items)` };
  }
  const columns = new Set((await listObjects<{ name: string }>(db, workspaceId, LIST_COLUMN_KIND, { parentId: listId })).map((c) => c.data.name));
  const offered: Record<string, string> = { workflow: firing.workflow.name, trigger: firing.trigger.type, fired_at: firing.fired_at, summary: firing.summary };
  const values = Object.fromEntries(Object.entries(offered).filter(([column]) => columns.has(column)));
  const item = await createObject(db, workspaceId, LIST_ITEM_KIND, { values }, { parentId: listId, scope: firing.scope });
  await recordAudit(db, { workspaceId, actor: firing.actor, action: 'workflow.add_to_list', target: `${LIST_ITEM_KIND}:${item.id}`, details: { created: { values } } });
  return { type: 'add_to_list', status: 'done', detail: `item ${item.id} added to list ${target}` };
}

/** A note titled after the workflow, holding the summary and the values seen. */
export async function saveNote(db: AppDatabase, workspaceId: number, firing: Firing): Promise<ActionOutcome> {
  if ((await countObjects(db, workspaceId, NOTE_KIND)) >= MAX_OBJECTS_PER_KIND) {
    return { type: 'save_note', status: 'failed', detail: `a workspace keeps at most ${MAX_OBJECTS_PER_KIND} notes` };
  }
  const data = { title: `${firing.workflow.name} (${firing.fired_at})`.slice(0, 200), content: `${firing.summary}\n\n${JSON.stringify(firing.values, null, 2)}` };
  const note = await createObject(db, workspaceId, NOTE_KIND, data, { scope: firing.scope });
  await recordAudit(db, { workspaceId, actor: firing.actor, action: 'workflow.save_note', target: `${NOTE_KIND}:${note.id}`, details: { created: data } });
  return { type: 'save_note', status: 'done', detail: `note ${note.id} saved` };
}
