/**
 * The collector's durable batch writer. `append` resolves only once its rows are in a
 * write-ahead log segment that has been fdatasync'ed, so a 2xx answered after it survives a
 * crash. Concurrent appends share writes and syncs (group commit, `wal-group-commit.ts`). Segments are sealed
 * every `flushMs` or `maxRows` and handed to the inserter (`wal-inserter.ts`), which moves them
 * into ClickHouse in order, sets refused rows aside and retries while the store is unavailable.
 * On open, segments left by a crash are replayed first; open never fails because of what they
 * hold (docs/operations.md).
 */
import fs from 'node:fs';
import type { Logger } from 'pino';
import type { Clickhouse } from '../store/clickhouse.ts';
import { createSegmentFile, type SegmentFile } from './wal-group-commit.ts';
import { createSegmentInserter, type AfterInsert, type BeforeInsert } from './wal-inserter.ts';
import { encodeRows, type Rows } from './wal-segment.ts';

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
  /** Called once a segment's rows are in the analytics store, with their workspaces. */
  afterInsert?: AfterInsert;
}

interface Segment {
  name: string;
  handle: fs.promises.FileHandle;
  rows: number;
}

export async function openBatchWriter(options: BatchWriterOptions): Promise<BatchWriter> {
  const { dir, ch, logger, flushMs, maxRows } = options;
  const beforeInsert = options.beforeInsert ?? (async (_table, lines) => lines);
  // Owner only: the log and the dead letters hold customer ids.
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });

  const afterInsert = options.afterInsert ?? (async () => {});
  const inserter = createSegmentInserter({ dir, ch, logger, beforeInsert, afterInsert });
  // Replay what a previous process left, oldest first, before accepting anything new.
  await inserter.replayLeftovers();

  let current: SegmentFile | null = null;
  let opening: Promise<SegmentFile> | null = null;
  /** Retired segments close and go to the inserter one after another, in the order they were retired. */
  let retiring: Promise<void> = Promise.resolve();
  let closing = false;

  function segment(): Promise<SegmentFile> {
    if (current) return Promise.resolve(current);
    // A failed segment is retired at once, unless it no longer is the current one.
    opening ??= createSegmentFile(dir, () => void (current?.failed && retire())).then(
      (created) => {
        current = created;
        return created;
      },
    ).finally(() => {
      opening = null;
    });
    return opening;
  }

  /**
   * Ends the current segment: later appends go to a new one; once every append handed to it has
   * settled, it is closed and queued for insertion. A failed segment ends even when empty (a
   * torn line stays its last; replay skips it).
   */
  function retire(): Promise<void> {
    const segment = current;
    if (segment && (segment.rows > 0 || segment.failed)) {
      current = null;
      retiring = retiring.then(async () => {
        await segment.close();
        inserter.enqueue(segment.name);
      });
    }
    return retiring;
  }

  async function flush(): Promise<void> {
    await retire();
    await inserter.idle();
  }

  const timer = setInterval(() => void retire(), flushMs);
  timer.unref();

  return {
    async append(rows) {
      const { data, count } = encodeRows(rows);
      if (count === 0) return;
      if (closing) throw new Error('collector is closed');
      let target = await segment();
      // A segment retired while this append waited for it to open takes nothing more.
      while (target !== current) target = await segment();
      const durable = target.append(data, count);
      if (target.rows >= maxRows) void retire();
      await durable;
    },
    flush,
    async close() {
      clearInterval(timer);
      closing = true;
      inserter.stop();
      await opening?.catch(() => undefined);
      await flush();
      await current?.close();
    },
  };
}
