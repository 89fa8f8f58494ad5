import { createForm, parseForm, publishForm } from '../../store/app/forms.ts';
import { CommandError, requireOption, workspaceOption, type Command } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

function parseFields(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CommandError('--fields must be a JSON array of {label, type, required, options}');
  }
}

/** `form create --workspace W --name N --fields JSON`: a draft form. */
export const formCreateCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const fields = typeof args.options.fields === 'string' ? parseFields(args.options.fields) : [];
  const form = parseForm({ name: requireOption(args, 'name'), fields });
  await requireWorkspace(ctx, workspaceId);
  const created = await createForm(ctx.stores.db, workspaceId, form, 'cli');
  return { form: { id: String(created.id), ...created.data } };
};

/** `form publish --workspace W --form ID`: the collector takes the form's submissions from now on. */
export const formPublishCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const id = requireOption(args, 'form');
  if (!/^\d{1,15}$/.test(id)) throw new CommandError('--form must be a form id (digits)');
  await requireWorkspace(ctx, workspaceId);
  const form = await publishForm(ctx.stores.db, workspaceId, Number(id), 'cli');
  return { form: { id: String(form.id), ...form.data } };
};
