/**
 * The dashboard for people (docs/dashboard.md): pages, the bundled browser code and the JSON
 * endpoints under /dashboard/api, authenticated by the session cookie. The app-wide security
 * headers (src/http/security-headers.ts) cover every answer; the pages add their own CSP.
 */
import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { authRoutes } from './auth.ts';
import { pageRoutes } from './pages.ts';
import { viewRoutes } from './view-endpoints.ts';
import { settingsRoutes } from './settings-endpoints.ts';
import { surveyRoutes } from './survey-endpoints.ts';
import { formRoutes } from './form-endpoints.ts';
import { workflowRoutes } from './workflow-endpoints.ts';
import { exportRoutes } from './export-endpoints.ts';
import { savedReportRoutes } from './saved-report-endpoints.ts';
import { runInLane } from '../store/query-queue.ts';
import { geoTestRoutes } from './geo-test-endpoints.ts';
import { liftTestRoutes } from './lift-test-endpoints.ts';
import { loyaltyRoutes } from './loyalty-endpoints.ts';
import { creatorRoutes } from './creator-endpoints.ts';
import { aiVisibilityRoutes } from './ai-visibility-endpoints.ts';
import { setAsideSentZone } from './sent-zone.ts';

export async function dashboardPlugin(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  app.decorateRequest('dashboardUser', null);
  // A signed-in member's analytics reads run in a lane of their own in the engine queue, as an API
  // key's do: one member's heavy views wait behind each other, not in front of another's.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (request, reply) {
      const user = request.dashboardUser;
      return user ? runInLane(`user:${user.userId}`, () => handler.call(this, request, reply)) : handler.call(this, request, reply);
    };
  });
  app.addHook('preValidation', setAsideSentZone);
  await app.register(pageRoutes);
  await app.register(authRoutes);
  await app.register(viewRoutes);
  await app.register(settingsRoutes);
  await app.register(surveyRoutes);
  await app.register(formRoutes);
  await app.register(workflowRoutes);
  await app.register(exportRoutes);
  await app.register(savedReportRoutes);
  await app.register(geoTestRoutes);
  await app.register(liftTestRoutes);
  await app.register(loyaltyRoutes);
  await app.register(creatorRoutes);
  await app.register(aiVisibilityRoutes);
}
