import fs from 'node:fs';
import { findImportKind, importKinds } from '../../collect/import/kinds.ts';
import { importFile } from '../../collect/import/run.ts';
import { importShopifyOrders } from '../../collect/shop/shopify-csv.ts';
import { CommandError, requireOption, workspaceOption, type Command } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

/**
 * `import --workspace ID --kind K --file F [--strict]`, and `--kind orders --format shopify` for
 * Shopify's order export (docs/integrations.md).
 */
export const importCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const kindName = requireOption(args, 'kind');
  const file = requireOption(args, 'file');
  const kind = findImportKind(kindName);
  if (!kind) throw new CommandError(`Unknown kind: ${kindName}. Kinds: ${importKinds.map((k) => k.kind).join(', ')}`);
  const format = args.options.format;
  if (format !== undefined && !(format === 'shopify' && kindName === 'orders')) {
    throw new CommandError('--format: the only format is shopify, with --kind orders');
  }
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new CommandError(`File not found: ${file}`);
  const workspace = await requireWorkspace(ctx, workspaceId);
  if (format === 'shopify') {
    return importShopifyOrders(ctx.stores.ch, { workspace: { id: workspace.id, currency: workspace.currency }, file, strict: args.options.strict === true });
  }
  return importFile(ctx.stores.ch, {
    kind,
    storeId: workspaceId,
    file,
    strict: args.options.strict === true,
    progress: ctx.progress,
  });
};
