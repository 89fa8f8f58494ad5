/**
 * `/healthz` and what the service does when a dependency goes away (docs/operations.md).
 * Fixture: one workspace with three admin keys and no analytics rows; requests are cheap
 * `GET /v3/events` and `notes.get-notes` tool calls. The Redis is a throwaway `redis-server`
 * this file starts on a free port in a temp dir, stops and starts again.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits, type RateLimits } from '../../src/http/rate-limit.ts';
import { dataDirCheck } from '../../src/store/data-dir-check.ts';
import { callTool } from '../mcp/rpc.ts';
import { freePort } from '../support/free-port.ts';

/** The collector's check with nothing waiting in its log (docs/operations.md). */
const IDLE_COLLECTOR = { status: 'ok', wal: { segments: 0, bytes: 0, oldest_segment_at: null }, dead_letters: { rows: 0 } };

let t: TestApp;
let shop: TestWorkspace;
let outageKey: Record<string, string>;
let hangKey: Record<string, string>;
const redisDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-redis-'));

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  outageKey = await shop.keyHeaders(['admin:admin']);
  hangKey = await shop.keyHeaders(['admin:admin']);
});
after(async () => {
  await t.close();
  fs.rmSync(redisDir, { recursive: true, force: true });
});

/** A Redis without persistence on `port`; resolves once it accepts connections. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir], { stdio: 'ignore' });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const probe = new Redis({ port, lazyConnect: true, retryStrategy: () => null, enableOfflineQueue: false });
    probe.on('error', () => {});
    const up = await probe.connect().then(() => probe.ping(), () => null);
    probe.disconnect();
    if (up === 'PONG') return child;
    await sleep(50);
  }
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const health = async (app: FastifyInstance) => {
  const response = await app.inject({ method: 'GET', url: '/healthz' });
  return { status: response.statusCode, body: response.json() };
};

const events = async (app: FastifyInstance, headers: Record<string, string>) =>
  (await app.inject({ method: 'GET', url: '/v3/events?start_date=2020-01-01&end_date=2020-01-01', headers })).statusCode;

/** Polls /healthz until `done` holds (ioredis reconnects on its own schedule, at most 2 s apart). */
async function healthUntil(app: FastifyInstance, done: (body: any) => boolean) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await health(app);
    if (done(answer.body) || Date.now() > deadline) return answer;
    await sleep(100);
  }
}

test('answers 200 {"status":"ok"} with one named check per dependency', async () => {
  assert.deepEqual(await health(t.app), { status: 200, body: { status: 'ok', checks: { analytics: 'ok', app_state: 'ok', data_dir: 'ok', collect: IDLE_COLLECTOR } } });
});

test('keeps serving on process-memory limits while Redis is down or hangs, says so in /healthz and the log, and uses Redis again once it is back', async () => {
  const port = await freePort();
  const prefix = `storelens-test-${randomUUID()}`;
  const lines: any[] = [];
  const logger = pino({ level: 'warn' }, new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
  let redis = await startRedis(port);
  let limits: RateLimits | null = null;
  let app: FastifyInstance | null = null;
  const clients: Redis[] = [];
  /** A client of the throwaway Redis for looking at its keys; closed at the end. */
  const inspect = () => {
    const client = new Redis({ port, retryStrategy: () => null });
    client.on('error', () => {});
    clients.push(client);
    return client;
  };
  try {
    // Only the daily quota: unlike the token bucket, nothing refills it while a slow machine runs the test.
    const rate = { perSecond: 0, burst: 0, daily: 6, redisPrefix: prefix };
    limits = await createRateLimits(rate, `redis://127.0.0.1:${port}`, logger);
    app = await buildApp({ config: { ...t.config, rate, redisUrl: `redis://127.0.0.1:${port}` }, stores: t.stores, limits, logger });
    const client = inspect();
    const counterKeys = () => client.keys(`${prefix}:daily:*`);

    assert.equal(await events(app, shop.headers), 200);
    assert.deepEqual((await health(app)).body, { status: 'ok', checks: { analytics: 'ok', app_state: 'ok', data_dir: 'ok', redis: 'ok', collect: IDLE_COLLECTOR } });
    assert.equal((await counterKeys()).length, 1, 'the counter lives in Redis');

    await stopRedis(redis);
    // Requests and tool calls still succeed; the limits hold, counted in this process's memory.
    assert.equal(await events(app, outageKey), 200);
    assert.equal((await callTool(app, outageKey, 'notes.get-notes')).result?.isError, false);
    for (let i = 0; i < 4; i++) assert.equal(await events(app, outageKey), 200);
    assert.equal(await events(app, outageKey), 429, 'the quota of 6 is spent in memory');
    assert.deepEqual(await health(app), {
      status: 200,
      body: { status: 'degraded', checks: { analytics: 'ok', app_state: 'ok', data_dir: 'ok', redis: 'unreachable: rate limits use process memory', collect: IDLE_COLLECTOR } },
    });

    redis = await startRedis(port);
    const back = await healthUntil(app, (body) => body.checks.redis === 'ok');
    assert.deepEqual(back, { status: 200, body: { status: 'ok', checks: { analytics: 'ok', app_state: 'ok', data_dir: 'ok', redis: 'ok', collect: IDLE_COLLECTOR } } });
    const fresh = inspect();
    assert.deepEqual(await fresh.keys(`${prefix}:daily:*`), [], 'the restarted Redis starts empty');
    assert.equal(await events(app, shop.headers), 200);
    assert.equal((await fresh.keys(`${prefix}:daily:*`)).length, 1, 'counting happens in Redis again');

    // A Redis that hangs with the connection open (stopped, not gone): requests still answer.
    redis.kill('SIGSTOP');
    assert.equal(await events(app, hangKey), 200);
    assert.equal((await health(app)).body.status, 'degraded');
    redis.kill('SIGCONT');
    const deadline = Date.now() + 30_000;
    // After a failure on an open connection, a request tries Redis again every 2 s.
    while ((await health(app)).body.status !== 'ok' && Date.now() < deadline) {
      assert.equal(await events(app, await shop.keyHeaders(['admin:admin'])), 200);
      await sleep(500);
    }
    assert.deepEqual((await health(app)).body.checks.redis, 'ok');

    const messages = lines.map((line) => line.msg).filter((m) => /Redis/.test(m));
    const unreachable = 'Redis unreachable: rate limits use process memory until it is back';
    const reachable = 'Redis reachable again: rate limits use Redis';
    assert.deepEqual(messages, [unreachable, reachable, unreachable, reachable], 'one warning per transition');
  } finally {
    for (const client of clients) client.disconnect();
    await app?.close();
    await limits?.close();
    redis.kill('SIGCONT');
    await stopRedis(redis);
  }
});

test('reports a data dir it cannot write to as degraded, still answering 200', async () => {
  // Tests run as root here, for whom modes do not stop writes: a plain file stands in for the dir.
  const notADir = path.join(redisDir, 'not-a-dir');
  fs.writeFileSync(notADir, '');
  const app = await buildApp({
    config: t.config,
    stores: { ...t.stores, checks: [...t.stores.checks.filter((c) => c.name !== 'data_dir'), dataDirCheck(notADir)] },
    limits: await createRateLimits(t.config.rate, null),
    logger: pino({ level: 'silent' }),
  });
  try {
    assert.deepEqual(await health(app), {
      status: 200,
      body: { status: 'degraded', checks: { analytics: 'ok', app_state: 'ok', data_dir: 'not writable (ENOTDIR)', collect: IDLE_COLLECTOR } },
    });
  } finally {
    await app.close();
  }
});

test('answers 503 with the failing check when the app state cannot be used', async () => {
  await t.stores.db.destroy();
  const answer = await health(t.app);
  assert.equal(answer.status, 503);
  assert.equal(answer.body.status, 'unavailable');
  assert.equal(answer.body.checks.analytics, 'ok');
  assert.notEqual(answer.body.checks.app_state, 'ok');
  assert.equal(typeof answer.body.checks.app_state, 'string');
});
