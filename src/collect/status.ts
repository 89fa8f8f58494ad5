/**
 * What the collector has not written yet, from its files alone, so the answer is the same from
 * the server (`/healthz`) and from a CLI without a server (`collect status`; docs/operations.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { countDeadLetters, deadLetterFiles } from './dead-letters.ts';
import { SEGMENT_SUFFIX, collectDir, segmentCreatedAt } from './wal-segment.ts';

/**
 * A segment is sealed within the flush interval (500 ms by default) and written right after; one
 * this old means the analytics store has not been taking rows for a while.
 */
export const STUCK_AFTER_MS = 60_000;

export interface CollectStatus {
  /** `degraded`: there are dead letters, or the oldest log segment is older than a minute. */
  status: 'ok' | 'degraded';
  /** The write-ahead log's backlog: accepted rows not yet in the analytics store. */
  wal: { dir: string; segments: number; bytes: number; oldest_segment_at: string | null };
  /** Rows the analytics store refused, waiting for `collect replay-dead-letters`. */
  dead_letters: { rows: number; files: string[] };
}

export async function collectStatus(dataDir: string, now = Date.now()): Promise<CollectStatus> {
  const dir = collectDir(dataDir);
  const segments = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith(SEGMENT_SUFFIX)).sort() : [];
  let bytes = 0;
  for (const name of segments) bytes += fs.statSync(path.join(dir, name), { throwIfNoEntry: false })?.size ?? 0;
  const oldest = segments.length > 0 ? segmentCreatedAt(segments[0]!) : null;
  const files = deadLetterFiles(dir);
  const rows = await countDeadLetters(files);
  const stuck = oldest !== null && now - oldest > STUCK_AFTER_MS;
  return {
    status: rows > 0 || stuck ? 'degraded' : 'ok',
    wal: { dir, segments: segments.length, bytes, oldest_segment_at: oldest === null ? null : new Date(oldest).toISOString() },
    dead_letters: { rows, files },
  };
}

/** The `collect` check of `/healthz`: the same counts, without the paths of the data dir. */
export async function collectCheck(dataDir: string): Promise<{
  status: CollectStatus['status'];
  wal: Omit<CollectStatus['wal'], 'dir'>;
  dead_letters: { rows: number };
}> {
  const { status, wal, dead_letters: deadLetters } = await collectStatus(dataDir);
  return {
    status,
    wal: { segments: wal.segments, bytes: wal.bytes, oldest_segment_at: wal.oldest_segment_at },
    dead_letters: { rows: deadLetters.rows },
  };
}
