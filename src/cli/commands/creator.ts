import { codesOf, linkCreatorCode } from '../../store/app/creators.ts';
import { requireOption, workspaceOption, type Command } from '../command.ts';
import { idOption } from './survey.ts';
import { requireWorkspace } from './workspace.ts';

/** `creator link-code --workspace W --creator ID --code CODE`: the creator's figures and commission count the code's sessions and orders too. */
export const creatorLinkCodeCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const id = idOption(args, 'creator');
  const code = requireOption(args, 'code');
  await requireWorkspace(ctx, workspaceId);
  const creator = await linkCreatorCode(ctx.stores.db, workspaceId, id, code, 'cli');
  return { creator: { id: String(creator.id), name: creator.data.name, tracking_code: creator.data.tracking_code, codes: codesOf(creator) } };
};
