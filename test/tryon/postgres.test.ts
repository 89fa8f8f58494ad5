/**
 * Fixture: the app state on a throwaway PostgreSQL database (created and dropped here, on the
 * local server at postgres://postgres@127.0.0.1:5432), analytics on chDB as usual. Workspace
 * "Shop" with the storefront and catalog of fixtures.ts. It runs the try-on flow's database
 * paths (hashed session, conditional publish, credits, lead uniqueness, sweeper) on the
 * PostgreSQL dialect, and concurrent reservations against the open-reservation limit of a
 * second app on the same stores (workspace "Busy", limit 5).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { findUsage } from '../../src/store/app/tryon-jobs.ts';
import { createTestWorkspace, createThrowawayPostgres, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { ORIGIN, call, jobBody, personJpeg, setUpShop, uploadBody, uploadPhoto, manualTryOn, type Client } from './fixtures.ts';

let t: TestApp;
let shop: TestWorkspace;
let postgres: Awaited<ReturnType<typeof createThrowawayPostgres>>;

before(async () => {
  postgres = await createThrowawayPostgres('tryon');
  t = await startTestApp({ databaseUrl: postgres.url, tryon: manualTryOn() });
  shop = await createTestWorkspace(t.stores, 'Shop');
  await setUpShop(t, shop.id);
});

after(async () => {
  await t?.close();
  await postgres?.drop();
});

test('on PostgreSQL: upload, idempotent job, conditional publish, credits, one lead per result, delete and sweep', async () => {
  const c: Client = { workspaceId: shop.id, origin: ORIGIN, token: null };
  const reservation = await uploadPhoto(t, c, await personJpeg(200, 300));
  const first = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
  const again = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
  assert.deepEqual([first.status, again.body], [202, { job_id: reservation.job_id, status: 'pending' }]);
  assert.equal(await t.app.tryon.worker.drain(), 1);
  assert.equal((await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.job_id}`)).body.status, 'done');
  const usage = await findUsage(t.stores.db, shop.id, new Date().toISOString().slice(0, 10));
  assert.deepEqual([usage?.attempts, usage?.credits_reserved, usage?.credits_committed], [1, 0, 1]);

  const lead = { email: 'ana@example.com', marketing_consent: true, marketing_version: 'm1' };
  const url = `/try-on/v1/jobs/${reservation.job_id}/leads`;
  assert.deepEqual((await call(t, c, 'POST', url, lead)).body, { status: 'received', created: true });
  assert.deepEqual((await call(t, c, 'POST', url, lead)).body, { status: 'received', created: false });
  assert.equal((await call(t, c, 'POST', url, { ...lead, email: 'bo@example.com' })).status, 409);

  assert.deepEqual((await call(t, c, 'DELETE', `/try-on/v1/jobs/${reservation.job_id}`)).body, { status: 'cancelled' });
  assert.deepEqual((await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.job_id}`)).body, { status: 'cancelled' });
  await t.stores.db.updateTable('tryon_sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
  assert.deepEqual(await t.app.tryon.sweep(), { sessions: 1, orphan_uploads: 0, leads: 0 });
});

test('on PostgreSQL: concurrent reservations never overshoot the workspace limit', async () => {
  const busy = await createTestWorkspace(t.stores, 'Busy');
  await setUpShop(t, busy.id);
  const logger = createLogger('silent');
  const limits = await createRateLimits(t.config.rate, null);
  const app = await buildApp({ config: { ...t.config, tryon: { ...t.config.tryon, openUploadsPerWorkspace: 5 } }, stores: t.stores, limits, logger });
  await app.ready();
  try {
    const photo = await personJpeg(100, 150);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        app.inject({ method: 'POST', url: '/try-on/v1/uploads', remoteAddress: `10.9.0.${i + 1}`, headers: { origin: ORIGIN }, payload: { workspace_id: busy.id, ...uploadBody(photo) } }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [...Array(5).fill(200), ...Array(7).fill(429)]);
    const stored = await t.stores.db.selectFrom('tryon_uploads').select('id').where('workspace_id', '=', busy.id).execute();
    assert.equal(stored.length, 5);
  } finally {
    await app.close();
    await limits.close();
  }
});
