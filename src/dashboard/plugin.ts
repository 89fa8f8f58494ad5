/**
 * The dashboard for people (docs/dashboard.md): pages, the bundled browser code and the JSON
 * endpoints under /dashboard/api, authenticated by the session cookie.
 */
import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { authRoutes } from './auth.ts';
import { CONTENT_SECURITY_POLICY, pageRoutes } from './pages.ts';
import { viewRoutes } from './views.ts';
import { settingsRoutes } from './settings.ts';

export async function dashboardPlugin(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  app.decorateRequest('dashboardUser', null);
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      reply.header('x-frame-options', 'DENY');
    }
    return payload;
  });
  await pageRoutes(app);
  await authRoutes(app);
  await viewRoutes(app);
  await settingsRoutes(app);
}
