import { z } from 'zod';
import { BASE_SOURCES } from '../../analytics/sources.ts';
import { zonedDateShape, pagingShape, parseWith, sourceListParam, text, type QuerySpec } from '../params.ts';

/** /v3/ads takes no parameter aliases (no from/to, no page/page_size) and no creator source. */
export const adsQuerySchema = z.object({
  ...zonedDateShape,
  ...pagingShape,
  source: sourceListParam(BASE_SOURCES),
  adaccount_id: text('Invalid adaccount_id parameter').optional(),
  campaign_id: text('Invalid campaign_id parameter').optional(),
  adgroup_id: text('Invalid adgroup_id parameter').optional(),
  ad_id: text('Invalid ad_id parameter').optional(),
});

export const adsQuery: QuerySpec<typeof adsQuerySchema> = { schema: adsQuerySchema, lists: ['source'] };

export const parseAdsQuery = (raw: unknown) => parseWith(adsQuery, raw);

/** An ads request's parameters other than its page (the export reads the same). */
export type AdsFilterQuery = Omit<z.output<typeof adsQuerySchema>, 'limit' | 'offset'>;
