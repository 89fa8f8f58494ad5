/**
 * One open write-ahead log segment and its group commit. An append joins the batch that forms
 * while earlier batches are on their way to disk; a batch is one write of all its appends and
 * one fdatasync, and every append in it is answered when that sync returns. Up to
 * BATCHES_IN_FLIGHT batches are written and synced at once: the file is opened for appending, so
 * each write lands whole at the end of the file, and the kernel commits syncs that overlap in
 * one journal commit where it can. On a busy machine each step of a batch waits for a thread to
 * be scheduled, and one batch at a time left the log waiting on those steps while the disk was
 * idle (docs/performance.md, "Collector").
 *
 * Every batch starts with a newline. A failed write can leave a torn line, and a batch already
 * in flight may land after it; the newline keeps that batch's first row a line of its own (an
 * empty line is skipped when the segment is read).
 */
import fs from 'node:fs';
import path from 'node:path';
import { syncDirectory } from './dead-letters.ts';
import { SEGMENT_SUFFIX, segmentName } from './wal-segment.ts';

/** Below the default size of libuv's thread pool (4), which chDB's inserts and queries share. */
const BATCHES_IN_FLIGHT = 3;

export interface SegmentFile {
  readonly name: string;
  /** Rows handed to `append` so far. */
  readonly rows: number;
  /** A write or sync failed: the segment takes no more appends and should be retired. */
  readonly failed: boolean;
  /** Resolves once the text is on disk (written and fdatasync'ed); rejects if either failed. */
  append(text: string, rows: number): Promise<void>;
  /** Waits for every append handed in so far to settle, then closes the file. */
  close(): Promise<void>;
}

interface Waiter {
  text: string;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Creates a new segment file in `dir`. `onFailure` is called once, when a write or sync fails:
 * the appends of that batch and those still waiting for a batch are rejected.
 */
export async function createSegmentFile(dir: string, onFailure: () => void): Promise<SegmentFile> {
  const name = segmentName();
  const handle = await fs.promises.open(path.join(dir, name + SEGMENT_SUFFIX), 'a', 0o600);
  // Make the new file's directory entry durable too, not only its contents.
  await syncDirectory(dir);

  let rows = 0;
  let failed = false;
  let waiting: Waiter[] = [];
  let inFlight = 0;
  let settled: (() => void) | null = null;

  async function writeAndSync(text: string): Promise<void> {
    const bytes = Buffer.from(text);
    const { bytesWritten } = await handle.write(bytes);
    if (bytesWritten !== bytes.length) throw new Error(`short write to the collector log: ${bytesWritten} of ${bytes.length} bytes`);
    await handle.datasync();
  }

  function fail(error: unknown, batch: Waiter[]): void {
    const rejected = [...batch, ...waiting];
    waiting = [];
    for (const waiter of rejected) waiter.reject(error);
    if (!failed) {
      failed = true;
      onFailure();
    }
  }

  function startBatch(): void {
    if (failed || inFlight >= BATCHES_IN_FLIGHT || waiting.length === 0) return;
    const batch = waiting;
    waiting = [];
    inFlight++;
    writeAndSync(`\n${batch.map((w) => w.text).join('')}`).then(
      () => {
        for (const waiter of batch) waiter.resolve();
      },
      (error: unknown) => fail(error, batch),
    ).finally(() => {
      inFlight--;
      startBatch();
      if (inFlight === 0 && waiting.length === 0) settled?.();
    });
  }

  return {
    name,
    get rows() {
      return rows;
    },
    get failed() {
      return failed;
    },
    append(text, count) {
      if (failed) return Promise.reject(new Error('collector log segment failed'));
      rows += count;
      return new Promise<void>((resolve, reject) => {
        waiting.push({ text, resolve, reject });
        startBatch();
      });
    },
    async close() {
      if (inFlight > 0 || waiting.length > 0) await new Promise<void>((resolve) => (settled = resolve));
      await handle.close().catch(() => undefined);
    },
  };
}
