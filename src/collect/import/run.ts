/**
 * Streams one import file into its analytics table: read a record, check it against the kind's
 * row format, and hand valid rows to a RowWriter, which inserts them in batches. Memory stays at
 * one batch however large the file. `strict` reads the file twice: a validation pass, then (only
 * if every row is valid) the import pass.
 */
import type { Clickhouse } from '../../store/clickhouse.ts';
import { newImportVersion, type ImportKind, type ImportTarget } from './kinds.ts';
import { readRecords, type FileFormat } from './sources.ts';
import { checkRow, RowWriter } from './writer.ts';

/** Only the first errors are listed; `rows_rejected` counts them all. */
export const MAX_REPORTED_ERRORS = 100;
const PROGRESS_EVERY = 100_000;

export interface ImportResult {
  kind: string;
  rows_imported: number;
  rows_rejected: number;
  errors: { line: number; message: string }[];
}

export interface ImportOptions {
  kind: ImportKind;
  storeId: number;
  file: string;
  format?: FileFormat;
  strict?: boolean;
  batchRows?: number;
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

async function validate(options: ImportOptions, target: ImportTarget): Promise<Rejections> {
  const rejections = new Rejections();
  const report = progressReporter(options, 'validated');
  let seen = 0;
  for await (const record of readRecords(options.file, options.format)) {
    const checked = 'error' in record ? record : checkRow(options.kind, target, record.value);
    if ('error' in checked) rejections.add(record.line, checked.error);
    report(++seen);
  }
  return rejections;
}

export async function importFile(ch: Clickhouse, options: ImportOptions): Promise<ImportResult> {
  const target: ImportTarget = { storeId: options.storeId, version: newImportVersion() };
  const result = (written: number, rejections: Rejections): ImportResult => ({
    kind: options.kind.kind,
    rows_imported: written,
    rows_rejected: rejections.count,
    errors: rejections.errors,
  });
  if (options.strict) {
    const rejections = await validate(options, target);
    if (rejections.count > 0) return result(0, rejections);
  }
  const rejections = new Rejections();
  const writer = new RowWriter(ch, options.kind, target, options.batchRows, progressReporter(options, 'imported'));
  for await (const record of readRecords(options.file, options.format)) {
    const error = 'error' in record ? record.error : await writer.add(record.value);
    if (error !== null) rejections.add(record.line, error);
  }
  await writer.flush();
  return result(writer.written, rejections);
}
