import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { rangePage } from '../../kit/paging.ts';
import { listAds } from '../../analytics/queries/ads/list-ads.ts';
import { totalAds } from '../../analytics/queries/ads/total-ads.ts';
import { pageOf } from '../params.ts';
import { parseAdsQuery } from './schema.ts';
import { adsRead } from './read.ts';

export const adsRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/ads', async (request) => {
    const query = parseAdsQuery(request.query);
    const { scope, filters, sources } = adsRead(request.auth!, query);
    const page = pageOf(query);
    const [rows, totals] = await Promise.all([listAds(app.stores.ch, scope, { ...filters, page }), totalAds(app.stores.ch, scope, filters)]);
    const { data, pagination } = rangePage(rows, page, scope.range);
    return { totals, data, pagination: { ...pagination, sources } };
  });
};
