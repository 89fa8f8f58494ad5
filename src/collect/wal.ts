/**
 * The collector's durable batch writer. `append` resolves only once its rows are in a
 * write-ahead log segment that has been fdatasync'ed, so a 2xx answered after it survives a
 * crash. Concurrent appends share one write and one sync (group commit). Segments are sealed
 * every `flushMs` or `maxRows`, inserted into ClickHouse with one deduplication token per
 * (segment, table), and deleted once every table is in. On open, segments left by a crash are
 * replayed first; a replayed insert carries the same token, so ClickHouse skips what it has.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { Clickhouse } from '../store/clickhouse.ts';
import { findStoredTransactions } from './queries/find-stored-transactions.ts';

export const COLLECT_TABLES = ['events', 'conversions', 'orders'] as const;
export type CollectTable = (typeof COLLECT_TABLES)[number];
export type Rows = Partial<Record<CollectTable, object[]>>;

export interface BatchWriter {
  /** Resolves when the rows are durable on disk (not yet visible in ClickHouse). */
  append(rows: Rows): Promise<void>;
  /** Seals the current segment and waits until everything appended so far is in ClickHouse. */
  flush(): Promise<void>;
  /** Flushes (best effort) and stops the timer. */
  close(): Promise<void>;
}

export interface BatchWriterOptions {
  dir: string;
  ch: Clickhouse;
  logger: Logger;
  flushMs: number;
  maxRows: number;
}

interface Segment {
  name: string;
  file: string;
  handle: fs.promises.FileHandle | null;
  rows: number;
}

interface Pending {
  data: string;
  rows: number;
  resolve(): void;
  reject(error: unknown): void;
}

const SUFFIX = '.wal';
const RETRY_MS = 1000;

function segmentName(): string {
  return `${Date.now().toString().padStart(15, '0')}-${crypto.randomBytes(6).toString('hex')}`;
}

function encode(rows: Rows): { data: string; count: number } {
  let data = '';
  let count = 0;
  for (const table of COLLECT_TABLES) {
    for (const row of rows[table] ?? []) {
      data += `${table}\t${JSON.stringify(row)}\n`;
      count++;
    }
  }
  return { data, count };
}

/**
 * Lines of a segment by table. A torn last line (a crash in the middle of a write that was
 * therefore never acknowledged) is skipped.
 */
function decode(text: string): Record<CollectTable, string[]> {
  const byTable: Record<CollectTable, string[]> = { events: [], conversions: [], orders: [] };
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    const table = line.slice(0, tab) as CollectTable;
    const json = line.slice(tab + 1);
    if (!(table in byTable)) continue;
    try {
      JSON.parse(json);
    } catch {
      continue;
    }
    byTable[table].push(json);
  }
  return byTable;
}

type ConversionLine = { store_id: number | string; name: string; transaction_id?: string };

/**
 * Drops conversions whose (workspace, name, transaction id) is already stored or appears earlier
 * in the batch: a reloaded thank-you page must not count a purchase twice.
 */
async function withoutKnownTransactions(ch: Clickhouse, lines: string[]): Promise<string[]> {
  const parsed = lines.map((line) => JSON.parse(line) as ConversionLine);
  const withId = parsed.filter((c) => c.transaction_id);
  if (withId.length === 0) return lines;
  const stored = await findStoredTransactions(ch, {
    storeIds: [...new Set(withId.map((c) => Number(c.store_id)))],
    transactionIds: [...new Set(withId.map((c) => c.transaction_id!))],
  });
  const seen = new Set(stored.map((s) => `${s.store_id}\t${s.name}\t${s.transaction_id}`));
  return lines.filter((_, i) => {
    const c = parsed[i]!;
    if (!c.transaction_id) return true;
    const key = `${c.store_id}\t${c.name}\t${c.transaction_id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export async function openBatchWriter(options: BatchWriterOptions): Promise<BatchWriter> {
  const { dir, ch, logger, flushMs, maxRows } = options;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });

  /** Writes one sealed segment's rows into ClickHouse, then deletes it. Throws on failure. */
  async function insertSegment(name: string): Promise<void> {
    const file = path.join(dir, name + SUFFIX);
    const byTable = decode(await fs.promises.readFile(file, 'utf8'));
    for (const table of COLLECT_TABLES) {
      let lines = byTable[table];
      if (table === 'conversions') lines = await withoutKnownTransactions(ch, lines);
      if (lines.length === 0) continue;
      await ch.insertNdjson(table, lines.join('\n'), { dedupToken: `wal:${name}:${table}` });
    }
    await fs.promises.unlink(file);
  }

  // Replay what a previous process left, oldest first, before accepting anything new.
  const leftover = fs.readdirSync(dir).filter((f) => f.endsWith(SUFFIX)).sort();
  for (const file of leftover) {
    const name = file.slice(0, -SUFFIX.length);
    await insertSegment(name);
    logger.info({ segment: name }, 'replayed collector log segment');
  }

  let current: Segment | null = null;
  let pending: Pending[] = [];
  /** Serialises writes and seals, so no write lands in a sealed segment. */
  let diskChain: Promise<void> = Promise.resolve();
  let writing = false;
  const sealed: string[] = [];
  let inserting: Promise<void> | null = null;
  let closed = false;

  async function openSegment(): Promise<Segment> {
    const name = segmentName();
    const file = path.join(dir, name + SUFFIX);
    const handle = await fs.promises.open(file, 'a', 0o600);
    // Make the new file's directory entry durable too, not only its contents.
    const directory = await fs.promises.open(dir, 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
    return { name, file, handle, rows: 0 };
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
      await current.handle!.write(batch.map((p) => p.data).join(''));
      await current.handle!.datasync();
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
    await segment.handle!.close().catch(() => undefined);
    sealed.push(segment.name);
    startInserting();
  }

  /** Closes the current segment (if it holds rows) and queues it for insertion. */
  function seal(): Promise<void> {
    return onDisk(async () => {
      if (current && current.rows > 0) await retire(current);
    });
  }

  function startInserting(): void {
    if (inserting) return;
    inserting = (async () => {
      while (sealed.length > 0) {
        const name = sealed[0]!;
        try {
          await insertSegment(name);
          sealed.shift();
        } catch (error) {
          logger.error({ err: error, segment: name }, 'collector insert failed; will retry');
          if (closed) return;
          await new Promise((r) => setTimeout(r, RETRY_MS).unref());
        }
      }
    })().finally(() => {
      inserting = null;
    });
  }

  const timer = setInterval(() => void seal(), flushMs);
  timer.unref();

  async function flush(): Promise<void> {
    await seal();
    while (inserting) await inserting;
  }

  return {
    append(rows) {
      const { data, count } = encode(rows);
      if (count === 0) return Promise.resolve();
      if (closed) return Promise.reject(new Error('collector is closed'));
      return new Promise<void>((resolve, reject) => {
        pending.push({ data, rows: count, resolve, reject });
        scheduleWrite();
      });
    },
    flush,
    async close() {
      clearInterval(timer);
      await diskChain;
      try {
        await flush();
      } finally {
        closed = true;
        if (current?.handle) await current.handle.close();
      }
    },
  };
}
