import crypto from 'node:crypto';
import type { Clickhouse } from '../../../store/clickhouse.ts';
import { formatTimestamp } from '../../../kit/calendar/days.ts';

/**
 * The workspace setting `excluded_transaction_ids` as the engine reads it: from the table
 * `excluded_transactions`, one list per content hash, never as a parameter. A list of 100,000 ids
 * as a bound array is a `SET param_...` statement over chDB's max query size and a URL over the
 * server's, so it travels once, when it is first needed, and queries name it by its hash
 * (docs/architecture.md, "Long lists reach the engine as a table").
 */

/** The ids of the list a query binds as `{excluded_list:String}` (with `{store_id:UInt64}`). */
export const EXCLUDED_TRANSACTIONS_SQL =
  '(SELECT transaction_id FROM excluded_transactions WHERE store_id = {store_id:UInt64} AND list_id = {excluded_list:String})';

const listIds = new WeakMap<readonly string[], string>();

/**
 * The name of a list: a hash of its ids in order (kept per list object, since a report asks twice
 * and hashing 100,000 ids takes milliseconds). The empty list has no rows, so it excludes nothing.
 */
export function excludedListId(ids: readonly string[]): string {
  let id = listIds.get(ids);
  if (id === undefined) {
    id = crypto.createHash('sha256').update(JSON.stringify(ids)).digest('hex').slice(0, 32);
    listIds.set(ids, id);
  }
  return id;
}

/** Rows expire 30 days after they were written (the table's TTL); a read rewrites a list older than this. */
const REWRITE_AFTER_DAYS = 10;

/**
 * How many ids the newest fresh write of a list holds. A list is always written whole, in one
 * insert with one saved_at, so its newest write alone tells whether every id is there.
 */
const NEWEST_WRITE_SQL = `SELECT count() AS ids FROM excluded_transactions
WHERE store_id = {store_id:UInt64} AND list_id = {list_id:String}
GROUP BY saved_at
HAVING saved_at > now() - INTERVAL ${REWRITE_AFTER_DAYS} DAY
ORDER BY saved_at DESC
LIMIT 1`;

/**
 * Makes sure the engine holds this list, every id of it written within the last
 * REWRITE_AFTER_DAYS days, and writes it whole otherwise: on the save that sets it, and on the
 * first read after that (a list stored before this table existed, a store restored from a
 * backup, a list not read for weeks). Rewriting keeps the rows a report reads well inside their
 * TTL, so nothing ever deletes a list a report may still read.
 */
export async function ensureExcludedList(ch: Clickhouse, workspaceId: number, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const listId = excludedListId(ids);
  const seen = checkedLists(ch);
  const key = `${workspaceId}:${listId}`;
  if (Date.now() - (seen.get(key) ?? -Infinity) < CHECK_AGAIN_AFTER_MS) return;
  await writeIfMissing(ch, workspaceId, ids, listId);
  seen.set(key, Date.now());
}

/**
 * Lists this process found (or wrote) whole, per engine, and when: every report of a workspace
 * with a list would otherwise ask the engine first, one more statement per request. An hour is
 * far inside the rows' margin (rewritten after REWRITE_AFTER_DAYS, expired after 30 days).
 */
const CHECK_AGAIN_AFTER_MS = 60 * 60 * 1000;
const checked = new WeakMap<Clickhouse, Map<string, number>>();

function checkedLists(ch: Clickhouse): Map<string, number> {
  let seen = checked.get(ch);
  if (!seen) checked.set(ch, (seen = new Map()));
  return seen;
}

async function writeIfMissing(ch: Clickhouse, workspaceId: number, ids: readonly string[], listId: string): Promise<void> {
  const [newest] = await ch.query<{ ids: string }>('excluded-list-check', NEWEST_WRITE_SQL, { store_id: workspaceId, list_id: listId });
  // Repeated ids count once after the engine merges them (the CLI and the dashboard store none).
  const held = Number(newest?.ids ?? 0);
  if (held === ids.length || held === new Set(ids).size) return;
  const savedAt = formatTimestamp(Date.now());
  const lines = ids.map((id) => JSON.stringify({ store_id: workspaceId, list_id: listId, transaction_id: id, saved_at: savedAt }));
  await ch.insertNdjson('excluded_transactions', lines.join('\n'));
}
