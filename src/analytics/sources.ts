/**
 * Channel vocabulary. A *source* is a value a caller may name in a filter; a *channel* is a raw
 * `adv_source` value stored on a row. Some sources stand for several channels. The lists of
 * sources live in the vocabulary (src/kit/vocabulary.ts); how they map to channels lives here.
 */
import { InvalidInput } from '../kit/errors.ts';
import { AD_PLATFORMS, BASE_SOURCES, META_FAMILY, NON_AD_SOURCES, PIXEL_SOURCES, SOURCE_GROUPS } from '../kit/vocabulary.ts';

export { AD_PLATFORMS, BASE_SOURCES, META_FAMILY, NON_AD_SOURCES, PIXEL_SOURCES, SOURCE_GROUPS };

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
