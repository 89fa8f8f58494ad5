/**
 * Writes a batch of logged rows into one table so that a row the analytics store refuses cannot
 * hold up the others: when the store refuses the batch for its data (`refusedRows`), the batch is
 * split in halves and each half tried again, down to single rows; only the refused rows are set
 * aside as dead letters. k bad rows in n cost about 2k·log2(n) inserts, where inserting row by
 * row would cost n (and n small parts). When the store is unavailable the error is thrown and
 * the caller retries the whole batch later, in order.
 *
 * Every insert carries a deduplication token derived from `token` and its row range, so a batch
 * retried after a crash (which splits the same way) skips what went in before.
 */
import type { Clickhouse } from '../store/clickhouse.ts';
import { refusedRows } from '../store/insert-errors.ts';
import type { NewDeadLetter } from './dead-letters.ts';

export interface Batch {
  table: string;
  /** Row JSON texts. */
  lines: string[];
  token: string;
  /** Recorded in each dead letter: where the rows came from. */
  source: string;
}

/** Inserts what the store takes; returns the refused rows (not yet written anywhere). */
export async function deliver(ch: Clickhouse, batch: Batch): Promise<NewDeadLetter[]> {
  const refused: NewDeadLetter[] = [];
  const attempt = async (from: number, to: number, token: string): Promise<void> => {
    try {
      await ch.insertNdjson(batch.table, batch.lines.slice(from, to).join('\n'), { dedupToken: token });
    } catch (error) {
      const refusal = refusedRows(error);
      if (!refusal) throw error;
      if (to - from === 1) {
        refused.push({ table: batch.table, source: batch.source, error: refusal, row: batch.lines[from]! });
        return;
      }
      const middle = Math.floor((from + to) / 2);
      await attempt(from, middle, `${batch.token}:${from}-${middle}`);
      await attempt(middle, to, `${batch.token}:${middle}-${to}`);
    }
  };
  if (batch.lines.length > 0) await attempt(0, batch.lines.length, batch.token);
  return refused;
}
