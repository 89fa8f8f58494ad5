/**
 * Channel vocabulary. A *source* is a value a caller may name in a filter; a *channel* is a raw
 * `adv_source` value stored on a row. Some sources stand for several channels.
 */
import { InvalidInput } from '../kit/errors.ts';

export const META_FAMILY = ['meta', 'facebook', 'instagram', 'messenger', 'audience_network', 'threads'] as const;

/** Accepted by every source filter, in the order the error message lists them. */
export const BASE_SOURCES = [
  'meta',
  'facebook',
  'instagram',
  'google',
  'tiktok',
  'pinterest',
  'snapchat',
  'microsoft',
  'bing',
  'openai',
  'outbrain',
  'taboola',
  'organic',
  'audience_network',
  'messenger',
  'threads',
  'whatsapp',
  'email',
] as const;

/** Pixel-side filters (events, sessions, conversions, report) also take the creator channel. */
export const PIXEL_SOURCES = [...BASE_SOURCES, 'creator'] as const;

/** Sources that are not ad platforms: they have no ad rows and no spend. */
export const NON_AD_SOURCES = new Set(['organic', 'email', 'creator', 'influencer']);

export const AD_PLATFORMS = BASE_SOURCES.filter((s) => !NON_AD_SOURCES.has(s));

/**
 * Named groups of sources a tool's source filter also takes (docs/attribution.md, "Source groups";
 * metadata.list_schema lists them): a group stands for its member sources, so an assistant can ask
 * for "paid social" without knowing each platform. Google and Microsoft are whole ad platforms:
 * their ad rows do not say which network (search, video, display) an ad ran on.
 */
export const SOURCE_GROUPS = {
  paid_social: ['meta', 'tiktok', 'pinterest', 'snapchat'],
  paid_search: ['google', 'microsoft'],
  native_ads: ['outbrain', 'taboola'],
  /** Every ad platform (AD_PLATFORMS), each family once. */
  paid: ['meta', 'google', 'tiktok', 'pinterest', 'snapchat', 'microsoft', 'openai', 'outbrain', 'taboola', 'whatsapp'],
} as const satisfies Record<string, readonly (typeof BASE_SOURCES)[number][]>;

export type SourceGroup = keyof typeof SOURCE_GROUPS;
export const SOURCE_GROUP_NAMES = Object.keys(SOURCE_GROUPS) as SourceGroup[];

/** The members of a source group, or undefined for any other name ("valueOf" included: only the groups' own keys count). */
export const sourceGroupMembers = (name: string): readonly string[] | undefined =>
  Object.hasOwn(SOURCE_GROUPS, name) ? SOURCE_GROUPS[name as SourceGroup] : undefined;

/** Untagged traffic is stored with an empty adv_source and reported as `organic`. */
export const ORGANIC_CHANNELS = ['', 'organic'] as const;

/** The raw channel values a source stands for. */
export function channelsOf(source: string): string[] {
  switch (source) {
    case 'meta':
      return [...META_FAMILY];
    case 'microsoft':
    case 'bing':
      return ['microsoft', 'bing'];
    case 'creator':
      return ['creator', 'influencer'];
    case 'organic':
      return [...ORGANIC_CHANNELS];
    default:
      return [source];
  }
}

export function channelsOfAll(sources: readonly string[]): string[] {
  return [...new Set(sources.flatMap(channelsOf))];
}

/** Splits a comma-separated filter, trimming blanks; throws on a value outside `accepted`. */
export function parseSourceList(raw: string, accepted: readonly string[]): string[] {
  const values = [...new Set(raw.split(',').map((v) => v.trim()).filter(Boolean))];
  for (const value of values) {
    if (!accepted.includes(value)) throw new InvalidInput(`Unknown source: ${value}. Accepted sources: ${accepted.join(', ')}`);
  }
  return values;
}
