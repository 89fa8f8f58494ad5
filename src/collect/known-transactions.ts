/**
 * The collector's de-duplication rule (docs/collection.md section 4): a conversion whose
 * (workspace, name, transaction id) is already stored, or appears earlier in the same batch, is
 * dropped, so a reloaded thank-you page does not count a purchase twice. Runs just before a log
 * segment's conversions are inserted (a `BeforeInsert` of the batch writer).
 */
import type { Clickhouse } from '../store/clickhouse.ts';
import { findStoredTransactions } from './queries/find-stored-transactions.ts';
import type { BeforeInsert } from './wal-inserter.ts';

type ConversionLine = { store_id?: unknown; name?: unknown; transaction_id?: unknown };

/** The transaction a conversion names, or null (also for a row too odd to look up: the insert judges it). */
function transactionOf(c: ConversionLine): { workspaceId: number; transactionId: string } | null {
  const workspaceId = Number(c.store_id);
  if (typeof c.transaction_id !== 'string' || c.transaction_id === '' || !Number.isSafeInteger(workspaceId) || workspaceId < 0) return null;
  return { workspaceId, transactionId: c.transaction_id };
}

async function withoutKnownTransactions(ch: Clickhouse, lines: string[]): Promise<string[]> {
  const parsed = lines.map((line) => JSON.parse(line) as ConversionLine);
  const named = parsed.map(transactionOf);
  const withId = named.filter((t) => t !== null);
  if (withId.length === 0) return lines;
  const stored = await findStoredTransactions(ch, {
    workspaceIds: [...new Set(withId.map((t) => t.workspaceId))],
    transactionIds: [...new Set(withId.map((t) => t.transactionId))],
  });
  const seen = new Set(stored.map((s) => `${s.store_id}\t${s.name}\t${s.transaction_id}`));
  return lines.filter((_, i) => {
    const t = named[i];
    if (!t) return true;
    const key = `${t.workspaceId}\t${String(parsed[i]!.name)}\t${t.transactionId}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function dropKnownTransactions(ch: Clickhouse): BeforeInsert {
  return async (table, lines) => (table === 'conversions' ? withoutKnownTransactions(ch, lines) : lines);
}
