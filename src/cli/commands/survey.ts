import { closeSurvey, publishSurvey, surveyOut, type Survey } from '../../store/app/surveys.ts';
import { CommandError, requireOption, workspaceOption, type Command, type CommandArgs } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

/** A stored object's id given as `--<name>`. */
export function idOption(args: CommandArgs, name: string): number {
  const raw = requireOption(args, name);
  if (!/^\d{1,15}$/.test(raw) || Number(raw) === 0) throw new CommandError(`--${name} must be a ${name} id`);
  return Number(raw);
}

const shown = (survey: Survey) => ({ survey: { ...surveyOut(survey), status: survey.data.status } });

/** `survey publish --workspace W --survey ID`: the draft becomes the survey the pixel shows after a purchase. */
export const surveyPublishCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const id = idOption(args, 'survey');
  await requireWorkspace(ctx, workspaceId);
  return shown(await publishSurvey(ctx.stores.db, workspaceId, id, 'cli'));
};

/** `survey close --workspace W --survey ID`: the pixel stops showing it; later answers are refused. */
export const surveyCloseCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const id = idOption(args, 'survey');
  await requireWorkspace(ctx, workspaceId);
  return shown(await closeSurvey(ctx.stores.db, workspaceId, id, 'cli'));
};
