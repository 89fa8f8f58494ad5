/**
 * The collector's durable batch writer. `append` resolves only once its rows are in a
 * write-ahead log segment that has been fdatasync'ed, so a 2xx answered after it survives a
 * crash. Concurrent appends share one write and one sync (group commit). Segments are sealed
 * every `flushMs` or `maxRows` and handed to the inserter (`wal-inserter.ts`), which moves them
 * into ClickHouse in order, sets refused rows aside and retries while the store is unavailable.
 * On open, segments left by a crash are replayed first; open never fails because of what they
 * hold (docs/operations.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Clickhouse } from '../store/clickhouse.ts';
import { syncDirectory } from './dead-letters.ts';
import { createSegmentInserter, type BeforeInsert } from './wal-inserter.ts';
import { SEGMENT_SUFFIX, encodeRows, segmentName, type Rows } from './wal-segment.ts';

export interface BatchWriter {
  /** Resolves when the rows are durable on disk (not yet visible in ClickHouse). */
  append(rows: Rows): Promise<void>;
  /** Seals the current segment and waits until everything appended so far is in ClickHouse. */
  flush(): Promise<void>;
  /** Flushes (one attempt; what the store does not take stays in the log) and stops the timer. */
  close(): Promise<void>;
}

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

export async function openBatchWriter(options: BatchWriterOptions): Promise<BatchWriter> {
  const { dir, ch, logger, flushMs, maxRows } = options;
  const beforeInsert = options.beforeInsert ?? (async (_table, lines) => lines);
  // Owner only: the log and the dead letters hold customer ids.
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });

  const inserter = createSegmentInserter({ dir, ch, logger, beforeInsert });
  // Replay what a previous process left, oldest first, before accepting anything new.
  await inserter.replayLeftovers();

  let current: Segment | null = null;
  let pending: Pending[] = [];
  /** Serialises writes and seals, so no write lands in a sealed segment. */
  let diskChain: Promise<void> = Promise.resolve();
  let writing = false;
  let closing = false;

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
    inserter.enqueue(segment.name);
  }

  /** Closes the current segment (if it holds rows) and queues it for insertion. */
  function seal(): Promise<void> {
    return onDisk(async () => {
      if (current && current.rows > 0) await retire(current);
    });
  }

  async function flush(): Promise<void> {
    await seal();
    await inserter.idle();
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
      inserter.stop();
      await diskChain;
      await flush();
      if (current) await current.handle.close();
    },
  };
}
