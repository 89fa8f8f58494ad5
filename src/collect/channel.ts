/**
 * Channel derivation for collected traffic: from the session's landing URL (click ids, UTMs,
 * creator code, ad-id parameters) to the stored attribution columns. The table is documented in
 * docs/collection.md section 3; channel values are the raw values of src/analytics/sources.ts.
 */
import type { EventRow } from './row-schemas.ts';

/** The attribution columns of an events row, all taken from the session's landing URL. */
export type Attribution = Pick<
  EventRow,
  | 'adv_source' | 'adv_campaign_id' | 'adv_adgroup_id' | 'adv_ad_id' | 'adv_asset_group_id'
  | 'utm_source' | 'utm_medium' | 'utm_campaign' | 'utm_content' | 'utm_term'
  | 'entry_meta_keys' | 'entry_meta_values'
>;

/**
 * utm_source spellings that name a meta-family channel. Maps, not object literals: a visitor's
 * utm_source of `__proto__` or `constructor` must find nothing.
 */
const META_SOURCES = new Map<string, string>([
  ['facebook', 'facebook'],
  ['fb', 'facebook'],
  ['instagram', 'instagram'],
  ['ig', 'instagram'],
  ['messenger', 'messenger'],
  ['threads', 'threads'],
  ['audience_network', 'audience_network'],
  ['an', 'audience_network'],
]);

/** utm_source spellings that name a channel on their own (rule 11). */
const SOURCE_ALIASES = new Map<string, string>([
  ...META_SOURCES,
  ['google', 'google'],
  ['tiktok', 'tiktok'],
  ['pinterest', 'pinterest'],
  ['snapchat', 'snapchat'],
  ['microsoft', 'microsoft'],
  ['bing', 'bing'],
  ['taboola', 'taboola'],
  ['outbrain', 'outbrain'],
  ['openai', 'openai'],
  ['chatgpt.com', 'openai'],
  ['whatsapp', 'whatsapp'],
  ['email', 'email'],
  ['newsletter', 'email'],
]);

const EMAIL_MEDIUMS = new Set(['email', 'e-mail', 'newsletter']);

/**
 * Click-id parameters in precedence order, with the channel each stands for. `fbclid` defers
 * to a meta-family utm_source (an Instagram ad still carries fbclid).
 */
const CLICK_IDS: ReadonlyArray<{ params: string[]; channel: (utmSource: string) => string }> = [
  { params: ['gclid', 'gbraid', 'wbraid'], channel: () => 'google' },
  { params: ['fbclid'], channel: (utm) => META_SOURCES.get(utm) ?? 'facebook' },
  { params: ['ttclid'], channel: () => 'tiktok' },
  { params: ['msclkid'], channel: () => 'microsoft' },
  { params: ['epik'], channel: () => 'pinterest' },
  { params: ['ScCid', 'sccid'], channel: () => 'snapchat' },
  { params: ['tblci'], channel: () => 'taboola' },
  { params: ['obclid'], channel: () => 'outbrain' },
  { params: ['ref'], channel: () => 'creator' },
];

/** The test and variant a storefront A/B test tags its landing URLs with; they name no channel. */
const TEST_PARAMS = ['ab_test', 'ab_variant'];

/** Parameters kept in entry_meta_keys/values, in this order. */
export const ENTRY_META_PARAMS = [...CLICK_IDS.flatMap((c) => c.params), ...TEST_PARAMS];

const AD_ID_PARAMS = {
  adv_campaign_id: ['campaign_id', 'utm_id', 'gad_campaignid'],
  adv_adgroup_id: ['adset_id', 'adgroup_id'],
  adv_ad_id: ['ad_id', 'creative_id'],
  adv_asset_group_id: ['asset_group_id'],
} as const;

const MAX_VALUE = 500;

function param(query: URLSearchParams, name: string): string {
  return (query.get(name) ?? '').trim().slice(0, MAX_VALUE);
}

function firstParam(query: URLSearchParams, names: readonly string[]): string {
  for (const name of names) {
    const value = param(query, name);
    if (value) return value;
  }
  return '';
}

/** The stored attribution of a session that landed on `entryUrl` (a parsed URL or its query). */
export function deriveAttribution(query: URLSearchParams): Attribution {
  const utm = {
    utm_source: param(query, 'utm_source'),
    utm_medium: param(query, 'utm_medium'),
    utm_campaign: param(query, 'utm_campaign'),
    utm_content: param(query, 'utm_content'),
    utm_term: param(query, 'utm_term'),
  };
  const utmSource = utm.utm_source.toLowerCase();

  const keys = ENTRY_META_PARAMS.filter((name) => query.has(name));
  const values = keys.map((name) => param(query, name));
  let source = CLICK_IDS.find((click) => click.params.some((name) => query.has(name)))?.channel(utmSource) ?? '';
  if (!source && EMAIL_MEDIUMS.has(utm.utm_medium.toLowerCase())) source = 'email';
  if (!source) source = SOURCE_ALIASES.get(utmSource) ?? '';

  return {
    adv_source: source,
    adv_campaign_id: firstParam(query, AD_ID_PARAMS.adv_campaign_id),
    adv_adgroup_id: firstParam(query, AD_ID_PARAMS.adv_adgroup_id),
    adv_ad_id: firstParam(query, AD_ID_PARAMS.adv_ad_id),
    adv_asset_group_id: firstParam(query, AD_ID_PARAMS.adv_asset_group_id),
    ...utm,
    entry_meta_keys: keys,
    entry_meta_values: values,
  };
}
