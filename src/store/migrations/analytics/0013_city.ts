/**
 * Sessions carry the visitor's city (docs/collection.md section 2): the collector looks it up
 * from the request's address, or takes it from a proxy header, and writes it on every event.
 *
 * - `events.city`: a new column. Adding it changes only the table's metadata; parts written
 *   before read it as ''.
 * - The session's landing context gets a `city` field after the others. The view is dropped
 *   first, so nothing is inserted in the old shape while the column changes; `MODIFY COLUMN`
 *   then rewrites that one tuple column in every part of `sessions` (a mutation, waited for),
 *   far cheaper than rebuilding the table from events as migration 0004 did. The event rank of
 *   the landing tuples is unchanged (0003's fields), so partial rows written before and after
 *   this migration still pick the same first event.
 * - The view is created again with the new field.
 *
 * Cost, measured on the shared 2-core development machine under load, on the bench's seeded data:
 * 0.9 s for 2 million events (444,000 sessions), 5.1 s for 6 million (1.3 million sessions,
 * 180 MB), all of it the sessions rewrite; so about 15-20 s for a store of 20 million events,
 * once, while the server starts (it migrates before it listens), against ~100 s for 0004's
 * rebuild. Nothing else changes size: an event's empty city costs a few bytes per part.
 */
import { CONTEXT_FIELDS, sessionsOfEvents, tupleType, type LandingTuple } from './0003_sessions.ts';
import { AD_FIELDS, UTM_FIELDS } from './0004_split_landing.ts';

const CONTEXT_WITH_CITY: [string, string][] = [...CONTEXT_FIELDS, ['city', 'String']];

const LANDING_TUPLES: LandingTuple[] = [
  ['landing', AD_FIELDS, tupleType(AD_FIELDS)],
  ['landing_utm', UTM_FIELDS, tupleType(UTM_FIELDS)],
  ['landing_context', CONTEXT_WITH_CITY, tupleType(CONTEXT_WITH_CITY)],
];

/** The view that turns inserted events into partial session rows, as this migration left it. */
export const SESSIONS_VIEW = `CREATE MATERIALIZED VIEW sessions_mv TO sessions AS ${sessionsOfEvents(LANDING_TUPLES)}`;

export const statements = [
  `ALTER TABLE events ADD COLUMN IF NOT EXISTS city String DEFAULT '' AFTER country_code`,
  'DROP VIEW IF EXISTS sessions_mv',
  `ALTER TABLE sessions MODIFY COLUMN landing_context SimpleAggregateFunction(min, ${tupleType(CONTEXT_WITH_CITY)}) SETTINGS mutations_sync = 2`,
  SESSIONS_VIEW,
];
