/**
 * The dashboard's downloads (docs/dashboard.md, "Downloads"): the data API's exports for a signed-in
 * member, with the member's permissions, on the store's calendar like the views. Each takes the
 * export's own parameters plus `workspace`.
 */
import type { FastifyInstance } from 'fastify';
import { NotFound } from '../kit/errors.ts';
import { isExportKind } from '../analytics/export/formats.ts';
import { planExport, sendExport } from '../api/export/plan.ts';
import { workspaceAccess } from './access.ts';
import { onStoreCalendar } from './store-calendar.ts';

export async function exportRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { kind: string } }>('/dashboard/api/export/:kind', async (request, reply) => {
    const { kind } = request.params;
    if (!isExportKind(kind)) throw new NotFound('Not found');
    const access = workspaceAccess(request);
    const query = onStoreCalendar((request.query ?? {}) as Record<string, unknown>, access.timeZone, Date.now());
    const plan = planExport(access, kind, query, ['workspace']);
    // A download holds an engine session while it streams: it counts as one of the member's reads in flight.
    return app.inFlight.run(`user:${request.dashboardUser!.userId}`, () => sendExport(app.stores, plan, request, reply));
  });
}
