import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { resolveRange } from '../../kit/range.ts';
import { rangePage } from '../../kit/paging.ts';
import { AD_PLATFORMS, channelsOfAll } from '../../analytics/sources.ts';
import { visibleAdChannels, type Visibility } from '../../analytics/permissions.ts';
import { assertAdsAccess, type QueryScope } from '../../analytics/query-scope.ts';
import { listAds } from '../../analytics/queries/ads/list-ads.ts';
import { totalAds } from '../../analytics/queries/ads/total-ads.ts';
import { pageOf } from '../params.ts';
import { parseAdsQuery } from './schema.ts';

/** The sources an ads request covers: the requested ones, else every ad platform the key sees. */
function adSources(visibility: Visibility, requested: string[] | undefined): string[] {
  assertAdsAccess(visibility, requested);
  if (requested?.length) return requested;
  const visible = visibleAdChannels(visibility);
  return visible === null ? [...AD_PLATFORMS] : AD_PLATFORMS.filter((s) => visible.includes(s));
}

export const adsRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/ads', async (request) => {
    const query = parseAdsQuery(request.query);
    const range = resolveRange(query);
    const auth = request.auth!;
    const sources = adSources(auth.visibility, query.source);
    const scope: QueryScope = { workspaceId: auth.workspaceId, range, channels: channelsOfAll(sources) };
    const page = pageOf(query);
    const filters = {
      adaccountId: query.adaccount_id,
      campaignId: query.campaign_id,
      adgroupId: query.adgroup_id,
      adId: query.ad_id,
    };
    const [rows, totals] = await Promise.all([listAds(app.stores.ch, scope, { ...filters, page }), totalAds(app.stores.ch, scope, filters)]);
    const { data, pagination } = rangePage(rows, page, range);
    return { totals, data, pagination: { ...pagination, sources } };
  });
};
