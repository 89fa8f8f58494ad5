import { z } from 'zod';
import { BASE_SOURCES } from '../../analytics/sources.ts';
import { dateShape, normalizeQuery, pagingShape, parseQuery, sourceListParam, text } from '../params.ts';

/** /v3/ads takes no parameter aliases (no from/to, no page/page_size) and no creator source. */
export const adsQuerySchema = z.object({
  ...dateShape,
  ...pagingShape,
  source: sourceListParam(BASE_SOURCES),
  adaccount_id: text('Invalid adaccount_id parameter').optional(),
  campaign_id: text('Invalid campaign_id parameter').optional(),
  adgroup_id: text('Invalid adgroup_id parameter').optional(),
  ad_id: text('Invalid ad_id parameter').optional(),
});

/** List parameters of /v3/ads (also listed in the OpenAPI document); no aliases. */
export const adsQueryOptions = { aliases: {}, lists: ['source'] };

export function parseAdsQuery(raw: unknown) {
  return parseQuery(adsQuerySchema, normalizeQuery(raw, adsQueryOptions));
}
