/**
 * The format of a write-ahead log segment: one line per row, `<table>\t<row JSON>\n`; empty lines
 * are skipped (each group commit's write starts with one, `wal-group-commit.ts`). Rows written
 * together stay in the order they were accepted; batches written at the same time may land in
 * either order. Strings are made well-formed before they are written, so a row's text is always
 * something the analytics store can read back.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { wellFormed } from '../kit/well-formed.ts';

export const COLLECT_TABLES = ['events', 'conversions', 'orders', 'survey_responses', 'form_submissions'] as const;
export type CollectTable = (typeof COLLECT_TABLES)[number];
export type Rows = Partial<Record<CollectTable, object[]>>;

export const SEGMENT_SUFFIX = '.wal';

/** Where the collector keeps its log segments and dead letters. */
export function collectDir(dataDir: string): string {
  return path.join(dataDir, 'collect');
}

/** Names sort by creation time: replay goes oldest first. */
export function segmentName(now = Date.now()): string {
  return `${now.toString().padStart(15, '0')}-${crypto.randomBytes(6).toString('hex')}`;
}

/** When a segment was created, from its name. */
export function segmentCreatedAt(name: string): number {
  return Number(name.slice(0, 15));
}

const wellFormedStrings = (_key: string, value: unknown) => (typeof value === 'string' ? wellFormed(value) : value);
/**
 * JSON.stringify writes a lone surrogate as the escape `\udXXX` (lower case), so only a row whose
 * text shows one (or a literal backslash before such letters) needs the slower second pass, which
 * doubled the encoding cost of every row when run always.
 */
const MAYBE_LONE_SURROGATE = /\\ud[89a-f]/;

function rowJson(row: object): string {
  const json = JSON.stringify(row);
  return MAYBE_LONE_SURROGATE.test(json) ? JSON.stringify(row, wellFormedStrings) : json;
}

export function encodeRows(rows: Rows): { data: string; count: number } {
  let data = '';
  let count = 0;
  for (const table of COLLECT_TABLES) {
    for (const row of rows[table] ?? []) {
      data += `${table}\t${rowJson(row)}\n`;
      count++;
    }
  }
  return { data, count };
}

export function byTable<T>(): Record<CollectTable, T[]> {
  return { events: [], conversions: [], orders: [], survey_responses: [], form_submissions: [] };
}

export interface DecodedSegment {
  /** Row JSON texts by table, in order. */
  lines: Record<CollectTable, string[]>;
  /** Complete lines that hold no row (an unknown table, text that is not a JSON object). */
  unreadable: string[];
}

export function isCollectTable(name: string): name is CollectTable {
  return (COLLECT_TABLES as readonly string[]).includes(name);
}

/** Whether the text is a JSON object, the only thing a row can be. */
export function isRow(json: string): boolean {
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * A segment's rows by table. Text after the last newline is a torn write (a crash in the middle
 * of an append that was therefore never acknowledged) and is skipped; a torn line that a later
 * write followed is unreadable, like any line that holds no row.
 */
export function decodeSegment(text: string): DecodedSegment {
  const lines = byTable<string>();
  const unreadable: string[] = [];
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  for (const line of complete.split('\n')) {
    if (line === '') continue;
    const tab = line.indexOf('\t');
    const table = line.slice(0, tab);
    const json = line.slice(tab + 1);
    if (tab > 0 && isCollectTable(table) && isRow(json)) lines[table].push(json);
    else unreadable.push(line);
  }
  return { lines, unreadable };
}

/** Every row the collector writes names its workspace first; the parse is for any other row. */
const LEADING_WORKSPACE = /^\{"store_id":(\d+)[,}]/;

/** The workspaces the rows belong to (their `store_id`), for the data version (store/app/data-versions.ts). */
export function workspacesOf(lines: readonly string[]): Set<number> {
  const ids = new Set<number>();
  for (const line of lines) {
    const leading = LEADING_WORKSPACE.exec(line);
    const id = leading ? Number(leading[1]) : Number((JSON.parse(line) as { store_id?: unknown }).store_id);
    if (Number.isSafeInteger(id)) ids.add(id);
  }
  return ids;
}
