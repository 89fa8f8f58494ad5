import type { FastifyInstance } from 'fastify';
import { eventsRoute } from '../api/events/route.ts';
import { adminRoute } from '../cli/admin-route.ts';

/** Every endpoint module, with its prefix. */
export async function registerRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.register(eventsRoute, { prefix: '/v3' });
  await app.register(adminRoute);
}
