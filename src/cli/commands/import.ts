import fs from 'node:fs';
import { findImportKind, importKinds } from '../../collect/import/kinds.ts';
import { importFile } from '../../collect/import/run.ts';
import { CommandError, requireOption, workspaceOption, type Command } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

/** `import --workspace ID --kind K --file F [--strict]` */
export const importCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const kindName = requireOption(args, 'kind');
  const file = requireOption(args, 'file');
  const kind = findImportKind(kindName);
  if (!kind) throw new CommandError(`Unknown kind: ${kindName}. Kinds: ${importKinds.map((k) => k.kind).join(', ')}`);
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new CommandError(`File not found: ${file}`);
  await requireWorkspace(ctx, workspaceId);
  return importFile(ctx.stores.ch, {
    kind,
    storeId: workspaceId,
    file,
    strict: args.options.strict === true,
    progress: ctx.progress,
  });
};
