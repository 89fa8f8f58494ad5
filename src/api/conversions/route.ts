import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { rangePage, slicePage } from '../../kit/paging.ts';
import { listConversions } from '../../analytics/queries/conversions/list-conversions.ts';
import { groupConversions } from '../../analytics/queries/conversions/group-conversions.ts';
import { pageOf } from '../params.ts';
import { parseConversionsQuery } from './schema.ts';
import { conversionsRead } from './read.ts';

export const conversionsRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/conversions', async (request) => {
    const query = parseConversionsQuery(request.query);
    const { scope, filters } = conversionsRead(request.auth!, query);
    const page = pageOf(query);
    if (query.group_by?.length) {
      const rows = await groupConversions(app.stores.ch, scope, { ...filters, dimensions: query.group_by, page });
      return slicePage(rows, page);
    }
    const rows = await listConversions(app.stores.ch, scope, { ...filters, page });
    const { data, pagination } = rangePage(rows, page, scope.range);
    return { data, pagination: { ...pagination, sources: query.source?.length ? query.source : null } };
  });
};
