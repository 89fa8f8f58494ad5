import fs from 'node:fs';
import type { Clickhouse } from '../../store/clickhouse.ts';
import { streamRows } from '../../analytics/export/stream-rows.ts';
import type { RowExportPlan } from '../../api/export/kinds.ts';
import { writeCursor, type ExportCursor } from './cursor.ts';
import { csvRecords, ndjsonRecords, type RecordCounter } from './records.ts';

/** The command's caller went away (its signal aborted) before the last row was written. */
export class ExportInterrupted extends Error {}

export interface FileExport {
  ch: Clickhouse;
  file: string;
  plan: RowExportPlan;
  /** Where to begin: a new cursor (nothing written yet) or the one an interrupted export left. */
  cursor: ExportCursor;
  /** Whether the file already holds `cursor.bytes` bytes of this export to continue. */
  resume: boolean;
  /** Called after each chunk with the rows written so far. */
  progress(rows: number): void;
  signal?: AbortSignal;
}

/**
 * Streams a row export into a file. NDJSON and CSV keep the cursor beside the file up to date
 * after every chunk (the rows and the byte offset of the last whole row), so an interrupted
 * export continues from there: the file is cut back to that offset, and the engine skips the
 * rows already written. A Parquet file cannot be continued and has no cursor.
 */
export async function writeExportFile(job: FileExport): Promise<{ rows: number; bytes: number }> {
  const { file, plan, cursor } = job;
  const counter: RecordCounter | null = plan.format === 'csv' ? csvRecords() : plan.format === 'ndjson' ? ndjsonRecords() : null;
  const handle = await fs.promises.open(file, job.resume ? 'r+' : 'w', 0o600);
  try {
    if (job.resume) await handle.truncate(cursor.bytes);
    let position = job.resume ? cursor.bytes : 0;
    let rows = job.resume ? cursor.rows : 0;
    // A new CSV file begins with its header row, which is a record but no row.
    let header = plan.format === 'csv' && !job.resume;
    await streamRows(job.ch, `export-${plan.kind}`, plan.statement, { format: plan.format, resume: job.resume ? { rows } : undefined }, async (chunks) => {
      for await (const chunk of chunks) {
        await handle.write(chunk, 0, chunk.length, position);
        const ended = counter?.(chunk);
        if (ended && ended.lastEnd >= 0) {
          rows += ended.records - (header ? 1 : 0);
          header = false;
          writeCursor(file, { ...cursor, rows, bytes: position + ended.lastEnd });
        }
        position += chunk.length;
        job.progress(rows);
        if (job.signal?.aborted) throw new ExportInterrupted();
      }
    });
    return { rows: counter ? rows : cursor.total, bytes: position };
  } finally {
    await handle.close();
  }
}
