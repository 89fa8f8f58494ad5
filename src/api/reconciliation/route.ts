import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { resolveRange } from '../../kit/calendar/range.ts';
import { reconcile } from '../../analytics/reconciliation.ts';
import { parseReconciliationQuery } from './schema.ts';

/** GET /v3/reconciliation: the shop's orders beside the report, per local day, every difference named. */
export const reconciliationRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/reconciliation', async (request) => {
    const query = parseReconciliationQuery(request.query);
    const { data, totals } = await reconcile(app.stores, request.auth!, resolveRange(query));
    return { data, totals };
  });
};
