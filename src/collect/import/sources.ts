/**
 * Reads an import file as a stream of records, one at a time, with the file line each came from:
 * NDJSON by default, CSV when the name ends in `.csv` (header row, JSON text for array cells).
 * Nothing here holds more than one record in memory.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { parse, type CsvError } from 'csv-parse';

export type SourceRecord = { line: number; value: Record<string, unknown> } | { line: number; error: string };

export type FileFormat = 'ndjson' | 'csv';

export function formatOf(file: string): FileFormat {
  return file.toLowerCase().endsWith('.csv') ? 'csv' : 'ndjson';
}

async function* ndjsonRecords(file: string): AsyncGenerator<SourceRecord> {
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    const trimmed = line === 1 ? text.replace(/^\uFEFF/, '').trim() : text.trim();
    if (trimmed === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      yield { line, error: 'invalid JSON' };
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield { line, error: 'expected a JSON object' };
      continue;
    }
    yield { line, value: value as Record<string, unknown> };
  }
}

async function* csvRecords(file: string): AsyncGenerator<SourceRecord> {
  const skipped: SourceRecord[] = [];
  const parser = fs.createReadStream(file).pipe(
    parse({
      bom: true,
      columns: (header: string[]) => header.map((h) => h.trim()),
      info: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error: CsvError | undefined) => {
        if (error) skipped.push({ line: Number((error as CsvError & { lines?: number }).lines ?? 0), error: error.message });
        return undefined;
      },
    }),
  );
  for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    yield* skipped.splice(0);
    // An empty cell is an absent field, so the row format's default applies.
    const value: Record<string, unknown> = {};
    for (const [key, cell] of Object.entries(record)) if (cell !== '') value[key] = cell;
    yield { line: info.lines, value };
  }
  yield* skipped.splice(0);
}

export function readRecords(file: string, format: FileFormat = formatOf(file)): AsyncGenerator<SourceRecord> {
  return format === 'csv' ? csvRecords(file) : ndjsonRecords(file);
}
