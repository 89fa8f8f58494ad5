import { META_FAMILY, PIXEL_SOURCES } from './sources.ts';
import { BREAKDOWNS, type Breakdown } from '../kit/vocabulary.ts';
import type { LandingField } from './queries/sessions/session-sql.ts';

/**
 * Report breakdowns. Every report row is built from three inputs, and each breakdown says how
 * it reads its key from each of them:
 * - `credit`: an attributed conversion (columns of the credited touchpoint `touch.*` and of the
 *   conversion itself);
 * - `session`: a derived session (sessions, add_to_carts, checkouts), or null when sessions have
 *   no such attribute (coupon_code: the row's session metrics are then null);
 * - `ads`: an ads row (spend, impressions, clicks), or null for pixel-side breakdowns, whose spend
 *   stays 0.
 * Identifiers in these expressions are fixed strings; no caller value ever reaches them.
 */

/** Raw channels reported under another source; every other channel is its own source. */
const RENAMED_CHANNELS: Record<string, string> = {
  ...Object.fromEntries(META_FAMILY.map((c) => [c, 'meta'])),
  bing: 'microsoft',
  influencer: 'creator',
  '': 'organic',
  organic: 'organic',
};

/** Reporting source of a raw channel, as reportingSourceSql names it in the engine. */
export const reportingSourceOf = (channel: string): string => RENAMED_CHANNELS[channel] ?? channel;

/** The tracked channel a person names (a source filter value, organic aside), as its reporting source; null for any other name. */
export function trackedSourceOf(named: string): string | null {
  const value = named.trim().toLowerCase();
  if (!(PIXEL_SOURCES as readonly string[]).includes(value) || value === 'organic') return null;
  return reportingSourceOf(value);
}

const quote = (s: string) => `'${s}'`;

/**
 * Reporting source of a raw channel: meta family -> meta, bing -> microsoft, influencer -> creator,
 * '' -> organic. One `transform` (a hash lookup) costs ClickHouse less analysis than a multiIf.
 */
export function reportingSourceSql(channel: string): string {
  const from = Object.keys(RENAMED_CHANNELS).map(quote).join(', ');
  const to = Object.values(RENAMED_CHANNELS).map(quote).join(', ');
  return `transform(${channel}, [${from}], [${to}], ${channel})`;
}

export interface KeyMember {
  /** Member name on the report row. */
  name: string;
  credit: string;
  session: string | null;
  ads: string | null;
}

export interface Dimension {
  /** Key members, in row order. */
  keys: KeyMember[];
  /** A display name read from ads rows (campaign_name, ...), '' when no ads row matches. */
  label?: { name: string; ads: string };
  /** A landing field the session rows carry under its own name for `session` to read. */
  landing?: LandingField;
}

const sourceMember: KeyMember = {
  name: 'source',
  credit: 'touch.source',
  session: reportingSourceSql('channel'),
  ads: reportingSourceSql('source'),
};

const touchMember = (name: string, column = name): KeyMember => ({
  name,
  credit: `touch.${column}`,
  session: column,
  ads: null,
});

const conversionMember = (name: string, column: string): KeyMember => ({ name, credit: column, session: null, ads: null });

export const DIMENSIONS = {
  source: { keys: [sourceMember] },
  campaign: {
    keys: [sourceMember, { name: 'campaign', credit: 'touch.campaign', session: 'campaign', ads: 'campaign_id' }],
    label: { name: 'campaign_name', ads: 'campaign_name' },
  },
  adgroup: {
    keys: [sourceMember, { name: 'adgroup', credit: 'touch.adgroup', session: 'adgroup', ads: 'adgroup_id' }],
    label: { name: 'adgroup_name', ads: 'adgroup_name' },
  },
  ad: {
    keys: [sourceMember, { name: 'ad', credit: 'touch.ad', session: 'ad', ads: 'ad_id' }],
    label: { name: 'ad_name', ads: 'ad_name' },
  },
  utm_source: { keys: [touchMember('utm_source')] },
  utm_campaign: { keys: [touchMember('utm_campaign')] },
  utm_medium: { keys: [touchMember('utm_medium')] },
  utm_term: { keys: [touchMember('utm_term')] },
  utm_content: { keys: [touchMember('utm_content')] },
  referrer: { keys: [touchMember('referrer')] },
  landing_page: { keys: [touchMember('landing_page')] },
  // A conversion's city (else its order's, build-sql.ts); a session's is its visitor's.
  city: { keys: [{ name: 'city', credit: 'city', session: 'city', ads: null }], landing: 'city' },
  coupon_code: { keys: [conversionMember('coupon_code', 'coupon_code')] },
} as const satisfies Record<Breakdown, Dimension>;

export { BREAKDOWNS, type Breakdown };

/**
 * Interval buckets of a calendar date: a timestamp's date in the report's time zone, or an ads
 * row's own date. Weeks start on Monday (toMonday); a day is whatever its date spans, 23 or 25
 * hours where the clocks change.
 */
export const INTERVALS = {
  day: (date: string) => date,
  week: (date: string) => `toMonday(${date})`,
  month: (date: string) => `toStartOfMonth(${date})`,
} as const;

export type Interval = keyof typeof INTERVALS;
export const INTERVAL_NAMES = Object.keys(INTERVALS) as [Interval, ...Interval[]];
