/**
 * A person turns workflows on and off (the CLI, the dashboard); tools only draft them. Enabling
 * checks the workflow is complete first (definition.ts) and that the lists it adds to exist.
 */
import { InvalidInput } from '../kit/errors.ts';
import type { AppDatabase } from '../store/app-db.ts';
import { findObject } from '../store/app/tool-objects.ts';
import { LIST_KIND } from '../store/app/lists-and-notes.ts';
import { requireWorkflow, setWorkflowEnabled, type Workflow } from '../store/app/workflows.ts';
import { checkRunnable } from './definition.ts';

export async function enableWorkflow(db: AppDatabase, workspaceId: number, id: number, actor: string, now: Date): Promise<Workflow> {
  const workflow = await requireWorkflow(db, workspaceId, id);
  checkRunnable(workflow.data);
  for (const [i, action] of workflow.data.actions.entries()) {
    if (action.type === 'add_to_list' && !(await findObject(db, workspaceId, LIST_KIND, Number(action.target)))) {
      throw new InvalidInput(`Workflow is incomplete: actions.${i}.target: list ${action.target} not found`);
    }
  }
  return setWorkflowEnabled(db, workspaceId, workflow, true, actor, now);
}

export async function disableWorkflow(db: AppDatabase, workspaceId: number, id: number, actor: string, now: Date): Promise<Workflow> {
  return setWorkflowEnabled(db, workspaceId, await requireWorkflow(db, workspaceId, id), false, actor, now);
}
