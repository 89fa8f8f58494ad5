/**
 * The scale-out deployment, run for real: two API processes (`npm start`'s command) started at
 * the same moment, behind one port (a round-robin proxy here), sharing PostgreSQL app state, one
 * ClickHouse (the stand-in of test/support), Redis limits and the try-on media directory.
 * The same request gets the same answer from either node (the report's computed once, shared
 * through Redis), a key's quota is one quota across nodes, and a try-on job accepted by one node
 * is finished and polled through the other.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { openAppDb, type AppDatabase } from '../../src/store/app-db.ts';
import { openClickhouse, type Clickhouse } from '../../src/store/clickhouse.ts';
import { createWorkspace } from '../../src/store/app/workspaces.ts';
import { createApiKey } from '../../src/store/app/api-keys.ts';
import { upsertStorefront } from '../../src/store/app/tryon-storefronts.ts';
import { createLogger } from '../../src/log.ts';
import { analyticsMigrations } from '../../src/store/migrations/analytics/index.ts';
import { createThrowawayPostgres, type TestApp } from '../helper.ts';
import { startClickhouseStandin, type ClickhouseStandin } from '../support/standin.ts';
import { ORIGIN, call, jobBody, personJpeg, referencePng, uploadPhoto, versionDaysAgo, type Client } from '../tryon/fixtures.ts';

const MAIN = path.join(import.meta.dirname, '../../src/cli/main.ts');
const QUOTA = 6;
const REDIS_URL = 'redis://127.0.0.1:6379';
const REDIS_PREFIX = `storelens-test:scale-out:${process.pid}:${Date.now()}`;

let postgres: Awaited<ReturnType<typeof createThrowawayPostgres>>;
let standin: ClickhouseStandin;
let proxy: http.Server;
let db: AppDatabase;
let ch: Clickhouse;
const nodes: { base: string; process: ChildProcess; output: string[] }[] = [];
const dirs: string[] = [];

const freePort = () => new Promise<number>((resolve) => {
  const probe = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as net.AddressInfo;
    probe.close(() => resolve(port));
  });
});

const tempDir = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `storelens-${name}-`));
  dirs.push(dir);
  return dir;
};

/** Forwards each request to the next node in turn. */
function roundRobin(targets: string[]): Promise<{ server: http.Server; base: string }> {
  let next = 0;
  const server = http.createServer((request, response) => {
    const target = new URL(request.url ?? '/', targets[next++ % targets.length]);
    const upstream = http.request(target, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ server, base: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}` });
  }));
}

async function waitForHealth(node: (typeof nodes)[number]): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (node.process.exitCode !== null) throw new Error(`node exited: ${node.output.join('')}`);
    const ok = await fetch(`${node.base}/healthz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`node did not come up: ${node.output.join('')}`);
}

/** The try-on fixtures' calls (written for `app.inject`) sent over HTTP to `base`. */
function overHttp(base: string): TestApp {
  const inject = async (options: { method: string; url: string; headers?: Record<string, string>; payload?: unknown }) => {
    const raw = Buffer.isBuffer(options.payload);
    const response = await fetch(`${base}${options.url}`, {
      method: options.method,
      headers: { ...options.headers, ...(options.payload !== undefined && !raw ? { 'content-type': 'application/json' } : {}) },
      body: options.payload === undefined ? undefined : raw ? new Uint8Array(options.payload as Buffer) : JSON.stringify(options.payload),
    });
    const body = await response.text();
    return { statusCode: response.status, body, headers: Object.fromEntries(response.headers), json: () => JSON.parse(body) };
  };
  return { app: { inject } } as unknown as TestApp;
}

before(async () => {
  postgres = await createThrowawayPostgres('scale_out');
  standin = await startClickhouseStandin();
  const ports = [await freePort(), await freePort()];
  const front = await roundRobin(ports.map((port) => `http://127.0.0.1:${port}`));
  proxy = front.server;
  const media = tempDir('media');
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    DATABASE_URL: postgres.url,
    CLICKHOUSE_URL: standin.url,
    REDIS_URL,
    STORELENS_REDIS_PREFIX: REDIS_PREFIX,
    STORELENS_PUBLIC_URL: front.base,
    STORELENS_SECRET_KEY: 'b'.repeat(64),
    STORELENS_TRYON_SIGNING_SECRET: 'shared-signing-secret-of-this-test',
    STORELENS_TRYON_WORKER_INTERVAL_MS: '100',
    STORELENS_DEMO: '0',
    STORELENS_RATE_PER_SECOND: '0',
    STORELENS_RATE_BURST: '0',
    STORELENS_DAILY_QUOTA: String(QUOTA),
    LOG_LEVEL: 'warn',
  };
  // Both nodes start at once: migrations race unless start-up takes its lock.
  for (const port of ports) {
    const dataDir = tempDir('node');
    fs.symlinkSync(media, path.join(dataDir, 'tryon'));
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'start'], {
      env: { ...env, PORT: String(port), STORELENS_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout!.on('data', (chunk) => output.push(String(chunk)));
    child.stderr!.on('data', (chunk) => output.push(String(chunk)));
    nodes.push({ base: `http://127.0.0.1:${port}`, process: child, output });
  }
  await Promise.all(nodes.map(waitForHealth));
  db = await openAppDb({ databaseUrl: postgres.url, dataDir: tempDir('client') });
  ch = await openClickhouse({ url: standin.url, dataDir: '', chdbSessions: 1 }, createLogger('silent'));
});

after(async () => {
  for (const node of nodes) {
    node.process.kill('SIGTERM');
    if (node.process.exitCode === null) await new Promise((resolve) => node.process.once('exit', resolve));
  }
  proxy?.close();
  await ch?.close();
  await db?.destroy();
  await standin?.stop();
  await postgres?.drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

test('every migration ran once though both nodes started together', async () => {
  const rows = await ch.query<{ id: number; times: string }>('test', 'SELECT id, toString(count()) AS times FROM schema_migrations GROUP BY id ORDER BY id');
  assert.deepEqual(rows, analyticsMigrations.map((m) => ({ id: m.id, times: '1' })));
});

test('either node gives the same answers, a quota is shared, a try-on job crosses nodes', async () => {
  const workspace = await createWorkspace(db, { name: 'Two nodes', currency: 'USD', timezone: 'UTC' });
  const admin = await createApiKey(db, workspace.id, ['admin:admin']);
  const headers = { 'x-api-key': admin.api_key, 'client-secret': admin.client_secret };
  const today = new Date().toISOString().slice(0, 10);
  const event = (session_id: number, minute: number, adv_source: string) =>
    JSON.stringify({ store_id: workspace.id, dt: `${today} 00:${String(minute).padStart(2, '0')}:00.000`, name: 'pageview', session_id, visitor_id: session_id, adv_source });
  await ch.insertNdjson('events', [event(1, 1, 'google'), event(2, 2, 'facebook'), event(3, 3, '')].join('\n'));
  await ch.insertNdjson('conversions', JSON.stringify({
    store_id: workspace.id, dt: `${today} 00:05:00.000`, name: 'purchase', session_id: 1, visitor_id: 1, transaction_id: 't1', transaction_gross_revenue: 4200,
  }));

  // Same answers (QUOTA - 2 requests of the admin key's quota).
  const answers = [];
  for (const node of nodes) {
    for (const url of ['/v3/events', '/v3/report?breakdown=source']) {
      const response = await fetch(`${node.base}${url}`, { headers });
      assert.equal(response.status, 200);
      answers.push({ url, body: await response.json() });
    }
  }
  assert.deepEqual(answers[2], answers[0]);
  assert.deepEqual(answers[3], answers[1]);
  assert.equal((answers[0].body as { data: unknown[] }).data.length, 3);
  assert.equal((answers[1].body as { totals: { revenue: number } }).totals.revenue, 42);
  const redis = new Redis(REDIS_URL);
  const sharedAnswers = await redis.keys(`${REDIS_PREFIX}:result:answer:*`);
  redis.disconnect();
  assert.equal(sharedAnswers.length, 1, 'the report answer one node computed is shared through Redis');

  // One quota: the requests above went to both nodes; two more pass, the next is refused wherever it lands.
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await fetch(`${nodes[i % 2].base}/v3/events`, { headers })).status);
  assert.deepEqual(statuses, [200, 200, 429, 429]);

  // Try-on: reserve and upload through the shared port, accept the job on node A, poll it on node B.
  const image = await referencePng(path.join(tempDir('catalog'), 'tee.png'));
  await upsertStorefront(db, workspace.id, { origins: [ORIGIN], consentVersion: 'c2', marketingVersion: 'm1' });
  await ch.insertNdjson('products', JSON.stringify({
    store_id: workspace.id, product_handle: 'tee', variant_id: 'red-m', title: 'Tee', image_path_or_url: image, cost: 900, version: versionDaysAgo(1),
  }));
  const shopper: Client = { workspaceId: workspace.id, origin: ORIGIN, token: null };
  const reservation = await uploadPhoto(overHttp(new URL(nodes[0].base).origin), shopper, await personJpeg(200, 300));
  const accepted = await call(overHttp(nodes[0].base), shopper, 'POST', '/try-on/v1/jobs', jobBody(reservation));
  assert.equal(accepted.status, 202);
  let status = 'pending';
  for (let i = 0; i < 300 && status === 'pending'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await call(overHttp(nodes[1].base), shopper, 'GET', `/try-on/v1/jobs/${reservation.job_id}`)).body.status;
  }
  assert.equal(status, 'done');
});
