/**
 * The collector's durable batch writer. `append` resolves only once its rows are in a
 * write-ahead log segment that has been fdatasync'ed, so a 2xx answered after it survives a
 * crash. Concurrent appends share one write and one sync (group commit). Segments are sealed
 * every `flushMs` or `maxRows` and written into ClickHouse in order (`deliver`: one
 * deduplication token per segment and table); rows the store refuses go to the dead-letter file,
 * then the segment is deleted. When the store is unavailable the oldest segment is retried with
 * backoff and the later ones wait behind it. On open, segments left by a crash are replayed
 * first; open never fails because of what they hold (docs/operations.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Clickhouse } from '../store/clickhouse.ts';
import { appendDeadLetters, deadLetterFile, syncDirectory, type NewDeadLetter } from './dead-letters.ts';
import { deliver } from './deliver.ts';
import { COLLECT_TABLES, SEGMENT_SUFFIX, decodeSegment, encodeRows, segmentName, type CollectTable, type Rows } from './wal-segment.ts';

export interface BatchWriter {
  /** Resolves when the rows are durable on disk (not yet visible in ClickHouse). */
  append(rows: Rows): Promise<void>;
  /** Seals the current segment and waits until everything appended so far is in ClickHouse. */
  flush(): Promise<void>;
  /** Flushes (one attempt; what the store does not take stays in the log) and stops the timer. */
  close(): Promise<void>;
}

/** A business rule applied to one table's rows of a segment just before they are inserted. */
export type BeforeInsert = (table: CollectTable, lines: string[]) => Promise<string[]>;

export interface BatchWriterOptions {
  dir: string;
  ch: Clickhouse;
  logger: Logger;
  flushMs: number;
  maxRows: number;
  beforeInsert?: BeforeInsert;
}

interface Segment {
  name: string;
  handle: fs.promises.FileHandle;
  rows: number;
}

interface Pending {
  data: string;
  rows: number;
  resolve(): void;
  reject(error: unknown): void;
}

/** Backoff while the store is unavailable: doubles from the first to the last. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

export async function openBatchWriter(options: BatchWriterOptions): Promise<BatchWriter> {
  const { dir, ch, logger, flushMs, maxRows } = options;
  const beforeInsert = options.beforeInsert ?? (async (_table, lines) => lines);
  // Owner only: the log and the dead letters hold customer ids.
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });

  /**
   * Writes one sealed segment's rows into ClickHouse, sets refused rows aside, then deletes the
   * segment. Throws only when the store is unavailable (nothing is set aside then).
   */
  async function insertSegment(name: string): Promise<void> {
    const file = path.join(dir, name + SEGMENT_SUFFIX);
    const source = `wal:${name}`;
    const { lines, unreadable } = decodeSegment(await fs.promises.readFile(file, 'utf8'));
    const refused: NewDeadLetter[] = unreadable.map((line) => ({
      table: line.split('\t', 1)[0]!,
      source,
      error: { code: null, message: 'unreadable log line' },
      row: line,
    }));
    for (const table of COLLECT_TABLES) {
      const kept = await beforeInsert(table, lines[table]);
      refused.push(...(await deliver(ch, { table, lines: kept, token: `${source}:${table}`, source })));
    }
    if (refused.length > 0) {
      await appendDeadLetters(dir, refused);
      logger.error({ segment: name, rows: refused.length, file: deadLetterFile(dir) }, 'analytics store refused collected rows; they are in the dead-letter file');
    }
    await fs.promises.unlink(file);
  }

  let current: Segment | null = null;
  let pending: Pending[] = [];
  /** Serialises writes and seals, so no write lands in a sealed segment. */
  let diskChain: Promise<void> = Promise.resolve();
  let writing = false;
  const sealed: string[] = [];
  let inserting: Promise<void> | null = null;
  let closing = false;
  let wake: (() => void) | null = null;

  async function openSegment(): Promise<Segment> {
    const name = segmentName();
    const handle = await fs.promises.open(path.join(dir, name + SEGMENT_SUFFIX), 'a', 0o600);
    // Make the new file's directory entry durable too, not only its contents.
    await syncDirectory(dir);
    return { name, handle, rows: 0 };
  }

  function onDisk<T>(op: () => Promise<T>): Promise<T> {
    const run = diskChain.then(op);
    diskChain = run.then(() => undefined, () => undefined);
    return run;
  }

  async function writePending(): Promise<void> {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      current ??= await openSegment();
      await current.handle.write(batch.map((p) => p.data).join(''));
      await current.handle.datasync();
      current.rows += batch.reduce((n, p) => n + p.rows, 0);
      for (const p of batch) p.resolve();
    } catch (error) {
      for (const p of batch) p.reject(error);
      // A failed write may leave a torn line; later lines must not be glued to it, so the
      // segment ends here (replay skips a torn last line).
      if (current) await retire(current);
      return;
    }
    if (current.rows >= maxRows) void seal();
  }

  function scheduleWrite(): void {
    if (writing) return;
    writing = true;
    void onDisk(async () => {
      writing = false;
      await writePending();
    });
  }

  /** Ends a segment: no more writes go to it, and it is queued for insertion. */
  async function retire(segment: Segment): Promise<void> {
    current = null;
    await segment.handle.close().catch(() => undefined);
    sealed.push(segment.name);
    startInserting();
  }

  /** Closes the current segment (if it holds rows) and queues it for insertion. */
  function seal(): Promise<void> {
    return onDisk(async () => {
      if (current && current.rows > 0) await retire(current);
    });
  }

  /** A wait that keeps the process alive (rows are waiting) and that `close` cuts short. */
  function pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = null;
    });
  }

  function startInserting(): void {
    if (inserting) return;
    inserting = (async () => {
      let delay = RETRY_FIRST_MS;
      while (sealed.length > 0) {
        const name = sealed[0]!;
        try {
          await insertSegment(name);
          sealed.shift();
          delay = RETRY_FIRST_MS;
        } catch (error) {
          logger.error({ err: error, segment: name, retry_ms: delay }, 'analytics store unavailable; the collector keeps the rows in its log and retries');
          if (closing) return;
          await pause(delay);
          delay = Math.min(delay * 2, RETRY_MAX_MS);
        }
      }
    })().finally(() => {
      inserting = null;
    });
  }

  async function flush(): Promise<void> {
    await seal();
    while (inserting) await inserting;
  }

  // Replay what a previous process left, oldest first, before accepting anything new. If the
  // store is unavailable, the rest is left to the background loop: start-up goes on.
  const leftover = fs.readdirSync(dir).filter((f) => f.endsWith(SEGMENT_SUFFIX)).sort().map((f) => f.slice(0, -SEGMENT_SUFFIX.length));
  for (const [i, name] of leftover.entries()) {
    try {
      await insertSegment(name);
      logger.info({ segment: name }, 'replayed collector log segment');
    } catch (error) {
      logger.error({ err: error, segment: name }, 'analytics store unavailable at start-up; the collector log is replayed in the background');
      sealed.push(...leftover.slice(i));
      startInserting();
      break;
    }
  }

  const timer = setInterval(() => void seal(), flushMs);
  timer.unref();

  return {
    append(rows) {
      const { data, count } = encodeRows(rows);
      if (count === 0) return Promise.resolve();
      if (closing) return Promise.reject(new Error('collector is closed'));
      return new Promise<void>((resolve, reject) => {
        pending.push({ data, rows: count, resolve, reject });
        scheduleWrite();
      });
    },
    flush,
    async close() {
      clearInterval(timer);
      closing = true;
      wake?.();
      await diskChain;
      await flush();
      if (current) await current.handle.close();
    },
  };
}
