/**
 * Readers fold `sessions` and `visitor_customers` with FINAL. Within a month partition made of one
 * part FINAL has nothing to fold and reads like a plain table; with several parts it merges rows
 * at query time, and the collector's flushes (one part per flush) keep adding parts that ordinary
 * background merges leave side by side for a long time. A 90-day campaign report on such data
 * took about twice as long as on merged data (docs/performance.md, "Report on data as the
 * collector inserts it"). With this setting ClickHouse itself merges any run of parts that are all
 * older than FORCE_MERGE_AGE_SECONDS, so only the last minutes of inserts stay apart. The price is
 * that the current month's partition is rewritten about once per that age while data arrives.
 */
export const FORCE_MERGE_AGE_SECONDS = 600;

export const statements = ['sessions', 'visitor_customers'].map(
  (table) => `ALTER TABLE ${table} MODIFY SETTING min_age_to_force_merge_seconds = ${FORCE_MERGE_AGE_SECONDS}`,
);
