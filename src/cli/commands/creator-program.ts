import { applyCreatorProgram, creatorProgramOut, unapplyCreatorProgram, type CreatorProgram } from '../../store/app/creator-programs.ts';
import { workspaceOption, type Command } from '../command.ts';
import { idOption } from './survey.ts';
import { requireWorkspace } from './workspace.ts';

const shown = (program: CreatorProgram) => ({ program: creatorProgramOut(program) });

/** `creator-program apply --workspace W --program ID`: its creators earn its commission from now on. */
export const creatorProgramApplyCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const id = idOption(args, 'program');
  await requireWorkspace(ctx, workspaceId);
  return shown(await applyCreatorProgram(ctx.stores.db, workspaceId, id, 'cli'));
};

/** `creator-program unapply --workspace W --program ID`: its creators show no commission any more. */
export const creatorProgramUnapplyCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const id = idOption(args, 'program');
  await requireWorkspace(ctx, workspaceId);
  return shown(await unapplyCreatorProgram(ctx.stores.db, workspaceId, id, 'cli'));
};
