/**
 * Partitions `sessions` by workspace as well as by month, so that a part never holds two
 * workspaces' sessions.
 *
 * Why: readers fold `sessions` with FINAL, and FINAL reads without merging the key ranges that
 * only one part holds. It judges ranges from the primary index, at granule boundaries: in a part
 * that holds several workspaces, a workspace's range ends at the first key of the next
 * workspace's granule, so it reaches over every key the workspace has in the month's other parts,
 * and FINAL merges them all. A part of one workspace ends at its own last key; with session ids
 * that grow with time (the pixel's, docs/collection.md section 2), a recent flush's part lies
 * beside the merged month instead of inside it (docs/performance.md, "Sessions partitioned by
 * workspace").
 *
 * The price is more parts: a flush writes one part per workspace that sent events, where it wrote
 * one per month. Inserts may therefore reach more than ClickHouse's default of 100 partitions
 * (`max_partitions_per_insert_block`, lifted in clickhouse.ts).
 *
 * The rows are copied as they are, partial rows included (FINAL folds them as before), into a
 * table of the new layout that then takes the old one's place. Nothing writes events while
 * migrations run (the server migrates before it listens); an interrupted run starts over cleanly.
 * Cost: 2.0 s for the benchmark's 444,000 session rows (2,000,000 events over 50 workspaces, on the
 * 2-core development machine), so about 20 s for 20 million events, once, while the server starts.
 */
import { FORCE_MERGE_AGE_SECONDS } from './0011_merge_sessions.ts';
import { SESSIONS_VIEW } from './0013_city.ts';

export const statements = [
  'DROP VIEW IF EXISTS sessions_mv',
  'DROP TABLE IF EXISTS sessions_by_store SYNC',
  `CREATE TABLE sessions_by_store AS sessions
  ENGINE = AggregatingMergeTree
  PARTITION BY (store_id, month)
  ORDER BY (store_id, session_id)
  SETTINGS non_replicated_deduplication_window = 10000, min_age_to_force_merge_seconds = ${FORCE_MERGE_AGE_SECONDS}`,
  'INSERT INTO sessions_by_store SELECT * FROM sessions SETTINGS insert_deduplicate = 0',
  'EXCHANGE TABLES sessions AND sessions_by_store',
  'DROP TABLE sessions_by_store SYNC',
  SESSIONS_VIEW,
];
