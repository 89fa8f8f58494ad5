import { closeForm, createForm, parseForm, publishForm, type Form } from '../../store/app/forms.ts';
import { CommandError, requireOption, workspaceOption, type Command } from '../command.ts';
import { idOption } from './survey.ts';
import { requireWorkspace } from './workspace.ts';

function parseFields(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CommandError('--fields must be a JSON array of {label, type, required, options}');
  }
}

const shown = (form: Form) => ({ form: { id: String(form.id), ...form.data } });

/** `form create --workspace W --name N --fields JSON`: a draft form. */
export const formCreateCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const fields = typeof args.options.fields === 'string' ? parseFields(args.options.fields) : [];
  const form = parseForm({ name: requireOption(args, 'name'), fields });
  await requireWorkspace(ctx, workspaceId);
  return shown(await createForm(ctx.stores.db, workspaceId, form, 'cli'));
};

/** `form publish --workspace W --form ID`: the collector takes the form's submissions from now on. */
export const formPublishCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const id = idOption(args, 'form');
  await requireWorkspace(ctx, workspaceId);
  return shown(await publishForm(ctx.stores.db, workspaceId, id, 'cli'));
};

/** `form close --workspace W --form ID`: the collector refuses the form's submissions from now on. */
export const formCloseCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const id = idOption(args, 'form');
  await requireWorkspace(ctx, workspaceId);
  return shown(await closeForm(ctx.stores.db, workspaceId, id, 'cli'));
};
