import type { FastifyInstance } from 'fastify';
import { DATA_API_PREFIX, DATA_ENDPOINTS } from '../api/endpoints.ts';
import { openApiRoute } from '../api/openapi/route.ts';
import { downloadRoute } from '../api/export/download-route.ts';
import { tryOnPlugin } from '../tryon/plugin.ts';
import { collectPlugin } from '../collect/plugin.ts';
import { mcpPlugin } from '../mcp/plugin.ts';
import { registryEntryRoute } from '../mcp/registry-entry.ts';
import { healthRoute } from '../http/health.ts';
import { oauthPlugin } from '../mcp/oauth/plugin.ts';
import { dashboardPlugin } from '../dashboard/plugin.ts';
import { adminRoute, type CommandRunner } from './admin-route.ts';
import { docsRoute } from './docs-route.ts';

/** Every surface, each one Fastify plugin, with its prefix. */
export async function registerRoutes(app: FastifyInstance, runCommand: CommandRunner | undefined): Promise<void> {
  await app.register(healthRoute);
  for (const endpoint of DATA_ENDPOINTS) await app.register(endpoint.route, { prefix: DATA_API_PREFIX });
  await app.register(downloadRoute, { prefix: DATA_API_PREFIX });
  await app.register(openApiRoute);
  await app.register(docsRoute);
  await app.register(collectPlugin);
  await app.register(mcpPlugin);
  await app.register(registryEntryRoute);
  await app.register(oauthPlugin);
  await app.register(tryOnPlugin);
  if (runCommand) await app.register(adminRoute, { runCommand });
  await app.register(dashboardPlugin);
}
