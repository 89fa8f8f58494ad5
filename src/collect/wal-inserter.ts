/**
 * The second half of the collector's log: sealed segments go into the analytics store one at a
 * time, oldest first. A segment's rows are handed to the caller's business rule, then to
 * `deliver` (one deduplication token per segment and table); rows the store refuses go to the
 * dead-letter file, then the segment is deleted. When the store is unavailable the oldest segment
 * is retried with a growing pause and the later ones wait behind it (docs/operations.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Clickhouse } from '../store/clickhouse.ts';
import { appendDeadLetters, deadLetterFile, type NewDeadLetter } from './dead-letters.ts';
import { deliver } from './deliver.ts';
import { COLLECT_TABLES, SEGMENT_SUFFIX, decodeSegment, workspacesOf, type CollectTable } from './wal-segment.ts';

/** A business rule applied to one table's rows of a segment just before they are inserted. */
export type BeforeInsert = (table: CollectTable, lines: string[]) => Promise<string[]>;

/** Told the workspaces whose rows a segment just stored (their data version goes up). */
export type AfterInsert = (workspaceIds: Set<number>) => Promise<void>;

export interface SegmentInserter {
  /** Queues a sealed segment; it goes in after every segment queued before it. */
  enqueue(name: string): void;
  /** Inserts the segments a previous process left; when the store is unavailable, queues them instead. */
  replayLeftovers(): Promise<void>;
  /** Resolves once the queue is empty (or, when stopping, after one more attempt). */
  idle(): Promise<void>;
  /** From now on a failed attempt ends the loop: what the store did not take stays in the log. */
  stop(): void;
}

/** Backoff while the store is unavailable: doubles from the first to the last. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

export function createSegmentInserter(options: {
  dir: string;
  ch: Clickhouse;
  logger: Logger;
  beforeInsert: BeforeInsert;
  afterInsert: AfterInsert;
}): SegmentInserter {
  const { dir, ch, logger, beforeInsert, afterInsert } = options;
  const queue: string[] = [];
  let running: Promise<void> | null = null;
  let stopping = false;
  let wake: (() => void) | null = null;

  /** Writes one segment, sets refused rows aside, deletes it. Throws only when the store is unavailable. */
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
    const stored = new Set<number>();
    for (const table of COLLECT_TABLES) {
      const kept = await beforeInsert(table, lines[table]);
      refused.push(...(await deliver(ch, { table, lines: kept, token: `${source}:${table}`, source })));
      for (const id of workspacesOf(kept)) stored.add(id);
    }
    if (stored.size > 0) await afterInsert(stored);
    if (refused.length > 0) {
      await appendDeadLetters(dir, refused);
      logger.error({ segment: name, rows: refused.length, file: deadLetterFile(dir) }, 'analytics store refused collected rows; they are in the dead-letter file');
    }
    await fs.promises.unlink(file);
  }

  /** A wait that keeps the process alive (rows are waiting) and that `stop` cuts short. */
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

  function run(): void {
    if (running) return;
    running = (async () => {
      let delay = RETRY_FIRST_MS;
      while (queue.length > 0) {
        const name = queue[0]!;
        try {
          await insertSegment(name);
          queue.shift();
          delay = RETRY_FIRST_MS;
        } catch (error) {
          logger.error({ err: error, segment: name, retry_ms: delay }, 'analytics store unavailable; the collector keeps the rows in its log and retries');
          if (stopping) return;
          await pause(delay);
          delay = Math.min(delay * 2, RETRY_MAX_MS);
        }
      }
    })().finally(() => {
      running = null;
    });
  }

  return {
    enqueue(name) {
      queue.push(name);
      run();
    },
    async replayLeftovers() {
      const names = fs.readdirSync(dir).filter((f) => f.endsWith(SEGMENT_SUFFIX)).sort().map((f) => f.slice(0, -SEGMENT_SUFFIX.length));
      for (const [i, name] of names.entries()) {
        try {
          await insertSegment(name);
          logger.info({ segment: name }, 'replayed collector log segment');
        } catch (error) {
          logger.error({ err: error, segment: name }, 'analytics store unavailable at start-up; the collector log is replayed in the background');
          queue.push(...names.slice(i));
          run();
          return;
        }
      }
    },
    async idle() {
      while (running) await running;
    },
    stop() {
      stopping = true;
      wake?.();
    },
  };
}
