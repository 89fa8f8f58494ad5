/** The "Storelens vs shop" view's endpoint. */
import type { FastifyInstance } from 'fastify';
import { parseReconciliationQuery } from '../api/reconciliation/schema.ts';
import { reconcile } from '../analytics/reconciliation.ts';
import { workspaceAccess } from './access.ts';
import { viewDays, viewRange } from './store-calendar.ts';
import { VIEW_PARAMS } from './view-request.ts';

export async function booksRoutes(app: FastifyInstance): Promise<void> {
  /** Storelens vs shop: the reconciliation of the range, on the workspace's calendar. */
  app.get('/dashboard/api/reconciliation', async (request) => {
    const access = workspaceAccess(request);
    const query = parseReconciliationQuery(request.query, VIEW_PARAMS);
    const range = viewRange(query, access.timeZone, Date.now());
    const { data, totals, conversionNames } = await reconcile(app.stores, access, range);
    return {
      data, totals, range: viewDays(range),
      settings_applied: { conversion_names: conversionNames },
    };
  });
}
