import type { FastifyInstance } from 'fastify';
import { eventsRoute } from '../api/events/route.ts';
import { sessionsRoute } from '../api/sessions/route.ts';
import { conversionsRoute } from '../api/conversions/route.ts';
import { adsRoute } from '../api/ads/route.ts';
import { reportRoute } from '../api/report/route.ts';
import { adminRoute } from '../cli/admin-route.ts';
import { registerTryOn } from '../tryon/plugin.ts';
import { collectPlugin } from '../collect/plugin.ts';
import { collectCheck } from '../collect/status.ts';
import { mcpRoute } from '../mcp/route.ts';
import { addHealthCheck, checkHealth } from './health.ts';
import { oauthRoutes } from '../mcp/oauth/routes.ts';
import { dashboardPlugin } from '../dashboard/plugin.ts';

/** Every endpoint module, with its prefix. */
export async function registerRoutes(app: FastifyInstance): Promise<void> {
  addHealthCheck(app, {
    name: 'collect',
    async run() {
      const collect = await collectCheck(app.config.dataDir);
      return { state: collect.status === 'ok' ? 'ok' : 'degraded', detail: collect };
    },
  });
  app.get('/healthz', async (_request, reply) => {
    const { statusCode, body } = await checkHealth(app.healthChecks);
    return reply.code(statusCode).send(body);
  });
  await app.register(eventsRoute, { prefix: '/v3' });
  await app.register(sessionsRoute, { prefix: '/v3' });
  await app.register(conversionsRoute, { prefix: '/v3' });
  await app.register(adsRoute, { prefix: '/v3' });
  await app.register(reportRoute, { prefix: '/v3' });
  await app.register(collectPlugin);
  await app.register(mcpRoute);
  await app.register(oauthRoutes);
  await registerTryOn(app);
  await app.register(adminRoute);
  await app.register(dashboardPlugin);
}
