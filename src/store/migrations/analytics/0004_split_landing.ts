/**
 * Splits the session landing of migration 0003 into two tuples: `landing` keeps the visitor and
 * the ad fields (what attribution, channel filters and the ad breakdowns read), `landing_utm`
 * takes the UTM fields, the referrer and the landing page. FINAL reads a whole tuple, and the
 * report reads the landing twice per request: a 90-day campaign report spent ~22 ms of ~160 ms
 * reading UTM strings it did not use (docs/performance.md). Every tuple starts with the event
 * time and the same rank, so all three pick the same first event.
 *
 * The table is rebuilt from stored events, as 0003 built it (about 100 s per 20 million events;
 * rerunnable; nothing may write events meanwhile, which holds for the embedded server).
 */
import { COUNTERS, CONTEXT_FIELDS, CONTEXT_TYPE, EXIT_TYPE, TS, firstOf, quoted, tupleType } from './0003_sessions.ts';

const AD_FIELDS: [string, string][] = [
  ['visitor_id', 'UInt64'],
  ...['adv_source', 'adv_campaign_id', 'adv_adgroup_id', 'adv_ad_id'].map((name): [string, string] => [name, 'String']),
];
const UTM_FIELDS: [string, string][] = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term', 'referrer',
  'pathname'].map((name): [string, string] => [name, 'String']);
const LANDING_TYPE = tupleType(AD_FIELDS);
const UTM_TYPE = tupleType(UTM_FIELDS);

const SESSIONS_OF_EVENTS = `
SELECT store_id, toStartOfMonth(dt) AS month, session_id, min(dt) AS started, max(dt) AS ended, count() AS events,
  ${COUNTERS.map(([name, column]) => `countIf(name = '${name}') AS ${column}`).join(',\n  ')},
  max(customer_id) AS customer_id,
  ${firstOf(AD_FIELDS, LANDING_TYPE)} AS landing,
  ${firstOf(UTM_FIELDS, UTM_TYPE)} AS landing_utm,
  ${firstOf(CONTEXT_FIELDS, CONTEXT_TYPE)} AS landing_context,
  max(CAST(tuple(dt, pathname), ${quoted(EXIT_TYPE)})) AS exit_page
FROM events
GROUP BY store_id, month, session_id`;

export const statements = [
  'DROP VIEW IF EXISTS sessions_mv',
  'DROP TABLE IF EXISTS sessions SYNC',
  `CREATE TABLE sessions (
    store_id UInt64,
    month Date,
    session_id UInt64,
    started SimpleAggregateFunction(min, ${TS}),
    ended SimpleAggregateFunction(max, ${TS}),
    events SimpleAggregateFunction(sum, UInt64),
    ${COUNTERS.map(([, column]) => `${column} SimpleAggregateFunction(sum, UInt64)`).join(',\n    ')},
    customer_id SimpleAggregateFunction(max, String),
    landing SimpleAggregateFunction(min, ${LANDING_TYPE}),
    landing_utm SimpleAggregateFunction(min, ${UTM_TYPE}),
    landing_context SimpleAggregateFunction(min, ${CONTEXT_TYPE}),
    exit_page SimpleAggregateFunction(max, ${EXIT_TYPE})
  ) ENGINE = AggregatingMergeTree
  PARTITION BY month
  ORDER BY (store_id, session_id)
  SETTINGS non_replicated_deduplication_window = 10000`,
  `INSERT INTO sessions ${SESSIONS_OF_EVENTS}`,
  `CREATE MATERIALIZED VIEW sessions_mv TO sessions AS ${SESSIONS_OF_EVENTS}`,
];
