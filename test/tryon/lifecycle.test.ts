/**
 * Fixture: workspace "Shop" with the storefront and catalog of fixtures.ts, on one data dir that
 * is served twice: first by an app with the local compositor (no background loops), then, after
 * a simulated crash, by an app configured with the HTTP provider generator pointing at a small
 * provider server started by this file (its answers depend on the job's client_reference:
 * the first submission succeeds, the second is refused as content, the third as busy, the
 * fourth stays pending until it is cancelled). Time passing is
 * simulated by moving stored deadlines into the past.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../src/config.ts';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { openStores } from '../../src/store/index.ts';
import { claimJob } from '../../src/store/app/tryon-jobs.ts';
import { hashSecret } from '../../src/store/app/secrets.ts';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { ORIGIN, call, jobBody, manualTryOn, personJpeg, putUpload, setUpShop, sha256, uploadPhoto, type Client } from './fixtures.ts';

let t: TestApp;
let shop: TestWorkspace;
let photo: Buffer;
let provider: http.Server;
const submissions: string[] = [];
const providerCancels: string[] = [];

before(async () => {
  t = await startTestApp({ tryon: manualTryOn() });
  shop = await createTestWorkspace(t.stores, 'Shop');
  await setUpShop(t, shop.id);
  photo = await personJpeg(200, 300);
  provider = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'POST' && req.url === '/v1/edits') {
        const body = JSON.parse(raw) as { person_image: string; client_reference: string };
        submissions.push(body.client_reference);
        if (submissions.length === 3) return send(429, { error: { code: 'rate_limited', message: 'slow down' } });
        return send(202, { id: `edit-${submissions.length}`, person: body.person_image });
      }
      const id = req.url?.split('/').pop();
      if (req.method === 'DELETE') {
        providerCancels.push(id!);
        return send(200, { status: 'cancelled' });
      }
      if (req.method === 'GET' && id === 'edit-4') return send(200, { status: 'pending' });
      if (req.method === 'GET' && id === 'edit-1') return send(200, { status: 'done', image_base64: photo.toString('base64'), mime_type: 'image/jpeg' });
      if (req.method === 'GET' && id === 'edit-2') return send(200, { status: 'failed', error: { code: 'content_policy', message: 'internal provider detail' } });
      return send(404, { error: { code: 'not_found' } });
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
});

let crashed = false;
after(async () => {
  provider.close();
  if (crashed) fs.rmSync(t.config.dataDir, { recursive: true, force: true });
  else await t.close();
});

const client = (): Client => ({ workspaceId: shop.id, origin: ORIGIN, token: null });
const jobRow = (jobId: string) => t.stores.db.selectFrom('tryon_jobs').selectAll().where('job_id', '=', jobId).executeTakeFirstOrThrow();
const sessionOf = async (token: string) => {
  return t.stores.db.selectFrom('tryon_sessions').selectAll().where('token_hash', '=', hashSecret(token)).executeTakeFirstOrThrow();
};
const past = (ms: number) => new Date(Date.now() - ms).toISOString();
const file = (...parts: string[]) => path.join(t.config.dataDir, 'tryon', 'objects', ...parts);

describe('session lifetime and sweeper', () => {
  test('a session lives 23 hours from its first upload; later uploads and style changes do not extend it', async () => {
    const c = client();
    const first = await uploadPhoto(t, c, photo);
    const before = await sessionOf(c.token!);
    assert.equal(Date.parse(before.expires_at) - Date.parse(before.created_at), 23 * 3600 * 1000);
    await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(first));
    await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(first, { variant_id: 'blue-l' }));
    await uploadPhoto(t, c, photo);
    assert.equal((await sessionOf(c.token!)).expires_at, before.expires_at);
    await t.app.tryon.worker.drain();
  });

  test('after the deadline the sweeper deletes photos and results, fails pending jobs with session_expired and releases credits', async () => {
    const done = client();
    const a = await uploadPhoto(t, done, photo);
    await call(t, done, 'POST', '/try-on/v1/jobs', jobBody(a));
    await t.app.tryon.worker.drain();
    const pending = client();
    const b = await uploadPhoto(t, pending, photo);
    await call(t, pending, 'POST', '/try-on/v1/jobs', jobBody(b));
    for (const c of [done, pending]) {
      await t.stores.db.updateTable('tryon_sessions').set({ expires_at: past(1000) }).where('id', '=', (await sessionOf(c.token!)).id).execute();
    }
    assert.equal(fs.existsSync(file(a.job_id, 'result')), true);

    const swept = await t.app.tryon.sweep();
    assert.ok(swept.sessions >= 2);
    for (const key of [file(a.upload_key, 'photo'), file(a.job_id, 'result'), file(b.upload_key, 'photo')]) assert.equal(fs.existsSync(key), false, key);
    const failed = await jobRow(b.job_id);
    assert.deepEqual([failed.status, failed.reason, failed.credit], ['failed', 'session_expired', 'released']);
    assert.equal((await jobRow(a.job_id)).credit, 'committed');
    const poll = await call(t, done, 'GET', `/try-on/v1/jobs/${a.job_id}`);
    assert.deepEqual([poll.status, poll.body], [410, { error: { code: 'session_expired', message: 'The try-on session has expired' } }]);
    assert.notEqual((await sessionOf(done.token!)).media_deleted_at, null);
    assert.deepEqual(await t.app.tryon.sweep(), { sessions: 0, orphan_uploads: 0, leads: 0 });
  });

  test('uploads that never became a job are deleted after 30 minutes; younger ones are kept', async () => {
    const c = client();
    const old = await call(t, c, 'POST', '/try-on/v1/uploads', {
      consent: true, adult: true, consent_version: 'c2', bytes: photo.length, mime_type: 'image/jpeg',
      checksum_sha256: sha256(photo),
    });
    c.token = old.body.session_token;
    assert.equal((await putUpload(t, old.body.upload_url, photo, old.body.upload_headers)).status, 200);
    const young = await uploadPhoto(t, c, photo);
    await t.stores.db.updateTable('tryon_uploads').set({ created_at: past(31 * 60 * 1000) }).where('upload_key', '=', old.body.upload_key).execute();
    assert.deepEqual(await t.app.tryon.sweep(), { sessions: 0, orphan_uploads: 1, leads: 0 });
    assert.equal(fs.existsSync(file(old.body.upload_key, 'photo')), false);
    assert.equal(fs.existsSync(file(young.upload_key, 'photo')), true);
  });

  test('leads are kept 30 days (the default retention) and then deleted by the sweeper; younger ones stay', async () => {
    assert.equal(t.config.tryon.leadRetentionDays, 30);
    const leadFor = async (email: string) => {
      const c = client();
      const reservation = await uploadPhoto(t, c, photo);
      await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
      await t.app.tryon.worker.drain();
      const lead = await call(t, c, 'POST', `/try-on/v1/jobs/${reservation.job_id}/leads`, { email, marketing_consent: true, marketing_version: 'm1' });
      assert.deepEqual(lead.body, { status: 'received', created: true });
      return reservation.job_id;
    };
    const old = await leadFor('old@example.com');
    const young = await leadFor('young@example.com');
    const day = 24 * 3600 * 1000;
    await t.stores.db.updateTable('tryon_leads').set({ created_at: past(30 * day + 60_000) }).where('job_id', '=', old).execute();
    await t.stores.db.updateTable('tryon_leads').set({ created_at: past(30 * day - 60_000) }).where('job_id', '=', young).execute();
    assert.deepEqual(await t.app.tryon.sweep(), { sessions: 0, orphan_uploads: 0, leads: 1 });
    const left = await t.stores.db.selectFrom('tryon_leads').select('email').where('job_id', 'in', [old, young]).execute();
    assert.deepEqual(left, [{ email: 'young@example.com' }]);
  });
});

async function reopen(config: Config) {
  const logger = createLogger('silent');
  const stores = await openStores(config, logger);
  const limits = await createRateLimits(config.rate, config.redisUrl);
  const app = await buildApp({ config, stores, limits, logger });
  await app.ready();
  return { app, stores, async close() { await app.close(); await limits.close(); await stores.close(); } };
}

describe('restart and the HTTP provider', () => {
  test('after a crash, pending jobs resume or fail cleanly; provider outcomes map to safe reasons; DELETE cancels at the provider', async () => {
    const c = client();
    const orphaned = await uploadPhoto(t, c, photo);
    await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(orphaned));
    // A worker holds this job when the process dies; its lease then runs out.
    const held = await claimJob(t.stores.db, 'dead-process', new Date(), 30_000);
    assert.equal(held?.job_id, orphaned.job_id);
    const rejected = (await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(orphaned, { variant_id: 'blue-l' }))).body.job_id;
    const d = client();
    const second = await uploadPhoto(t, d, photo);
    const busy = (await call(t, d, 'POST', '/try-on/v1/jobs', jobBody(second))).body.job_id;
    const e = client();
    const third = await uploadPhoto(t, e, photo);
    await call(t, e, 'POST', '/try-on/v1/jobs', jobBody(third));
    await t.stores.db.updateTable('tryon_jobs').set({ tries: 3, lease: 'dead-process', lease_until: past(1) }).where('job_id', '=', third.job_id).execute();

    crashed = true;
    await t.app.close();
    await t.stores.close();
    const config: Config = {
      ...t.config,
      tryon: { ...t.config.tryon, generator: 'http', providerUrl: `http://127.0.0.1:${(provider.address() as AddressInfo).port}`, workerIntervalMs: 20 },
    };
    const next = await reopen(config);
    try {
      // The dead process's lease runs out (30 s in real time).
      await next.stores.db.updateTable('tryon_jobs').set({ lease_until: past(1) }).where('job_id', '=', orphaned.job_id).execute();
      const statuses = async () =>
        Object.fromEntries(
          (await next.stores.db.selectFrom('tryon_jobs').select(['job_id', 'status', 'reason', 'credit']).where('job_id', 'in', [orphaned.job_id, rejected, busy, third.job_id]).execute())
            .map((j) => [j.job_id, [j.status, j.reason, j.credit]]),
        );
      const deadline = Date.now() + 20_000;
      while (Object.values(await statuses()).some(([status]) => status === 'pending') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.deepEqual(await statuses(), {
        [orphaned.job_id]: ['done', '', 'committed'],
        [rejected]: ['failed', 'content_rejected', 'released'],
        [busy]: ['failed', 'provider_busy', 'released'],
        [third.job_id]: ['failed', 'generation_failed', 'released'],
      });
      assert.deepEqual(submissions, [orphaned.job_id, rejected, busy]);
      const poll = await next.app.inject({
        method: 'GET', url: `/try-on/v1/jobs/${rejected}?workspace_id=${shop.id}`, headers: { origin: ORIGIN, 'x-try-on-session': c.token! },
      });
      assert.deepEqual(poll.json(), { status: 'failed', reason: 'content_rejected' });

      // DELETE while the provider is still working: the worker stops polling and cancels there.
      const live = { ...t, app: next.app, stores: next.stores };
      const f = client();
      const fourth = await uploadPhoto(live, f, photo);
      await call(live, f, 'POST', '/try-on/v1/jobs', jobBody(fourth));
      for (const until = Date.now() + 10_000; submissions.length < 4 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
      assert.equal(submissions[3], fourth.job_id);
      assert.deepEqual((await call(live, f, 'DELETE', `/try-on/v1/jobs/${fourth.job_id}`)).body, { status: 'cancelled' });
      for (const until = Date.now() + 10_000; providerCancels.length === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(providerCancels, ['edit-4']);
      assert.deepEqual((await call(live, f, 'GET', `/try-on/v1/jobs/${fourth.job_id}`)).body, { status: 'cancelled' });
      assert.equal(fs.existsSync(file(fourth.job_id, 'result')), false);
    } finally {
      await next.close();
    }
  });
});
