import { listWorkflows, storedOut } from '../../store/app/workflows.ts';
import { disableWorkflow, enableWorkflow } from '../../workflows/manage.ts';
import { createWorkflowEngine } from '../../workflows/engine.ts';
import { workspaceOption, type Command } from '../command.ts';
import { idOption } from './survey.ts';
import { requireWorkspace } from './workspace.ts';

/** Workflows a workspace lists at the most in `workflow list`: its bound of stored objects of a kind. */
const MAX_LISTED = 10_000;

/** `workflow list --workspace W`: every workflow, enabled or not. */
export const workflowListCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  await requireWorkspace(ctx, workspaceId);
  return { workflows: (await listWorkflows(ctx.stores.db, workspaceId, { limit: MAX_LISTED, offset: 0 })).map(storedOut) };
};

/** `workflow enable --workspace W --workflow ID`: the engine evaluates it from its next due time on. */
export const workflowEnableCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const id = idOption(args, 'workflow');
  await requireWorkspace(ctx, workspaceId);
  return { workflow: storedOut(await enableWorkflow(ctx.stores.db, workspaceId, id, 'cli', new Date())) };
};

/** `workflow disable --workspace W --workflow ID`: the engine leaves it alone. */
export const workflowDisableCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const id = idOption(args, 'workflow');
  await requireWorkspace(ctx, workspaceId);
  return { workflow: storedOut(await disableWorkflow(ctx.stores.db, workspaceId, id, 'cli', new Date())) };
};

/** `workflow run --workspace W --workflow ID`: evaluates it now and prints the execution. */
export const workflowRunCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const id = idOption(args, 'workflow');
  await requireWorkspace(ctx, workspaceId);
  const engine = createWorkflowEngine({ stores: ctx.stores, config: ctx.config.workflows, logger: ctx.logger });
  try {
    return { execution: storedOut(await engine.runNow(workspaceId, id, Date.now())) };
  } finally {
    await engine.stop();
  }
};
