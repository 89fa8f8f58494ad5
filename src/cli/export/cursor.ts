import fs from 'node:fs';

/**
 * The state of a file export that may be continued, kept beside the file as `<file>.cursor`
 * (docs/exports.md, "Command line"). `bytes` is where the last whole row ends in the file and
 * `rows` how many rows of the statement are before it; `range` is the export's range as resolved
 * when it began, so a continuation reads the same span even when "today" has moved on.
 */
export interface ExportCursor {
  version: 1;
  workspace: number;
  kind: string;
  format: string;
  /** The dates and zone as the command line gave them (absent: the default). */
  request: { start_date?: string; end_date?: string; timezone?: string };
  range: { start_date: string; end_date: string };
  /** Rows of the statement when the export began: a continuation checks that they did not change. */
  total: number;
  rows: number;
  bytes: number;
}

export const cursorPath = (file: string) => `${file}.cursor`;

export function readCursor(file: string): ExportCursor | null {
  let text: string;
  try {
    text = fs.readFileSync(cursorPath(file), 'utf8');
  } catch {
    return null;
  }
  const cursor = JSON.parse(text) as ExportCursor;
  if (cursor.version !== 1) throw new Error(`${cursorPath(file)} is not a cursor this version writes`);
  return cursor;
}

/** Replaces the cursor in one step (a rename), so that an interruption leaves the old or the new one, whole. */
export function writeCursor(file: string, cursor: ExportCursor): void {
  const next = `${cursorPath(file)}.next`;
  fs.writeFileSync(next, JSON.stringify(cursor), { mode: 0o600 });
  fs.renameSync(next, cursorPath(file));
}

export function removeCursor(file: string): void {
  fs.rmSync(cursorPath(file), { force: true });
}

/** Whether a cursor belongs to this request (same workspace, kind, format, dates and zone). */
export function sameExport(cursor: ExportCursor, wanted: Pick<ExportCursor, 'workspace' | 'kind' | 'format' | 'request'>): boolean {
  const request = (r: ExportCursor['request']) => JSON.stringify([r.start_date ?? null, r.end_date ?? null, r.timezone ?? null]);
  return cursor.workspace === wanted.workspace && cursor.kind === wanted.kind && cursor.format === wanted.format
    && request(cursor.request) === request(wanted.request);
}
