/**
 * Streams one import file into its analytics table: read a record, check it against the kind's
 * row format, and hand valid rows to a RowWriter, which inserts them in batches. Memory stays at
 * one batch however large the file. `strict` reads the file twice: a validation pass, then (only
 * if every row is valid) the import pass.
 */
import type { Clickhouse } from '../../store/clickhouse.ts';
import { resolveFormat } from './formats.ts';
import { newImportVersion, type ImportKind, type ImportTarget } from './kinds.ts';
import { readRecords, type FileFormat, type ImportInput } from './sources.ts';
import { checkRow, RowWriter, type BatchLedger } from './writer.ts';
import { AdRangeTracker, withdrawUnlisted } from '../ads/replace-range.ts';

/** Only the first errors are listed; `rows_rejected` counts them all. */
export const MAX_REPORTED_ERRORS = 100;
const PROGRESS_EVERY = 100_000;

export interface ImportResult {
  kind: string;
  /** The format read: ndjson, csv, or the ad platform whose export it was. */
  format: string;
  rows_imported: number;
  /** Rows of batches an earlier import of an append-only kind already wrote: not written again. */
  rows_already_imported: number;
  rows_rejected: number;
  errors: { line: number; message: string }[];
}

export interface ImportOptions {
  kind: ImportKind;
  workspaceId: number;
  input: ImportInput;
  /** `--format`; absent: from the file name and, for ads CSV files, the header row. */
  format?: string;
  /** The workspace currency: platform exports in another one are refused. */
  currency: string;
  strict?: boolean;
  batchRows?: number;
  ledger?: BatchLedger;
  progress?: (message: string) => void;
}

/** Reports every PROGRESS_EVERY rows, with the rate so far. */
function progressReporter(options: ImportOptions, verb: string) {
  const started = performance.now();
  let next = PROGRESS_EVERY;
  return (rows: number) => {
    if (!options.progress || rows < next) return;
    next = (Math.floor(rows / PROGRESS_EVERY) + 1) * PROGRESS_EVERY;
    const rate = Math.round(rows / Math.max((performance.now() - started) / 1000, 0.001));
    options.progress(`${options.kind.kind}: ${verb} ${rows.toLocaleString('en-US')} rows (${rate.toLocaleString('en-US')} rows/s)`);
  };
}

class Rejections {
  count = 0;
  readonly errors: ImportResult['errors'] = [];
  add(line: number, message: string): void {
    this.count++;
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push({ line, message });
  }
}

async function validate(options: ImportOptions, format: FileFormat, target: ImportTarget): Promise<Rejections> {
  const rejections = new Rejections();
  const report = progressReporter(options, 'validated');
  let seen = 0;
  for await (const record of readRecords(options.input, format)) {
    const checked = 'error' in record ? record : checkRow(options.kind, target, record.value);
    if ('error' in checked) rejections.add(record.line, checked.error);
    report(++seen);
  }
  return rejections;
}

/**
 * Imports one file. Throws ImportRefused when the whole file is refused; a platform export is read
 * through once before anything is written, so such a refusal (another currency on any line)
 * leaves nothing behind.
 */
export async function importFile(ch: Clickhouse, options: ImportOptions): Promise<ImportResult> {
  const format = await resolveFormat(options.kind, options.input, options.format, options.currency);
  const target: ImportTarget = { workspaceId: options.workspaceId, version: newImportVersion() };
  const result = (writer: RowWriter | null, rejections: Rejections): ImportResult => ({
    kind: options.kind.kind,
    format: format.format === 'ad-export' ? format.platform : format.format,
    rows_imported: writer?.written ?? 0,
    rows_already_imported: writer?.skipped ?? 0,
    rows_rejected: rejections.count,
    errors: rejections.errors,
  });
  if (options.strict || format.format === 'ad-export') {
    const rejections = await validate(options, format, target);
    if (options.strict && rejections.count > 0) return result(null, rejections);
  }
  const rejections = new Rejections();
  const covered = format.format === 'ad-export' ? new AdRangeTracker() : null;
  const writer = new RowWriter(ch, options.kind, target, {
    batchRows: options.batchRows,
    afterFlush: progressReporter(options, 'imported'),
    ledger: options.ledger,
    onRow: covered ? (row) => covered.add(row) : undefined,
  });
  for await (const record of readRecords(options.input, format)) {
    const error = 'error' in record ? record.error : await writer.add(record.value);
    if (error !== null) rejections.add(record.line, error);
  }
  await writer.finish(options.progress);
  // A platform export replaces the days it covers, unless a row was rejected: that row could be
  // the one that keeps a day (docs/integrations.md).
  if (covered && rejections.count === 0) await withdrawUnlisted(ch, options.workspaceId, covered.list(), target.version);
  return result(writer, rejections);
}
