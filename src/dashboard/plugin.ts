/**
 * The dashboard for people (docs/dashboard.md): pages, the bundled browser code and the JSON
 * endpoints under /dashboard/api, authenticated by the session cookie. The app-wide security
 * headers (src/http/security-headers.ts) cover every answer; the pages add their own CSP.
 */
import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { requireUser, sessionRoutes, signInRoute } from './auth.ts';
import { pageRoutes } from './pages.ts';
import { overviewRoutes } from './overview-endpoints.ts';
import { reportRoutes } from './report-endpoints.ts';
import { conversionRoutes } from './conversion-endpoints.ts';
import { profitRoutes } from './profit-endpoints.ts';
import { productRoutes } from './product-endpoints.ts';
import { booksRoutes } from './books-endpoints.ts';
import { customerRoutes } from './customer-endpoints.ts';
import { liveRoutes } from './live-endpoints.ts';
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

/** The JSON endpoint files under /dashboard/api, each registered behind the session hook. */
const ENDPOINTS = [
  sessionRoutes,
  overviewRoutes,
  reportRoutes,
  conversionRoutes,
  profitRoutes,
  productRoutes,
  booksRoutes,
  customerRoutes,
  liveRoutes,
  settingsRoutes,
  surveyRoutes,
  formRoutes,
  workflowRoutes,
  exportRoutes,
  savedReportRoutes,
  geoTestRoutes,
  liftTestRoutes,
  loyaltyRoutes,
  creatorRoutes,
  aiVisibilityRoutes,
];

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
  await app.register(signInRoute);
  // Every other JSON endpoint in one context under one hook, so none can be added without a session.
  await app.register(async (signedIn) => {
    signedIn.addHook('onRequest', requireUser(signedIn));
    for (const routes of ENDPOINTS) await signedIn.register(routes);
  });
}
