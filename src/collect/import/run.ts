/**
 * Streams one import file into its analytics table: read a record, validate it against the
 * kind's row format, collect valid rows into batches and insert each batch as NDJSON. Memory
 * stays at one batch however large the file. `strict` reads the file twice: a validation pass,
 * then (only if every row is valid) the import pass.
 */
import type { Clickhouse } from '../../store/clickhouse.ts';
import { describeIssues } from '../rows.ts';
import { newImportVersion, type ImportKind, type ImportTarget } from './kinds.ts';
import { readRecords, type FileFormat } from './sources.ts';

/** Only the first errors are listed; `rows_rejected` counts them all. */
export const MAX_REPORTED_ERRORS = 100;
export const BATCH_ROWS = 50_000;
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

type Checked = { line: number; row: Record<string, unknown> } | { line: number; error: string };

async function* checkedRows(options: ImportOptions, target: ImportTarget): AsyncGenerator<Checked> {
  for await (const record of readRecords(options.file, options.format)) {
    if ('error' in record) {
      yield record;
      continue;
    }
    const parsed = options.kind.schema.safeParse(record.value);
    if (parsed.success) yield { line: record.line, row: options.kind.toRow(parsed.data, target) };
    else yield { line: record.line, error: describeIssues(parsed.error) };
  }
}

function progressReporter(options: ImportOptions, verb: string) {
  const started = performance.now();
  let next = PROGRESS_EVERY;
  return (rows: number, final = false) => {
    if (!options.progress || (rows < next && !(final && rows >= PROGRESS_EVERY))) return;
    next = (Math.floor(rows / PROGRESS_EVERY) + 1) * PROGRESS_EVERY;
    const seconds = (performance.now() - started) / 1000;
    const rate = Math.round(rows / Math.max(seconds, 0.001));
    options.progress(`${options.kind.kind}: ${verb} ${rows.toLocaleString('en-US')} rows (${rate.toLocaleString('en-US')} rows/s)`);
  };
}

function emptyResult(kind: string): ImportResult {
  return { kind, rows_imported: 0, rows_rejected: 0, errors: [] };
}

function reject(result: ImportResult, line: number, message: string): void {
  result.rows_rejected++;
  if (result.errors.length < MAX_REPORTED_ERRORS) result.errors.push({ line, message });
}

async function validateOnly(options: ImportOptions, target: ImportTarget): Promise<ImportResult> {
  const result = emptyResult(options.kind.kind);
  const report = progressReporter(options, 'validated');
  let seen = 0;
  for await (const checked of checkedRows(options, target)) {
    if ('error' in checked) reject(result, checked.line, checked.error);
    report(++seen);
  }
  report(seen, true);
  return result;
}

export async function importFile(ch: Clickhouse, options: ImportOptions): Promise<ImportResult> {
  const target: ImportTarget = { storeId: options.storeId, version: newImportVersion() };
  if (options.strict) {
    const validation = await validateOnly(options, target);
    if (validation.rows_rejected > 0) return validation;
  }
  const result = emptyResult(options.kind.kind);
  const batchRows = options.batchRows ?? BATCH_ROWS;
  const report = progressReporter(options, 'imported');
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    try {
      await ch.insertNdjson(options.kind.table, batch.join('\n'));
    } catch (error) {
      const done = result.rows_imported;
      throw new Error(`insert failed after ${done} rows were imported: ${(error as Error).message}`);
    }
    result.rows_imported += batch.length;
    batch = [];
    report(result.rows_imported);
  };
  for await (const checked of checkedRows(options, target)) {
    if ('error' in checked) {
      reject(result, checked.line, checked.error);
      continue;
    }
    batch.push(JSON.stringify(checked.row));
    if (batch.length >= batchRows) await flush();
  }
  await flush();
  report(result.rows_imported, true);
  return result;
}
