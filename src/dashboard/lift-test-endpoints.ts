/**
 * Lift tests in the dashboard's settings (docs/dashboard.md, "Settings"): owners list the
 * workspace's lift tests and enter one, as `lift-test add` does; data_driven takes the measured
 * share instead of its fitted lift (docs/attribution.md, "data_driven").
 */
import type { FastifyInstance } from 'fastify';
import { InvalidInput } from '../kit/errors.ts';
import { addLiftTest, listLiftTests, parseLiftTest } from '../store/app/lift-tests.ts';
import { trackedSourceOf } from '../analytics/dimensions.ts';
import { requireOwner, workspaceAccess } from './access.ts';

const LIFT_TEST_BODY_LIMIT = 4_096;

export async function liftTestRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dashboard/api/lift-tests', async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    const tests = await listLiftTests(app.stores.db, access.workspaceId);
    return { lift_tests: tests.map((t) => ({ ...t, id: String(t.id) })) };
  });

  app.post<{ Body: unknown }>('/dashboard/api/lift-tests', { bodyLimit: LIFT_TEST_BODY_LIMIT }, async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    const body = request.body;
    const named = body !== null && typeof body === 'object' && 'source' in body && typeof body.source === 'string' ? body.source : '';
    const source = named.length <= 64 ? trackedSourceOf(named) : null;
    if (source === null) throw new InvalidInput('source must be a tracked channel, e.g. meta or google');
    const test = parseLiftTest({ ...(body as object), source });
    const added = await addLiftTest(app.stores.db, access.workspaceId, test, `dashboard:${request.dashboardUser!.email}`);
    return { lift_test: { ...added, id: String(added.id) } };
  });
}
