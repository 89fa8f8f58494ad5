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
import { CONTEXT_FIELDS, CONTEXT_TYPE, createSessionsTable, sessionsOfEvents, tupleType, type LandingTuple } from './0003_sessions.ts';

export const AD_FIELDS: [string, string][] = [
  ['visitor_id', 'UInt64'],
  ...['adv_source', 'adv_campaign_id', 'adv_adgroup_id', 'adv_ad_id'].map((name): [string, string] => [name, 'String']),
];
export const UTM_FIELDS: [string, string][] = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term', 'referrer',
  'pathname'].map((name): [string, string] => [name, 'String']);

const LANDING_TUPLES: LandingTuple[] = [
  ['landing', AD_FIELDS, tupleType(AD_FIELDS)],
  ['landing_utm', UTM_FIELDS, tupleType(UTM_FIELDS)],
  ['landing_context', CONTEXT_FIELDS, CONTEXT_TYPE],
];
const SESSIONS_OF_EVENTS = sessionsOfEvents(LANDING_TUPLES);

export const statements = [
  'DROP VIEW IF EXISTS sessions_mv',
  'DROP TABLE IF EXISTS sessions SYNC',
  createSessionsTable(LANDING_TUPLES),
  `INSERT INTO sessions ${SESSIONS_OF_EVENTS}`,
  `CREATE MATERIALIZED VIEW sessions_mv TO sessions AS ${SESSIONS_OF_EVENTS}`,
];
