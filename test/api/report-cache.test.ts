/**
 * The report core's result cache (docs/architecture.md, "Result cache"): answers are kept under
 * the workspace's data version, identical requests at the same moment share one engine query, and
 * an answer from the cache equals the one computed without it.
 * Fixture: one workspace with six days of demo data (2026-11-15..20); apps over the same stores,
 * one whose engine counts the report statements it runs and keeps answers in a cache of its own,
 * one without a cache. Counting happens at the engine door, so a request answered from the cache
 * adds nothing to the count. Two more apps over the counting engine stand for two processes of a
 * deployment: each keeps its own cache and shares answers through the local Redis (under a prefix
 * unique to this run, removed afterwards).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { Redis } from 'ioredis';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { createResultCache } from '../../src/kit/result-cache.ts';
import { openResultCache } from '../../src/store/result-cache.ts';
import { seedDemo } from '../../src/cli/demo/seed.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import type { Clickhouse } from '../../src/store/clickhouse.ts';
import type { Stores } from '../../src/store/index.ts';
import { currentLane } from '../../src/store/query-queue.ts';
import { bearer, callTool } from '../mcp/rpc.ts';
import { createUser, signIn } from '../dashboard/helpers.ts';
import { freePort } from '../support/free-port.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const PREFIX = `storelens-test-${randomUUID()}`;

let t: TestApp;
let shop: TestWorkspace;
/** The engine of the apps with a cache: counts their report statements. */
let counting: Clickhouse;
let cached: FastifyInstance;
let uncached: FastifyInstance;
/** Report statements (the rows query and its follow-ups) the cached app sent to the engine, and the engine-queue lane of each. */
let reportQueries = 0;
const reportLanes: string[] = [];
const closers: (() => Promise<void>)[] = [];

const DAYS = ['2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];
const RANGE = { start_date: DAYS[0]!, end_date: DAYS[5]! };

async function appOver(stores: Stores): Promise<FastifyInstance> {
  const limits = await createRateLimits(t.config.rate, null);
  const app = await buildApp({ config: t.config, stores, limits, logger: createLogger('silent') });
  closers.push(() => app.close());
  return app;
}

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  await seedDemo(t.stores.ch, { workspaceId: shop.id, days: DAYS.length, now: new Date('2026-11-20T23:00:00Z'), sessionsPerDay: 150 });
  counting = {
    ...t.stores.ch,
    query(name, ...rest) {
      if (name.startsWith('report')) {
        reportQueries++;
        reportLanes.push(currentLane());
      }
      return t.stores.ch.query(name, ...rest);
    },
  };
  cached = await appOver({ ...t.stores, ch: counting, results: createResultCache(64 * 1024 * 1024) });
  uncached = await appOver({ ...t.stores, results: createResultCache(0) });
});
after(async () => {
  for (const close of closers) await close();
  await t.close();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${PREFIX}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

/** One more process over the counting engine, with its own cache and answers shared through `redisUrl`. */
async function sharingApp(redisUrl: string, logger: Logger = pino({ level: 'silent' })): Promise<FastifyInstance> {
  const config = { ...t.config, redisUrl, rate: { ...t.config.rate, redisPrefix: PREFIX } };
  const cache = await openResultCache(config, logger);
  closers.push(async () => cache.close());
  return appOver({ ...t.stores, ch: counting, results: cache.results });
}

type Query = Record<string, string | number | undefined>;
function url(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  return `/v3/report?${params}`;
}
async function report(app: FastifyInstance, query: Query, headers = shop.headers): Promise<{ status: number; body: any }> {
  const response = await app.inject({ method: 'GET', url: url(query), headers });
  return { status: response.statusCode, body: response.json() };
}

/** How many report statements `work` sent to the engine of the cached app. */
async function engineReports(work: () => Promise<unknown>): Promise<number> {
  const before = reportQueries;
  await work();
  return reportQueries - before;
}

describe('identical requests', () => {
  test('ten identical concurrent requests run one engine query and get the same answer; the next one runs none', async () => {
    const query = { ...RANGE, breakdown: 'campaign', attribution_model: 'linear' };
    let answers: { status: number; body: any }[] = [];
    assert.equal(await engineReports(async () => {
      answers = await Promise.all(Array.from({ length: 10 }, () => report(cached, query)));
    }), 1);
    assert.deepEqual(answers.map((a) => a.status), Array(10).fill(200));
    for (const answer of answers) assert.deepEqual(answer.body, answers[0]!.body);
    assert.equal(await engineReports(() => report(cached, query)), 0);
    assert.deepEqual((await report(uncached, query)).body, answers[0]!.body);
  });

  test('analytics.query and the dashboard overview read the same cache', async () => {
    const args = { filters: { date_from: DAYS[1], date_to: DAYS[4] }, breakdown: 'source' };
    const first = await callTool(cached, bearer(shop.headers), 'analytics.query', args);
    assert.equal(first.result?.isError, false);
    assert.equal(await engineReports(async () => {
      const again = await callTool(cached, bearer(shop.headers), 'analytics.query', args);
      assert.deepEqual(again.result?.structuredContent, first.result?.structuredContent);
    }), 0);

    await createUser(t, 'cache-viewer@example.com', shop.id);
    const viewer = await signIn({ ...t, app: cached }, 'cache-viewer@example.com');
    const overview = `/dashboard/api/overview?workspace=${shop.id}&start_date=${DAYS[2]}&end_date=${DAYS[5]}`;
    // Two report runs per load (the range by day and the period before it), whoever loads it.
    let loads: { status: number; body: any }[] = [];
    assert.equal(await engineReports(async () => {
      loads = await Promise.all(Array.from({ length: 5 }, () => viewer.get(overview)));
    }), 2);
    assert.deepEqual(loads.map((l) => l.status), Array(5).fill(200));
    for (const load of loads) assert.deepEqual(load.body, loads[0]!.body);
  });

  test('each surface\'s reads run in their caller\'s lane of the engine queue: the key\'s, the member\'s', async () => {
    const seen = reportLanes.length;
    await report(cached, { ...RANGE, breakdown: 'utm_campaign' });
    await createUser(t, 'lane-viewer@example.com', shop.id);
    const viewer = await signIn({ ...t, app: cached }, 'lane-viewer@example.com');
    assert.equal((await viewer.get(`/dashboard/api/report?workspace=${shop.id}&start_date=${DAYS[0]}&end_date=${DAYS[1]}&breakdown=utm_medium`)).status, 200);
    const lanes = reportLanes.slice(seen);
    assert.equal(lanes.length, 2, JSON.stringify(lanes));
    assert.match(lanes[0]!, /^key:\d+$/);
    assert.match(lanes[1]!, /^user:\d+$/);
  });
});

describe('what makes an answer new', () => {
  test('rows stored with a raised data version are read at once: one new purchase adds one conversion and its revenue', async () => {
    const query = { ...RANGE, metrics: 'conversions,revenue' };
    const before = (await report(cached, query)).body.totals;
    assert.equal(await engineReports(() => report(cached, query)), 0);
    // insertRows raises the workspace's data version, as every path that stores rows does.
    await insertRows(t.stores, 'conversions', [{
      store_id: shop.id, dt: '2026-11-18 12:00:00', name: 'purchase', session_id: 987654321, visitor_id: 987654321,
      transaction_id: 'CACHE-T1', transaction_currency: 'USD', transaction_gross_revenue: 12345,
    }]);
    let after: any;
    assert.equal(await engineReports(async () => (after = (await report(cached, query)).body.totals)), 1);
    assert.deepEqual(after, { conversions: before.conversions + 1, revenue: Math.round((before.revenue + 123.45) * 100) / 100 });
    assert.deepEqual((await report(uncached, query)).body.totals, after);
  });

  test('a settings change gives new numbers at once: excluding one stored purchase leaves one conversion fewer', async () => {
    const query = { ...RANGE, metrics: 'conversions' };
    const [stored] = await t.stores.ch.query<{ transaction_id: string }>('test-one-purchase',
      "SELECT transaction_id FROM conversions WHERE store_id = {store_id:UInt64} AND name = 'purchase' AND dt >= '2026-11-16' AND dt < '2026-11-17' ORDER BY transaction_id LIMIT 1",
      { store_id: shop.id });
    const before = (await report(cached, query)).body;
    await updateSettings(t.stores.db, shop.id, { excluded_transaction_ids: [stored!.transaction_id] });
    const excluded = (await report(cached, query)).body;
    assert.equal(excluded.totals.conversions, before.totals.conversions - 1);
    assert.deepEqual(excluded, (await report(uncached, query)).body);
    await updateSettings(t.stores.db, shop.id, { excluded_transaction_ids: [] });
    assert.deepEqual((await report(cached, query)).body, before);
  });

  test('keys that see different channels never share an answer', async () => {
    const googleOnly = await shop.keyHeaders(['read:google']);
    const query = { ...RANGE, metrics: 'conversions,sessions' };
    const admin = await report(cached, query);
    const google = await report(cached, query, googleOnly);
    assert.equal(google.status, 200);
    assert.ok(google.body.totals.sessions < admin.body.totals.sessions, JSON.stringify([google.body.totals, admin.body.totals]));
    assert.deepEqual(google.body, (await report(uncached, query, googleOnly)).body);
    assert.deepEqual(admin.body, (await report(uncached, query)).body);
  });
});

describe('two processes sharing answers through Redis', () => {
  let a: FastifyInstance;
  let b: FastifyInstance;
  before(async () => {
    a = await sharingApp(REDIS_URL);
    b = await sharingApp(REDIS_URL);
  });

  test('ten identical concurrent requests spread over both run one engine query; the answers equal the uncached one', async () => {
    const query = { ...RANGE, breakdown: 'source', attribution_model: 'first_click', metrics: 'revenue,roas,cpa,sessions' };
    let answers: { status: number; body: any }[] = [];
    assert.equal(await engineReports(async () => {
      answers = await Promise.all(Array.from({ length: 10 }, (_, i) => report(i % 2 ? a : b, query)));
    }), 1);
    const plain = await report(uncached, query);
    assert.equal(plain.status, 200);
    for (const answer of answers) assert.deepEqual(answer, plain);
  });

  test('a raised data version gives new numbers in both: one computes them, the other reads them from Redis', async () => {
    const query = { ...RANGE, interval: 'day', metrics: 'conversions,revenue' };
    const before = await report(a, query);
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.deepEqual(await report(b, query), before);
    await insertRows(t.stores, 'conversions', [{
      store_id: shop.id, dt: '2026-11-17 09:30:00', name: 'purchase', session_id: 987654322, visitor_id: 987654322,
      transaction_id: 'SHARED-T1', transaction_currency: 'USD', transaction_gross_revenue: 5000,
    }]);
    let fromA: { status: number; body: any } | undefined;
    let fromB: { status: number; body: any } | undefined;
    assert.equal(await engineReports(async () => (fromA = await report(a, query))), 1);
    assert.equal(await engineReports(async () => (fromB = await report(b, query))), 0);
    assert.equal(fromA!.body.totals.conversions, before.body.totals.conversions + 1);
    assert.deepEqual(fromB, fromA);
    assert.deepEqual(fromA, await report(uncached, query));
  });

  test('across generated requests, the answer one process reads from Redis equals the uncached one', async () => {
    const day = fc.integer({ min: 0, max: DAYS.length - 1 });
    await fc.assert(
      fc.asyncProperty(
        day, day, fc.constantFrom('last_click', 'linear', 'markov', 'data_driven'),
        fc.constantFrom(undefined, 'campaign', 'utm_source'), fc.constantFrom(undefined, 'day'),
        fc.subarray(['spend', 'revenue', 'roas', 'conversions', 'sessions', 'cr', 'cpa', 'clicks'], { minLength: 1, maxLength: 4 }),
        async (x, y, model, breakdown, interval, metrics) => {
          const query = { start_date: DAYS[Math.min(x, y)], end_date: DAYS[Math.max(x, y)], attribution_model: model, breakdown, interval, metrics: metrics.join(',') };
          const computed = await report(a, query);
          let shared: { status: number; body: any } | undefined;
          assert.equal(await engineReports(async () => (shared = await report(b, query))), 0, 'answered from Redis');
          const plain = await report(uncached, query);
          assert.equal(plain.status, 200, JSON.stringify(plain.body));
          assert.deepEqual(computed, plain);
          assert.deepEqual(shared, plain);
        },
      ),
      { numRuns: 15 },
    );
  });

  test('with Redis unreachable every request is answered as without a cache, with one warning', async () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write(chunk, _enc, done) { warnings.push(JSON.parse(String(chunk)).msg); done(); } }));
    const lone = await sharingApp(`redis://127.0.0.1:${await freePort()}`, logger);
    const queries = [{ ...RANGE, breakdown: 'city' }, { ...RANGE, breakdown: 'city', limit: 3 }];
    for (const query of queries) {
      const answers = await Promise.all([report(lone, query), report(lone, query)]);
      const plain = await report(uncached, query);
      assert.equal(plain.status, 200);
      for (const answer of answers) assert.deepEqual(answer, plain);
    }
    assert.deepEqual(warnings, ['Redis unreachable: each process computes its own report answers until it is back']);
  });
});

describe('property', () => {
  test('across generated requests and keys, the cached answer (computed, then kept) equals the uncached one', async () => {
    const keyHeaders = [shop.headers, await shop.keyHeaders(['read:meta', 'read:google']), await shop.keyHeaders(['read:email', 'read:organic'])];
    const day = fc.integer({ min: 0, max: DAYS.length - 1 });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...keyHeaders.keys()), day, day,
        fc.constantFrom('last_click', 'first_click', 'linear', 'any_click', 'markov', 'data_driven', undefined),
        fc.constantFrom(undefined, 'source', 'campaign', 'utm_source', 'city'), fc.constantFrom(undefined, 'day', 'week'),
        fc.subarray(['spend', 'revenue', 'roas', 'conversions', 'sessions', 'cr', 'cpa', 'clicks'], { minLength: 1, maxLength: 4 }),
        fc.constantFrom(1, 5, 100), fc.constantFrom(0, 0, 2, 50),
        async (who, a, b, model, breakdown, interval, metrics, limit, offset) => {
          const query = {
            start_date: DAYS[Math.min(a, b)], end_date: DAYS[Math.max(a, b)], attribution_model: model,
            breakdown, interval, metrics: metrics.join(','), limit, offset,
          };
          const headers = keyHeaders[who]!;
          const first = await report(cached, query, headers);
          let kept: { status: number; body: any } | undefined;
          const ran = await engineReports(async () => (kept = await report(cached, query, headers)));
          const plain = await report(uncached, query, headers);
          assert.equal(plain.status, 200, JSON.stringify(plain.body));
          assert.deepEqual(first, plain);
          assert.deepEqual(kept, plain);
          assert.equal(ran, 0, 'the second request is answered from the cache');
        },
      ),
      { numRuns: 40 },
    );
  });
});
