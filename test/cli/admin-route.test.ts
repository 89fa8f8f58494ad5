/**
 * `POST /admin/cli` answers only clients on this machine (docs/operations.md, "Files and network"):
 * a remote peer, or a loopback peer that is a proxy handing a request on, gets 404 even with the
 * right token, however X-Forwarded-For is set. Fixture: an empty data dir; the command is a harmless
 * `workspace create`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp } from '../helper.ts';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { adminToken } from '../../src/server/runtime-files.ts';
import { runCommand } from '../../src/cli/run-command.ts';

let t: TestApp;
let trusting: FastifyInstance;
let remoteAllowed: FastifyInstance;

before(async () => {
  t = await startTestApp({ trustProxy: true });
  const limits = await createRateLimits(t.config.rate, null);
  remoteAllowed = await buildApp({ config: { ...t.config, adminRemote: true }, stores: t.stores, limits, logger: createLogger('silent'), runCommand });
  trusting = t.app;
});
after(async () => {
  await remoteAllowed.close();
  await t.close();
});

const send = (app: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/admin/cli',
    remoteAddress,
    headers: { authorization: `Bearer ${adminToken(t.config.dataDir)}`, ...headers },
    payload: { argv: ['workspace', 'create', '--name', 'Via admin'] },
  });

const result = (body: string) => JSON.parse(body.trim().split('\n').at(-1)!);

test('runs the command for a loopback client with the token', async () => {
  for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
    const response = await send(trusting, address);
    assert.equal(response.statusCode, 200, address);
    assert.equal(result(response.body).result.scopes[0], 'admin:admin');
  }
});

test('answers 404 to a remote client, also when it claims a loopback address in X-Forwarded-For', async () => {
  for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }] as Record<string, string>[]) {
    const response = await send(trusting, '203.0.113.7', headers);
    assert.deepEqual([response.statusCode, response.json()], [404, { message: 'Not found' }]);
  }
});

test('answers 404 to a request a local proxy hands on', async () => {
  for (const headers of [{ 'x-forwarded-for': '198.51.100.4' }, { forwarded: 'for=198.51.100.4' }, { 'x-real-ip': '198.51.100.4' }] as Record<string, string>[]) {
    const response = await send(trusting, '127.0.0.1', headers);
    assert.deepEqual([response.statusCode, response.json()], [404, { message: 'Not found' }], JSON.stringify(headers));
  }
});

test('serves remote clients with the token when STORELENS_ADMIN_REMOTE=1, and still wants the token', async () => {
  assert.equal((await send(remoteAllowed, '203.0.113.7')).statusCode, 200);
  const wrong = await remoteAllowed.inject({ method: 'POST', url: '/admin/cli', remoteAddress: '203.0.113.7', headers: { authorization: 'Bearer nope' }, payload: { argv: [] } });
  assert.deepEqual([wrong.statusCode, wrong.json()], [401, { message: 'Invalid admin token' }]);
});
