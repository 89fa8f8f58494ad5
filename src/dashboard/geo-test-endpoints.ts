/**
 * The geo tests view's endpoints (docs/dashboard.md, "Geo tests"): every member reads the tests
 * with their results; owners set one up, as `geo-test create` does.
 */
import type { FastifyInstance } from 'fastify';
import { geoTestResult } from '../analytics/geo-test-result.ts';
import { createGeoTest, listGeoTests, parseGeoTest } from '../store/app/geo-tests.ts';
import { requireOwner, workspaceAccess } from './access.ts';

const GEO_TEST_BODY_LIMIT = 16_384;

export async function geoTestRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dashboard/api/geo-tests', async (request) => {
    const access = workspaceAccess(request);
    const tests = await listGeoTests(app.stores.db, access.workspaceId, { limit: 500, offset: 0 });
    const now = Date.now();
    return {
      tests: await Promise.all(tests.map(async (test) => ({
        id: String(test.id), ...test.data, ...(await geoTestResult(app.stores.ch, access, test.data, access.timeZone, now)),
      }))),
    };
  });

  app.post<{ Body: unknown }>('/dashboard/api/geo-tests', { bodyLimit: GEO_TEST_BODY_LIMIT }, async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    const test = parseGeoTest(request.body);
    const created = await createGeoTest(app.stores.db, access.workspaceId, test, `dashboard:${request.dashboardUser!.email}`);
    return { geo_test: { id: String(created.id), ...created.data } };
  });
}
