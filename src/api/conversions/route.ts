import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { resolveRange } from '../../kit/range.ts';
import { rangePage, slicePage } from '../../kit/paging.ts';
import { channelsOfAll } from '../../analytics/sources.ts';
import { listConversions } from '../../analytics/queries/conversions/list-conversions.ts';
import { groupConversions } from '../../analytics/queries/conversions/group-conversions.ts';
import type { ConversionFilters } from '../../analytics/queries/conversions/conversion-scope.ts';
import { pageOf } from '../params.ts';
import { pixelScope } from '../../analytics/query-scope.ts';
import { parseConversionsQuery } from './schema.ts';

export const conversionsRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/conversions', async (request) => {
    const query = parseConversionsQuery(request.query);
    const scope = pixelScope(request.auth!, resolveRange(query), query.source);
    const filters: ConversionFilters = {
      name: query.name,
      transactionId: query.transaction_id,
      customerId: query.customer_id,
      isNewCustomer: query.is_new_customer,
      // Exclusion only ever removes rows, so it needs no permission of its own.
      excluded: channelsOfAll(query.exclude_source ?? []),
    };
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
