/**
 * `collect replay-dead-letters` (docs/operations.md): after the cause is fixed (a row edited in
 * the file, a store problem solved, a new version that takes the row), tries every dead letter
 * again through the same path as the log: the business rule of the caller, then `deliver`.
 * Rows the store takes are written once (the aside file's name is in every deduplication token,
 * so a replay cut short and run again skips what went in); rows it still refuses go back to the
 * dead-letter file with the new error. Identical entries (a crash while setting rows aside can
 * repeat one) are replayed once.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Clickhouse } from '../store/clickhouse.ts';
import { appendDeadLetters, deadLetterFile, readDeadLetters, takeForReplay, type NewDeadLetter } from './dead-letters.ts';
import { deliver } from './deliver.ts';
import { COLLECT_TABLES, byTable, collectDir, isCollectTable, isRow, workspacesOf } from './wal-segment.ts';
import type { AfterInsert, BeforeInsert } from './wal-inserter.ts';

export interface ReplayResult {
  /** Rows the analytics store took. */
  replayed: number;
  /** Rows the caller's rule dropped (a conversion whose transaction is stored by now). */
  dropped: number;
  /** Rows set aside again, with their new error. */
  refused_again: number;
}

export async function replayDeadLetters(
  ch: Clickhouse,
  dataDir: string,
  rules: { beforeInsert: BeforeInsert; afterInsert: AfterInsert },
  now = Date.now(),
): Promise<ReplayResult> {
  const { beforeInsert, afterInsert } = rules;
  const dir = collectDir(dataDir);
  const result: ReplayResult = { replayed: 0, dropped: 0, refused_again: 0 };
  const seen = new Set<string>();
  for (const file of (await takeForReplay(dir, now)).filter((f) => f !== deadLetterFile(dir))) {
    const source = `replay:${path.basename(file)}`;
    const { letters, unreadable } = await readDeadLetters(file);
    const refused: NewDeadLetter[] = unreadable.map((line) => ({ table: '', source, error: { code: null, message: 'unreadable dead-letter line' }, row: line }));
    const lines = byTable<string>();
    for (const letter of letters) {
      const key = `${letter.table}\t${letter.row}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (isCollectTable(letter.table) && isRow(letter.row)) lines[letter.table].push(letter.row);
      else refused.push({ table: letter.table, source, error: { code: null, message: 'not a row of events, conversions or orders' }, row: letter.row });
    }
    for (const table of COLLECT_TABLES) {
      const kept = await beforeInsert(table, lines[table]);
      const again = await deliver(ch, { table, lines: kept, token: `${source}:${table}`, source });
      result.dropped += lines[table].length - kept.length;
      result.replayed += kept.length - again.length;
      refused.push(...again);
      const stored = workspacesOf(kept);
      if (stored.size > 0) await afterInsert(stored);
    }
    result.refused_again += refused.length;
    await appendDeadLetters(dir, refused);
    await fs.promises.unlink(file);
  }
  return result;
}
