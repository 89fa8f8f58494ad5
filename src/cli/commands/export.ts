import fs from 'node:fs';
import { formatTimestamp } from '../../kit/calendar/days.ts';
import { resolveRange } from '../../kit/calendar/range.ts';
import { visibilityOf } from '../../analytics/permissions.ts';
import { countRows } from '../../analytics/export/stream-rows.ts';
import { ROW_EXPORTS, ROW_EXPORT_KINDS, type RowExportKind, type RowExportPlan } from '../../api/export/kinds.ts';
import { parseMmmQuery } from '../../api/export/mmm.ts';
import { mmmTable } from '../../analytics/mmm/table.ts';
import { csvText } from '../../kit/csv.ts';
import { CommandError, requireOption, workspaceOption, type Command, type CommandArgs, type CommandContext } from '../command.ts';
import { cursorPath, readCursor, removeCursor, sameExport, writeCursor, type ExportCursor } from '../export/cursor.ts';
import { ExportInterrupted, writeExportFile } from '../export/file-export.ts';
import { requireWorkspace } from './workspace.ts';

function textOption(args: CommandArgs, name: string): string | undefined {
  const value = args.options[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new CommandError(`--${name} needs a value`);
  return value;
}

const ADMIN = visibilityOf(['admin:admin']);

/** Options given on the command line under the data API's parameter names; one left out is not sent (the API refuses unknown names). */
function queryOf(args: CommandArgs, names: Record<string, string>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [option, parameter] of Object.entries(names)) {
    const value = textOption(args, option);
    if (value !== undefined) query[parameter] = value;
  }
  return query;
}

/** The export's plan as the data API would make it for an admin key (its refusals are the command's). */
const planOf = (kind: RowExportKind, workspaceId: number, query: Record<string, string | undefined>): RowExportPlan =>
  ROW_EXPORTS.get(kind)!.plan({ workspaceId, visibility: ADMIN }, query);

/** `--kind mmm`: the marketing-mix-model CSV, as `GET /v3/export/mmm` answers it (a small file: no cursor). */
async function exportMmm(ctx: CommandContext, args: CommandArgs, workspaceId: number, file: string, request: Record<string, string>) {
  const format = textOption(args, 'format') ?? 'csv';
  if (format !== 'csv') throw new CommandError('--kind mmm is a CSV file: leave out --format or give --format csv');
  const query = { ...request, ...queryOf(args, { granularity: 'granularity', geo: 'geo' }) };
  const asked = parseMmmQuery(query);
  const range = resolveRange(asked);
  const table = await mmmTable(ctx.stores, { workspaceId, visibility: ADMIN }, range, asked);
  const text = csvText([table.columns, ...table.records]);
  fs.writeFileSync(file, text, { mode: 0o600 });
  return {
    kind: 'mmm',
    format,
    file,
    rows: table.records.length,
    bytes: Buffer.byteLength(text),
    start_date: formatTimestamp(range.startMs),
    end_date: formatTimestamp(range.endMs),
  };
}

/** The bar after each chunk (the engine's chunks are some 65,000 rows, so a few redraws a second). */
const progressOf = (ctx: CommandContext, kind: string, total: number) => (rows: number) =>
  ctx.progress(`${kind}: ${rows.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows`, { done: rows, total });

/**
 * `export --workspace ID --kind events|sessions|conversions|ads --file F [--format ndjson|csv|parquet]
 * [--start-date D] [--end-date D] [--timezone Z] [--restart]`: every row in scope, as the data
 * API's export sends it, into a file, with a progress bar. An interrupted NDJSON or CSV export
 * continues where it stopped when the same command runs again (docs/exports.md, "Command line").
 * `--kind mmm [--granularity day|week] [--geo city]` writes the marketing-mix-model CSV.
 */
export const exportCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const kindName = requireOption(args, 'kind');
  const file = requireOption(args, 'file');
  const format = textOption(args, 'format') ?? 'ndjson';
  const request = queryOf(args, { 'start-date': 'start_date', 'end-date': 'end_date', timezone: 'timezone' });
  const kind = ROW_EXPORT_KINDS.find((k) => k === kindName);
  if (!kind && kindName !== 'mmm') throw new CommandError(`Unknown kind: ${kindName}. Kinds: ${ROW_EXPORT_KINDS.join(', ')}, mmm`);
  await requireWorkspace(ctx, workspaceId);
  if (!kind) return exportMmm(ctx, args, workspaceId, file, request);

  const wanted = { workspace: workspaceId, kind, format, request };
  const found = args.options.restart === true ? null : readCursor(file);
  if (found && !sameExport(found, wanted)) {
    throw new CommandError(`${cursorPath(file)} belongs to another export (${found.kind}, ${found.format}, workspace ${found.workspace}): add --restart to start this one over, or choose another file`);
  }
  // A continuation reads the range as it was resolved when the export began.
  const plan = planOf(kind, workspaceId, { ...request, ...(found?.range ?? {}), format });
  const total = await countRows(ctx.stores.ch, `export-${kind}`, plan.statement);
  if (found) {
    if (found.total !== total) {
      throw new CommandError(`The ${kind} of this range changed since the export began (${found.total} rows then, ${total} now), so the rows in ${file} may not line up with the rest: add --restart to start over`);
    }
    if ((fs.statSync(file, { throwIfNoEntry: false })?.size ?? -1) < found.bytes) {
      throw new CommandError(`${file} is shorter than its cursor says (${found.bytes} bytes): add --restart to start over`);
    }
  }
  const range = { start_date: new Date(plan.range.startMs).toISOString(), end_date: new Date(plan.range.endMs).toISOString() };
  const cursor: ExportCursor = found ?? { version: 1, ...wanted, range, total, rows: 0, bytes: 0 };
  if (!found && format !== 'parquet') writeCursor(file, cursor);
  const progress = progressOf(ctx, kind, total);
  progress(cursor.rows);
  let written: { rows: number; bytes: number };
  try {
    // A cursor at byte 0 has nothing to continue (a new CSV file still needs its header).
    written = await writeExportFile({ ch: ctx.stores.ch, file, plan, cursor, resume: cursor.bytes > 0, progress, signal: ctx.signal });
  } catch (error) {
    if (error instanceof ExportInterrupted) {
      const at = readCursor(file)?.rows ?? 0;
      throw new CommandError(`Export interrupted after ${at} of ${total} rows: run the same command again to continue`);
    }
    throw error;
  }
  removeCursor(file);
  return {
    kind,
    format,
    file,
    rows: written.rows,
    bytes: written.bytes,
    continued_from_row: found?.rows ?? 0,
    start_date: formatTimestamp(plan.range.startMs),
    end_date: formatTimestamp(plan.range.endMs),
  };
};
