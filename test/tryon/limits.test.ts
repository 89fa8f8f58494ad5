/**
 * Open upload reservations are capped per client network and per workspace.
 * Fixture: an app allowing 3 open reservations per client and 5 per workspace; each test makes
 * its own workspaces with the catalog of fixtures.ts, one with three verified origins
 * (https://a.example, https://b.example, https://c.example), the others with one. Clients are
 * told apart by the socket address inject() reports; a second app on the same stores trusts
 * X-Forwarded-For.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { createTestWorkspace, startTestApp, type TestApp } from '../helper.ts';
import { jobBody, manualTryOn, personJpeg, putUpload, setUpShop, uploadBody } from './fixtures.ts';

let t: TestApp;
let photo: Buffer;
const ORIGINS = ['https://a.example', 'https://b.example', 'https://c.example'];
const OTHER = 'https://other.example';

before(async () => {
  t = await startTestApp({ tryon: manualTryOn({ openUploadsPerClient: 3, openUploadsPerWorkspace: 5 }) });
  photo = await personJpeg(200, 300);
});

async function shop(name: string, origins: string[]): Promise<number> {
  const workspace = await createTestWorkspace(t.stores, name);
  await setUpShop(t, workspace.id, { origins });
  return workspace.id;
}

after(() => t.close());

const CLIENT_MESSAGE = 'This client already holds 3 open upload reservations; use them or wait until they expire';
const WORKSPACE_MESSAGE = 'The storefront has too many open upload reservations; try again in a few minutes';

async function reserve(workspaceId: number, origin: string, remoteAddress: string, headers: Record<string, string> = {}, app = t.app) {
  const response = await app.inject({
    method: 'POST',
    url: '/try-on/v1/uploads',
    remoteAddress,
    headers: { origin, ...headers },
    payload: { workspace_id: workspaceId, ...uploadBody(photo) },
  });
  return { status: response.statusCode, body: response.json() };
}

const sessionCount = async () => Number((await t.stores.db.selectFrom('tryon_sessions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const quota = (message: string) => ({ error: { code: 'quota_exceeded', message } });

test('a client rotating Origin headers (and workspaces) still gets only 3 open reservations; the refusal stores nothing', async () => {
  const many = await shop('Many origins', ORIGINS);
  const other = await shop('Other', [OTHER]);
  for (const origin of ORIGINS) assert.equal((await reserve(many, origin, '10.0.0.1')).status, 200);
  const sessions = await sessionCount();
  for (const origin of ORIGINS) assert.deepEqual(await reserve(many, origin, '10.0.0.1'), { status: 429, body: quota(CLIENT_MESSAGE) });
  assert.deepEqual(await reserve(other, OTHER, '10.0.0.1'), { status: 429, body: quota(CLIENT_MESSAGE) });
  // More reservations in a session the client already has count the same way.
  const inSession = await t.app.inject({
    method: 'POST', url: '/try-on/v1/uploads', remoteAddress: '10.0.0.1', headers: { origin: ORIGINS[0]! }, payload: { workspace_id: many, ...uploadBody(photo) },
  });
  assert.equal(inSession.statusCode, 429);
  assert.equal(await sessionCount(), sessions);
  // Another client is not affected.
  assert.equal((await reserve(other, OTHER, '10.0.0.2')).status, 200);
});

test('a reservation stops counting once it becomes a job, or after the 30 minutes the sweeper gives it', async () => {
  const other = await shop('Used', [OTHER]);
  const ip = '10.0.1.1';
  const first = await reserve(other, OTHER, ip);
  const second = await reserve(other, OTHER, ip);
  assert.equal((await reserve(other, OTHER, ip)).status, 200);
  assert.equal((await reserve(other, OTHER, ip)).status, 429);

  assert.equal((await putUpload(t, first.body.upload_url, photo, first.body.upload_headers)).status, 200);
  const job = await t.app.inject({
    method: 'POST', url: '/try-on/v1/jobs', remoteAddress: ip,
    headers: { origin: OTHER, 'x-try-on-session': first.body.session_token },
    payload: { workspace_id: other, ...jobBody(first.body) },
  });
  assert.equal(job.statusCode, 202);
  assert.equal((await reserve(other, OTHER, ip)).status, 200);
  assert.equal((await reserve(other, OTHER, ip)).status, 429);

  const longAgo = new Date(Date.now() - 31 * 60 * 1000).toISOString();
  await t.stores.db.updateTable('tryon_uploads').set({ created_at: longAgo }).where('upload_key', '=', second.body.upload_key).execute();
  assert.equal((await reserve(other, OTHER, ip)).status, 200);
});

test('a workspace holds at most 5 open reservations, whichever clients made them', async () => {
  const busy = await shop('Busy', ['https://busy.example']);
  const other = await shop('Quiet', [OTHER]);
  for (let i = 1; i <= 5; i++) assert.equal((await reserve(busy, 'https://busy.example', `10.0.2.${i}`)).status, 200);
  assert.deepEqual(await reserve(busy, 'https://busy.example', '10.0.2.6'), { status: 429, body: quota(WORKSPACE_MESSAGE) });
  // Other workspaces are not affected.
  assert.equal((await reserve(other, OTHER, '10.0.2.6')).status, 200);
});

test('IPv6 clients are counted by /64 network', async () => {
  const many = await shop('IPv6', ORIGINS);
  for (const host of ['1', '2', '3']) assert.equal((await reserve(many, ORIGINS[0]!, `2001:db8:1:2::${host}`)).status, 200);
  assert.deepEqual(await reserve(many, ORIGINS[1]!, '2001:db8:1:2:ffff:ffff:ffff:ffff'), { status: 429, body: quota(CLIENT_MESSAGE) });
  assert.equal((await reserve(many, ORIGINS[1]!, '2001:db8:1:3::1')).status, 200);
});

test('X-Forwarded-For names the client only when STORELENS_TRUST_PROXY is on', async () => {
  const other = await shop('Direct', [OTHER]);
  const many = await shop('Behind a proxy', ORIGINS);
  const ip = '10.0.3.1';
  for (const forwarded of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) assert.equal((await reserve(other, OTHER, ip, { 'x-forwarded-for': forwarded })).status, 200);
  assert.equal((await reserve(other, OTHER, ip, { 'x-forwarded-for': '192.0.2.4' })).status, 429);

  const logger = createLogger('silent');
  const limits = await createRateLimits(t.config.rate, null);
  const behindProxy = await buildApp({ config: { ...t.config, trustProxy: true }, stores: t.stores, limits, logger });
  await behindProxy.ready();
  try {
    const viaProxy = (forwarded: string) => reserve(many, ORIGINS[2]!, '10.0.3.2', { 'x-forwarded-for': forwarded }, behindProxy);
    for (const forwarded of ['198.51.100.1', '198.51.100.2', '198.51.100.2', '198.51.100.2']) assert.equal((await viaProxy(forwarded)).status, 200);
    assert.deepEqual(await viaProxy('198.51.100.2'), { status: 429, body: quota(CLIENT_MESSAGE) });
  } finally {
    await behindProxy.close();
    await limits.close();
  }
});
