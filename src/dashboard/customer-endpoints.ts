/** The Customers view's endpoint. */
import type { FastifyInstance } from 'fastify';
import { parseCustomersQuery } from '../api/customers/schema.ts';
import { customerLtv } from '../analytics/customers.ts';
import { workspaceAccess } from './access.ts';
import { viewDays, viewRange } from './store-calendar.ts';
import { VIEW_PARAMS } from './view-request.ts';

export async function customerRoutes(app: FastifyInstance): Promise<void> {
  /** Customers: the range's new customers and their lifetime value, on the workspace's calendar. */
  app.get('/dashboard/api/customers', async (request) => {
    const access = workspaceAccess(request);
    const { breakdown, attribution_window, ...dates } = parseCustomersQuery(request.query, VIEW_PARAMS);
    const range = viewRange(dates, access.timeZone, Date.now());
    const answer = await customerLtv(app.stores, access, range, { breakdown, attribution_window });
    return {
      data: answer.data, totals: answer.totals, breakdown: answer.breakdown, attribution_window: answer.attributionWindow,
      conversion_names: answer.countedNames, range: viewDays(range),
    };
  });
}
