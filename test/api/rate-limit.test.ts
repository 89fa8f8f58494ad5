/**
 * Fixture: one workspace with two admin keys and no analytics rows; every request is a cheap
 * GET /v3/events. Each scenario builds its own app over the same stores with small limits, once
 * with in-memory counters and once with counters on the local Redis (a prefix unique to this run,
 * removed afterwards).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import type { Config } from '../../src/config.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const PREFIX = `storelens-test-${randomUUID()}`;

let t: TestApp;
let shop: TestWorkspace;
let otherKey: Record<string, string>;
const closers: (() => Promise<void>)[] = [];

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  otherKey = await shop.keyHeaders(['admin:admin']);
});

after(async () => {
  for (const close of closers) await close();
  await t.close();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

/** An app over the shared stores with its own limits; `prefix` lets two apps share Redis counters. */
async function limitedApp(rate: Config['rate'], redisUrl: string | null, clock?: () => number): Promise<FastifyInstance> {
  const limits = await createRateLimits(rate, redisUrl, undefined, clock);
  const app = await buildApp({ config: { ...t.config, rate, redisUrl }, stores: t.stores, limits, logger: createLogger('silent') });
  closers.push(async () => {
    await app.close();
    await limits.close();
  });
  return app;
}

const hit = async (app: FastifyInstance, headers: Record<string, string> = shop.headers) => {
  const r = await app.inject({ method: 'GET', url: '/v3/events?start_date=2020-01-01&end_date=2020-01-01', headers });
  return { status: r.statusCode, body: r.json(), headers: r.headers };
};

/**
 * A limiter clock that moves only when the test moves it: on a busy machine the real one can pass
 * a second between two requests and refill a bucket the test expects empty.
 */
function manualClock() {
  let now = Date.now();
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const secondsToUtcMidnight = (ms: number) => Math.ceil((Math.floor(ms / 86_400_000 + 1) * 86_400_000 - ms) / 1000);

for (const store of ['memory', 'redis'] as const) {
  const redisUrl = store === 'redis' ? REDIS_URL : null;
  const prefix = (name: string) => `${PREFIX}:${store}:${name}`;

  describe(`rate limits (${store})`, () => {
    test('answers 429 with Retry-After and RateLimit headers once a key spends its burst', async () => {
      const app = await limitedApp({ perSecond: 1, burst: 3, daily: 0, redisPrefix: prefix('burst') }, redisUrl, manualClock().now);
      const passed = [];
      for (let i = 0; i < 3; i++) passed.push(await hit(app));
      assert.deepEqual(passed.map((r) => r.status), [200, 200, 200]);
      assert.equal(passed[0].headers['ratelimit-policy'], '"burst";q=3;w=1');
      assert.match(String(passed[0].headers.ratelimit), /^"burst";r=\d+;t=\d+$/);
      const refused = await hit(app);
      assert.equal(refused.status, 429);
      assert.deepEqual(refused.body, { message: 'Rate limit exceeded' });
      assert.equal(refused.headers['ratelimit-policy'], '"burst";q=3;w=1');
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal(refused.headers.ratelimit, '"burst";r=0;t=1');
    });

    test('refills the bucket at the steady rate, not a whole burst per second', async () => {
      const clock = manualClock();
      const app = await limitedApp({ perSecond: 1, burst: 3, daily: 0, redisPrefix: prefix('refill') }, redisUrl, clock.now);
      for (let i = 0; i < 3; i++) assert.equal((await hit(app)).status, 200);
      const refused = await hit(app);
      assert.equal(refused.status, 429);
      clock.advance(Number(refused.headers['retry-after']) * 1000);
      assert.deepEqual([(await hit(app)).status, (await hit(app)).status], [200, 429]);
    });

    test('counts each key on its own', async () => {
      const app = await limitedApp({ perSecond: 1, burst: 2, daily: 0, redisPrefix: prefix('per-key') }, redisUrl, manualClock().now);
      assert.deepEqual([(await hit(app)).status, (await hit(app)).status, (await hit(app)).status], [200, 200, 429]);
      assert.deepEqual([(await hit(app, otherKey)).status, (await hit(app, otherKey)).status], [200, 200]);
    });

    test('refuses the day once the daily quota is spent, pointing Retry-After to the next UTC midnight', async () => {
      const app = await limitedApp({ perSecond: 0, burst: 0, daily: 2, redisPrefix: prefix('daily') }, redisUrl);
      const first = await hit(app);
      assert.equal(first.headers['ratelimit-policy'], '"daily";q=2;w=86400');
      assert.equal((await hit(app)).status, 200);
      const before = Date.now();
      const refused = await hit(app);
      const afterMs = Date.now();
      assert.equal(refused.status, 429);
      assert.deepEqual(refused.body, { message: 'Rate limit exceeded' });
      const retry = Number(refused.headers['retry-after']);
      assert.ok(retry <= secondsToUtcMidnight(before) && retry >= secondsToUtcMidnight(afterMs), `retry-after ${retry}`);
      assert.equal(refused.headers.ratelimit, `"daily";r=0;t=${retry}`);
    });

    test('does not charge the daily quota for a request refused by the burst limit', async () => {
      const clock = manualClock();
      const app = await limitedApp({ perSecond: 1, burst: 1, daily: 2, redisPrefix: prefix('no-charge') }, redisUrl, clock.now);
      assert.equal((await hit(app)).status, 200);
      const burst = await hit(app);
      assert.equal(burst.status, 429);
      clock.advance(Number(burst.headers['retry-after']) * 1000);
      const second = await hit(app);
      assert.equal(second.status, 200, 'the refused request must not have used the quota');
      assert.match(String(second.headers.ratelimit), /"daily";r=0;/);
      clock.advance(1000);
      const spent = await hit(app);
      assert.equal(spent.status, 429);
      assert.ok(Number(spent.headers['retry-after']) > 1);
    });

    test('turns a limit off with 0', async () => {
      const app = await limitedApp({ perSecond: 0, burst: 0, daily: 0, redisPrefix: prefix('off') }, redisUrl);
      const statuses = new Set<number>();
      for (let i = 0; i < 30; i++) {
        const r = await hit(app);
        statuses.add(r.status);
        assert.equal(r.headers.ratelimit, undefined);
      }
      assert.deepEqual([...statuses], [200]);
    });
  });
}

describe('rate limits shared through Redis', () => {
  test('counts one key across app processes that share a prefix, apart from other prefixes', async () => {
    const rate = { perSecond: 1, burst: 3, daily: 0, redisPrefix: `${PREFIX}:shared` };
    const { now } = manualClock();
    const a = await limitedApp(rate, REDIS_URL, now);
    const b = await limitedApp(rate, REDIS_URL, now);
    const c = await limitedApp({ ...rate, redisPrefix: `${PREFIX}:elsewhere` }, REDIS_URL, now);
    assert.deepEqual([(await hit(a)).status, (await hit(b)).status, (await hit(a)).status, (await hit(b)).status], [200, 200, 200, 429]);
    assert.equal((await hit(c)).status, 200);
  });
});
