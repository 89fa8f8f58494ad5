import { NOT_CONFIGURED, runPrompts } from '../../ai-visibility/run.ts';
import { CommandError, workspaceOption, type Command } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

/** `ai-visibility run --workspace W`: asks every active tracked prompt once and prints the check results. */
export const aiVisibilityRunCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  await requireWorkspace(ctx, workspaceId);
  if (!ctx.config.llm) throw new CommandError(NOT_CONFIGURED);
  return { results: await runPrompts(ctx.stores.db, ctx.config.llm, workspaceId) };
};
