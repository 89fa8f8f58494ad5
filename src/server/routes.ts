import type { FastifyInstance } from 'fastify';
import { DATA_API_PREFIX, DATA_ENDPOINTS } from '../api/endpoints.ts';
import { openApiRoute } from '../api/openapi/route.ts';
import { registerTryOn } from '../tryon/plugin.ts';
import { collectPlugin } from '../collect/plugin.ts';
import { collectCheck } from '../collect/status.ts';
import { mcpRoute } from '../mcp/route.ts';
import { addHealthCheck, checkHealth } from '../http/health.ts';
import { oauthRoutes } from '../mcp/oauth/routes.ts';
import { dashboardPlugin } from '../dashboard/plugin.ts';
import { adminRoute, type CommandRunner } from './admin-route.ts';

/** Every endpoint module, with its prefix. */
export async function registerRoutes(app: FastifyInstance, runCommand: CommandRunner | undefined): Promise<void> {
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
  for (const endpoint of DATA_ENDPOINTS) await app.register(endpoint.route, { prefix: DATA_API_PREFIX });
  await app.register(openApiRoute);
  await app.register(collectPlugin);
  await app.register(mcpRoute);
  await app.register(oauthRoutes);
  await registerTryOn(app);
  if (runCommand) await app.register(adminRoute(runCommand));
  await app.register(dashboardPlugin);
}
