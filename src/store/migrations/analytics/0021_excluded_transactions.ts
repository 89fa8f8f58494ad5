/**
 * The workspace setting `excluded_transaction_ids` where the engine reads it: one row per id of a
 * saved list, the list named by a hash of its content (`list_id`). Reports read the list of the
 * settings they run with as a subquery, so a list of 100,000 ids never travels with a query
 * (docs/architecture.md, "Long lists reach the engine as a table"). Each read makes sure its list
 * is here and was written within the last days (src/analytics/queries/settings/
 * excluded-transactions.ts), so rows of lists no longer read expire by TTL and no statement ever
 * deletes.
 */
export const statements = [
  `CREATE TABLE IF NOT EXISTS excluded_transactions (
    store_id UInt64,
    list_id String,
    transaction_id String,
    saved_at DateTime('UTC')
  ) ENGINE = ReplacingMergeTree(saved_at)
  ORDER BY (store_id, list_id, transaction_id)
  TTL saved_at + INTERVAL 30 DAY`,
];
