import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { customerLtv } from '../../analytics/customers.ts';
import { resolveRange } from '../../kit/calendar/range.ts';
import { parseCustomersQuery } from './schema.ts';

/** GET /v3/customers: the range's new customers by first touch or month, their repeat rate and lifetime value. */
export const customersRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/customers', async (request) => {
    const { breakdown, attribution_window, ...dates } = parseCustomersQuery(request.query);
    const { data, totals } = await customerLtv(app.stores, request.auth!, resolveRange(dates), { breakdown, attribution_window });
    return { data, totals };
  });
};
