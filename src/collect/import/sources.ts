/**
 * Reads an import file as a stream of records, one at a time, with the file line each came from:
 * NDJSON by default, CSV when the name ends in `.csv` (header row, JSON text for array cells),
 * or an ad platform's report export (src/collect/ads/export-reader.ts). Nothing here holds more
 * than one record in memory.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import type { AdExportFormatName } from '../ads/export-formats.ts';
import { adExportRecords } from '../ads/export-reader.ts';
import type { SourceRecord } from './records.ts';

/** A file on disk, or text made in memory (the demo's platform exports). */
export type ImportInput = { file: string } | { name: string; text: string };

/** `ad-export`: a platform's ads report (src/collect/ads). */
export type FileFormat = { format: 'ndjson' } | { format: 'csv' } | { format: 'ad-export'; platform: AdExportFormatName; currency: string };

const inputName = (input: ImportInput) => ('file' in input ? input.file : input.name);

export function openInput(input: ImportInput): Readable {
  return 'file' in input ? fs.createReadStream(input.file) : Readable.from([input.text]);
}

export function formatOf(input: ImportInput): FileFormat {
  return inputName(input).toLowerCase().endsWith('.csv') ? { format: 'csv' } : { format: 'ndjson' };
}

/** The first line of the input (at most 64 KB of it). */
export async function firstLine(input: ImportInput): Promise<string> {
  if (!('file' in input)) return input.text.split('\n', 1)[0] ?? '';
  const handle = await fs.promises.open(input.file, 'r');
  try {
    const buffer = Buffer.alloc(65_536);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').split('\n', 1)[0] ?? '';
  } finally {
    await handle.close();
  }
}

async function* ndjsonRecords(input: ImportInput): AsyncGenerator<SourceRecord> {
  const lines = readline.createInterface({ input: openInput(input), crlfDelay: Infinity });
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

async function* csvRecords(input: ImportInput): AsyncGenerator<SourceRecord> {
  const skipped: SourceRecord[] = [];
  const parser = openInput(input).pipe(
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

export function readRecords(input: ImportInput, format: FileFormat = formatOf(input)): AsyncGenerator<SourceRecord> {
  if (format.format === 'ad-export') return adExportRecords(openInput(input), { format: format.platform, currency: format.currency });
  return format.format === 'csv' ? csvRecords(input) : ndjsonRecords(input);
}
