import fs from 'node:fs';
import { FORMAT_NAMES } from '../../collect/import/formats.ts';
import { findImportKind, importKinds } from '../../collect/import/kinds.ts';
import { importFile } from '../../collect/import/run.ts';
import type { BatchLedger } from '../../collect/import/writer.ts';
import { importShopifyOrders } from '../../collect/shop/shopify-csv.ts';
import type { AppDatabase } from '../../store/app-db.ts';
import { hasImportBatch, recordImportBatch } from '../../store/app/import-batches.ts';
import { bumpDataVersions } from '../../store/app/data-versions.ts';
import { CommandError, ExitWith, requireOption, workspaceOption, type Command } from '../command.ts';

/** Linux's PATH_MAX: a longer --file names no file. */
const MAX_PATH_LENGTH = 4096;
import { requireWorkspace } from './workspace.ts';

export function importLedger(db: AppDatabase, workspaceId: number, kind: string): BatchLedger {
  return {
    has: (digest) => hasImportBatch(db, workspaceId, kind, digest),
    record: (digest, rows) => recordImportBatch(db, workspaceId, kind, digest, rows),
  };
}

/**
 * `import --workspace ID --kind K --file F [--format F] [--strict]`; `--format` names an ad
 * platform's export (`--kind ads`) or Shopify's order export (`--kind orders --format shopify`),
 * docs/integrations.md. Exit code 0 when every row was imported, 2 (same JSON on stdout) when
 * rows were rejected, 1 when the file was refused.
 */
export const importCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const kindName = requireOption(args, 'kind');
  const file = requireOption(args, 'file', MAX_PATH_LENGTH);
  const format = args.options.format;
  const kind = findImportKind(kindName);
  if (!kind) throw new CommandError(`Unknown kind: ${kindName}. Kinds: ${importKinds.map((k) => k.kind).join(', ')}`);
  if (format !== undefined && typeof format !== 'string') throw new CommandError(`--format needs a value: ${FORMAT_NAMES.join(', ')}`);
  if (format === 'shopify' && kind.kind !== 'orders') throw new CommandError('--format shopify is an orders export: use it with --kind orders');
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new CommandError(`File not found: ${file}`);
  const workspace = await requireWorkspace(ctx, workspaceId);
  try {
    const result =
      format === 'shopify'
        ? await importShopifyOrders(ctx.stores.ch, { workspace: { id: workspace.id, currency: workspace.currency }, file, strict: args.options.strict === true })
        : await importFile(ctx.stores.ch, {
            kind,
            workspaceId,
            input: { file },
            format,
            currency: workspace.currency,
            strict: args.options.strict === true,
            ledger: importLedger(ctx.stores.db, workspaceId, kind.kind),
            progress: ctx.progress,
          });
    return result.rows_rejected > 0 ? new ExitWith(result, 2) : result;
  } finally {
    // Also after a failure: the batches written before it are in the store.
    await bumpDataVersions(ctx.stores.db, [workspaceId]);
  }
};
