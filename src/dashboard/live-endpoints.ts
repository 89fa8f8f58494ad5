/** The Live view's endpoint. */
import type { FastifyInstance } from 'fastify';
import { UTC } from '../kit/calendar/zones.ts';
import { liveActivity } from '../analytics/queries/live/live-activity.ts';
import { pixelScope } from '../analytics/query-scope.ts';
import { workspaceAccess } from './access.ts';

export async function liveRoutes(app: FastifyInstance): Promise<void> {
  /** Live: the last 30 minutes of pageviews and conversions, polled by the view. */
  app.get('/dashboard/api/live', async (request) => {
    const access = workspaceAccess(request);
    const now = Date.now();
    const range = { startMs: now - 30 * 60_000, endMs: now, timeZone: UTC };
    const activity = await liveActivity(app.stores.ch, pixelScope(access, range), { recent: 50 });
    return { now: new Date(now).toISOString(), ...activity };
  });
}
