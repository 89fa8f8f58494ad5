/**
 * Sessions and buyer identities kept at ingest time, so that readers touch one row per session
 * (or per identified visitor) instead of every event.
 *
 * Materialized views turn every block inserted into `events` (collector flush, import, demo
 * seed) into one partial row per session of that block, and every block of `events` and
 * `conversions` carrying a customer id into partial (visitor, customer) rows. The
 * AggregatingMergeTree tables fold partial rows together in the background; readers use FINAL,
 * which folds whatever is still apart. Every column is a plain value (SimpleAggregateFunction),
 * never an aggregate state: a session's landing is the smallest (time, rank, fields...) tuple, its
 * exit page the largest (time, pathname) one, so reading a workspace's sessions is a column scan.
 *
 * Sessions are partitioned by `month`, the UTC month of their events: a range reads only its
 * months, and FINAL folds each month on its own (do_not_merge_across_partitions_select_final, set
 * for every query in clickhouse.ts), so a month whose rows are merged into one part is read as
 * plainly as a MergeTree. The price: a session that runs across midnight at the end of a UTC month
 * is two sessions, one per month. The view splits every block that way, so the split does not
 * depend on how events were batched. `month` is a column of its own (not derived from `started`):
 * ClickHouse prunes parts by the partition key's min/max before FINAL, which is safe for a value
 * all partial rows of a session share and wrong for a partial row's own start.
 *
 * Both tables keep the deduplication window of `events` and `conversions`: a retried collector
 * insert that those drop must not be counted twice here (clickhouse.ts turns on deduplication in
 * dependent views).
 *
 * The backfill truncates first so that a migration interrupted half-way can run again. It
 * assumes nothing writes events while migrations run (the server migrates before it listens).
 */
const TS = "DateTime64(3, 'UTC')";

/** Event name -> counter column; the list of SESSION_COUNTERS when this migration was written. */
const COUNTERS = [
  ['pageview', 'pageviews'],
  ['add_to_cart', 'add_to_carts'],
  ['initiate_checkout', 'initiated_checkouts'],
  ['view_content', 'view_contents'],
  ['contact', 'contacts'],
  ['newsletter_signup', 'newsletter_signups'],
  ['complete_registration', 'completed_registrations'],
  ['app_install', 'app_installs'],
  ['add_payment_info', 'add_payment_infos'],
];

/**
 * The first event's fields, in two tuples so that a reader pays only for the one it needs (FINAL
 * reads a whole tuple): `landing` holds what attribution reads, `landing_context` the rest. Both
 * start with the event time and a hash of all fields, so both pick the same event even when two
 * events share the first millisecond.
 */
const ATTRIBUTION_FIELDS: [string, string][] = [
  ['visitor_id', 'UInt64'],
  ...['adv_source', 'adv_campaign_id', 'adv_adgroup_id', 'adv_ad_id', 'utm_source', 'utm_medium', 'utm_campaign',
    'utm_content', 'utm_term', 'referrer', 'pathname'].map((name): [string, string] => [name, 'String']),
];
export const CONTEXT_FIELDS: [string, string][] = [
  ...['adv_asset_group_id', 'device_type', 'country_code', 'hostname'].map((name): [string, string] => [name, 'String']),
  ['entry_meta_keys', 'Array(String)'],
  ['entry_meta_values', 'Array(String)'],
];
const EVENT_RANK = `cityHash64(${[...ATTRIBUTION_FIELDS, ...CONTEXT_FIELDS].map(([name]) => name).join(', ')})`;
export const tupleType = (fields: [string, string][]) =>
  `Tuple(dt ${TS}, rank UInt64, ${fields.map(([name, type]) => `${name} ${type}`).join(', ')})`;
const LANDING_TYPE = tupleType(ATTRIBUTION_FIELDS);
export const CONTEXT_TYPE = tupleType(CONTEXT_FIELDS);
const EXIT_TYPE = `Tuple(dt ${TS}, pathname String)`;
const quoted = (type: string) => `'${type.replace(/'/g, "\\'")}'`;
const firstOf = (fields: [string, string][], type: string) =>
  `min(CAST(tuple(dt, ${EVENT_RANK}, ${fields.map(([name]) => name).join(', ')}), ${quoted(type)}))`;

/** A landing tuple: its column name, its fields and their type. */
export type LandingTuple = [column: string, fields: [string, string][], type: string];

const LANDING_TUPLES: LandingTuple[] = [
  ['landing', ATTRIBUTION_FIELDS, LANDING_TYPE],
  ['landing_context', CONTEXT_FIELDS, CONTEXT_TYPE],
];

/** Partial session rows of the events in the FROM (the view's block, or the whole table). */
export const sessionsOfEvents = (tuples: LandingTuple[]) => `
SELECT store_id, toStartOfMonth(dt) AS month, session_id, min(dt) AS started, max(dt) AS ended, count() AS events,
  ${COUNTERS.map(([name, column]) => `countIf(name = '${name}') AS ${column}`).join(',\n  ')},
  max(customer_id) AS customer_id,
  ${tuples.map(([column, fields, type]) => `${firstOf(fields, type)} AS ${column}`).join(',\n  ')},
  max(CAST(tuple(dt, pathname), ${quoted(EXIT_TYPE)})) AS exit_page
FROM events
GROUP BY store_id, month, session_id`;

export const createSessionsTable = (tuples: LandingTuple[]) => `CREATE TABLE IF NOT EXISTS sessions (
    store_id UInt64,
    month Date,
    session_id UInt64,
    started SimpleAggregateFunction(min, ${TS}),
    ended SimpleAggregateFunction(max, ${TS}),
    events SimpleAggregateFunction(sum, UInt64),
    ${COUNTERS.map(([, column]) => `${column} SimpleAggregateFunction(sum, UInt64)`).join(',\n    ')},
    customer_id SimpleAggregateFunction(max, String),
    ${tuples.map(([column, , type]) => `${column} SimpleAggregateFunction(min, ${type})`).join(',\n    ')},
    exit_page SimpleAggregateFunction(max, ${EXIT_TYPE})
  ) ENGINE = AggregatingMergeTree
  PARTITION BY month
  ORDER BY (store_id, session_id)
  SETTINGS non_replicated_deduplication_window = 10000`;

const SESSIONS_OF_EVENTS = sessionsOfEvents(LANDING_TUPLES);

const customersOf = (table: string) => `
SELECT store_id, visitor_id, max(customer_id) AS customer_id
FROM ${table}
WHERE customer_id != ''
GROUP BY store_id, visitor_id`;

export const statements = [
  createSessionsTable(LANDING_TUPLES),
  `CREATE TABLE IF NOT EXISTS visitor_customers (
    store_id UInt64,
    visitor_id UInt64,
    customer_id SimpleAggregateFunction(max, String)
  ) ENGINE = AggregatingMergeTree
  ORDER BY (store_id, visitor_id)
  SETTINGS non_replicated_deduplication_window = 10000`,
  'DROP VIEW IF EXISTS sessions_mv',
  'DROP VIEW IF EXISTS visitor_customers_from_events_mv',
  'DROP VIEW IF EXISTS visitor_customers_from_conversions_mv',
  'TRUNCATE TABLE sessions',
  'TRUNCATE TABLE visitor_customers',
  `INSERT INTO sessions ${SESSIONS_OF_EVENTS}`,
  `INSERT INTO visitor_customers ${customersOf('events')}`,
  `INSERT INTO visitor_customers ${customersOf('conversions')}`,
  `CREATE MATERIALIZED VIEW sessions_mv TO sessions AS ${SESSIONS_OF_EVENTS}`,
  `CREATE MATERIALIZED VIEW visitor_customers_from_events_mv TO visitor_customers AS ${customersOf('events')}`,
  `CREATE MATERIALIZED VIEW visitor_customers_from_conversions_mv TO visitor_customers AS ${customersOf('conversions')}`,
];
