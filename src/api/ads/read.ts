import { resolveRange } from '../../kit/calendar/range.ts';
import { AD_PLATFORMS, channelsOfAll } from '../../analytics/sources.ts';
import { visibleAdChannels, type Visibility } from '../../analytics/permissions.ts';
import { assertAdsAccess, type QueryScope, type Reader } from '../../analytics/query-scope.ts';
import type { AdFilters } from '../../analytics/queries/ads/ads-scope.ts';
import type { AdsFilterQuery } from './schema.ts';

/** The sources an ads request covers: the requested ones, else every ad platform the key sees. */
function adSources(visibility: Visibility, requested: string[] | undefined): string[] {
  assertAdsAccess(visibility, requested);
  if (requested?.length) return requested;
  const visible = visibleAdChannels(visibility);
  return visible === null ? [...AD_PLATFORMS] : AD_PLATFORMS.filter((s) => visible.includes(s));
}

/**
 * What an ads request reads beside its page (the page, the totals and the export share it): its
 * sources' channels, and the sources themselves for `pagination.sources`; AccessDenied when the key may not.
 */
export function adsRead(reader: Reader, query: AdsFilterQuery): { scope: QueryScope; filters: AdFilters; sources: string[] } {
  const range = resolveRange(query);
  const sources = adSources(reader.visibility, query.source);
  return {
    scope: { workspaceId: reader.workspaceId, range, channels: channelsOfAll(sources) },
    filters: { adaccountId: query.adaccount_id, campaignId: query.campaign_id, adgroupId: query.adgroup_id, adId: query.ad_id },
    sources,
  };
}
