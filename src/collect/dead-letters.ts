/**
 * The collector's dead-letter file (docs/operations.md): rows the analytics store refused, kept
 * verbatim with the error and the time, so that one bad row never holds up the rows behind it
 * and none is lost. One JSON object per line in `<data dir>/collect/dead-letters.ndjson`. A
 * replay moves the file aside first (`dead-letters.replaying-<time>.ndjson`); an aside file left
 * by a replay that did not finish still holds dead letters and is taken up by the next replay.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DeadLetter {
  /** ISO time the row was set aside. */
  at: string;
  table: string;
  /** Where the row came from: `wal:<segment>` or `replay:<aside file>`. */
  source: string;
  /** ClickHouse's error code, null when the log line itself was unreadable. */
  error: { code: number | null; message: string };
  /** The row exactly as it was logged (JSON text). */
  row: string;
}

export type NewDeadLetter = Omit<DeadLetter, 'at'>;

const LIVE = 'dead-letters.ndjson';
const FILE = /^dead-letters(\.replaying-\d+)?\.ndjson$/;

export function deadLetterFile(dir: string): string {
  return path.join(dir, LIVE);
}

/** Appends and moves of one directory's files run one at a time (the writer and a replay share them). */
const queues = new Map<string, Promise<unknown>>();
function exclusive<T>(dir: string, op: () => Promise<T>): Promise<T> {
  const run = (queues.get(dir) ?? Promise.resolve()).then(op);
  queues.set(dir, run.catch(() => undefined));
  return run;
}

/** Appends and syncs: the caller deletes the rows from the log only after this resolves. */
export function appendDeadLetters(dir: string, letters: NewDeadLetter[], now = new Date()): Promise<void> {
  if (letters.length === 0) return Promise.resolve();
  const at = now.toISOString();
  const text = letters.map((letter) => JSON.stringify({ at, ...letter }) + '\n').join('');
  return exclusive(dir, async () => {
    const file = deadLetterFile(dir);
    const created = !fs.existsSync(file);
    const handle = await fs.promises.open(file, 'a', 0o600);
    try {
      await handle.write(text);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    if (created) await syncDirectory(dir);
  });
}

export async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Every file that holds dead letters, oldest replay first, the live file last. */
export function deadLetterFiles(dir: string): string[] {
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => FILE.test(name)) : [];
  return names.sort((a, b) => Number(a === LIVE) - Number(b === LIVE) || a.localeCompare(b)).map((name) => path.join(dir, name));
}

/**
 * Counts by file, kept while the file's size and time are unchanged: `/healthz` is public and asks
 * on every call, and the file changes only when rows are set aside or replayed.
 */
const counted = new Map<string, { size: number; mtimeMs: number; lines: number }>();

async function countLines(file: string): Promise<number> {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  const known = counted.get(file);
  if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return known.lines;
  let lines = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  counted.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, lines });
  return lines;
}

/** Dead letters in these files (one per line). */
export async function countDeadLetters(files: string[]): Promise<number> {
  let count = 0;
  for (const file of files) count += await countLines(file);
  return count;
}

/** Moves the live file aside for a replay; returns every aside file to replay, oldest first. */
export function takeForReplay(dir: string, now = Date.now()): Promise<string[]> {
  return exclusive(dir, async () => {
    const live = deadLetterFile(dir);
    if (fs.existsSync(live)) {
      await fs.promises.rename(live, path.join(dir, `dead-letters.replaying-${String(now).padStart(15, '0')}.ndjson`));
      await syncDirectory(dir);
    }
    return deadLetterFiles(dir);
  });
}

/** The entries of a dead-letter file; lines that are not entries (a bad hand edit) come back as text. */
export async function readDeadLetters(file: string): Promise<{ letters: DeadLetter[]; unreadable: string[] }> {
  const letters: DeadLetter[] = [];
  const unreadable: string[] = [];
  for (const line of (await fs.promises.readFile(file, 'utf8')).split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = JSON.parse(line) as DeadLetter;
      if (typeof entry.table === 'string' && typeof entry.row === 'string') {
        letters.push(entry);
        continue;
      }
    } catch {
      // kept below
    }
    unreadable.push(line);
  }
  return { letters, unreadable };
}
