/**
 * No single key can hold the analytics engine (docs/operations.md): every read has a time limit,
 * and a key has a bounded number of data requests and tool calls in flight.
 * Fixture: one workspace with two admin keys ("busy" and "other") and a few events. The time-limit
 * tests use a second chDB session on the same data dir whose limit (1 µs) no query can meet; the
 * in-flight tests hold the queries of admitted requests at a gate in front of the real store, so
 * every request counted is in flight at the same moment.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { inFlightBound } from '../../src/http/in-flight.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openClickhouse, type Clickhouse } from '../../src/store/clickhouse.ts';
import type { Stores } from '../../src/store/index.ts';
import { bearer, callTool, postMcp } from '../mcp/rpc.ts';

let t: TestApp;
let shop: TestWorkspace;
let other: Record<string, string>;
const closers: (() => Promise<void>)[] = [];
const RANGE = 'start_date=2026-03-01&end_date=2026-03-07';

before(async () => {
  t = await startTestApp({ queries: { timeoutMs: 10_000, maxPerKey: 2 } });
  shop = await createTestWorkspace(t.stores);
  other = await shop.keyHeaders(['admin:admin']);
  await insertRows(t.stores, 'events', [1, 2, 3].map((i) => ({
    store_id: shop.id, dt: `2026-03-0${i} 10:00:00`, name: 'pageview', session_id: i, visitor_id: i, pathname: '/',
  })));
});
after(async () => {
  for (const close of closers) await close();
  await t.close();
});

async function appOver(stores: Stores, config: Config = t.config): Promise<FastifyInstance> {
  const limits = await createRateLimits(config.rate, null);
  const app = await buildApp({ config, stores, limits, logger: createLogger('silent') });
  closers.push(() => app.close());
  return app;
}

describe('time limit', () => {
  let app: FastifyInstance;
  before(async () => {
    const tight = await openClickhouse(
      { url: t.config.clickhouseUrl, dataDir: path.join(t.config.dataDir, 'chdb'), chdbSessions: 1, timeoutMs: 0.001 },
      createLogger('silent'),
    );
    closers.push(() => tight.close());
    app = await appOver({ ...t.stores, ch: tight });
  });

  test('a data request whose query runs over the limit answers 503 "Query timed out"', async () => {
    for (const url of [`/v3/events?${RANGE}`, `/v3/report?${RANGE}`]) {
      const response = await app.inject({ method: 'GET', url, headers: shop.headers });
      assert.deepEqual([response.statusCode, response.json()], [503, { message: 'Query timed out' }], url);
    }
  });

  test('a tool call whose query runs over the limit is a tool error with code "timeout"', async () => {
    const reply = await callTool(app, bearer(shop.headers), 'analytics.query', { filters: { date_from: '2026-03-01', date_to: '2026-03-07' } });
    assert.equal(reply.result?.isError, true);
    assert.deepEqual(reply.result?.structuredContent, { error: { code: 'timeout', message: 'Query timed out' } });
  });

  test('the same requests succeed within the limit', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/v3/events?${RANGE}`, headers: shop.headers });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().data.length, 3);
  });
});

describe('requests in flight per key', () => {
  /** Reads wait here until `open()`; `arrived` counts them. */
  function gatedStore(): { ch: Clickhouse; arrived: () => number; open(): void } {
    let arrived = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const ch: Clickhouse = {
      ...t.stores.ch,
      async query(...args) {
        arrived++;
        await gate;
        return t.stores.ch.query(...args);
      },
    };
    return { ch, arrived: () => arrived, open };
  }

  async function until(check: () => boolean): Promise<void> {
    while (!check()) await new Promise((resolve) => setImmediate(resolve));
  }

  test('one over the bound answers 429 "Too many concurrent requests" with Retry-After, on the data API and /mcp alike; other keys are not affected', async () => {
    const gated = gatedStore();
    const app = await appOver({ ...t.stores, ch: gated.ch });
    const get = (headers: Record<string, string>) => app.inject({ method: 'GET', url: `/v3/events?${RANGE}`, headers });

    const held = [get(shop.headers), get(shop.headers)];
    await until(() => gated.arrived() === 2);

    const refused = await get(shop.headers);
    assert.deepEqual([refused.statusCode, refused.json(), refused.headers['retry-after']], [429, { message: 'Too many concurrent requests' }, '1']);
    const tool = await postMcp(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'analytics.query', arguments: {} } }, bearer(shop.headers));
    assert.deepEqual([tool.status, tool.body, tool.headers['retry-after']], [429, { message: 'Too many concurrent requests' }, '1']);

    const otherKey = get(other);
    await until(() => gated.arrived() === 3);
    gated.open();
    assert.deepEqual((await Promise.all([...held, otherKey])).map((r) => r.statusCode), [200, 200, 200]);
    assert.equal((await get(shop.headers)).statusCode, 200, 'the key may send again once its requests are answered');
  });

  /** The service's defaults for the rate limit and the bound (20 and 10/s; 20 in flight). */
  const defaults = loadConfig({});
  const heldReads = async (app: FastifyInstance, gated: ReturnType<typeof gatedStore>, count: number) => {
    const held = Array.from({ length: count }, () => app.inject({ method: 'GET', url: `/v3/events?${RANGE}`, headers: shop.headers }));
    await until(() => gated.arrived() === count);
    return held;
  };

  test('with the default limits a burst of 20 concurrent reads of one key is in flight at once and every read answers 200', async () => {
    const gated = gatedStore();
    const app = await appOver({ ...t.stores, ch: gated.ch }, { ...t.config, rate: defaults.rate, queries: defaults.queries });
    const held = await heldReads(app, gated, 20);
    gated.open();
    const answers = await Promise.all(held);
    assert.deepEqual(answers.map((r) => r.statusCode), Array(20).fill(200));
    assert.deepEqual(answers.map((r) => r.json().data.length), Array(20).fill(3));
  });

  test('eight concurrent report clients of one key are all answered, with the same numbers', async () => {
    const app = await appOver(t.stores, { ...t.config, rate: defaults.rate, queries: defaults.queries });
    const answers = await Promise.all(Array.from({ length: 8 }, () =>
      app.inject({ method: 'GET', url: `/v3/report?${RANGE}&metrics=sessions`, headers: shop.headers })));
    assert.deepEqual(answers.map((r) => r.statusCode), Array(8).fill(200));
    assert.deepEqual(answers.map((r) => r.json().totals.sessions), Array(8).fill(3));
  });

  test('past the default bound of 20 in flight, the 21st and 22nd requests answer 429 "Too many concurrent requests"; the 20 held answer 200', async () => {
    const gated = gatedStore();
    const app = await appOver({ ...t.stores, ch: gated.ch }, { ...t.config, queries: defaults.queries });
    const held = await heldReads(app, gated, 20);
    for (let extra = 0; extra < 2; extra++) {
      const refused = await app.inject({ method: 'GET', url: `/v3/events?${RANGE}`, headers: shop.headers });
      assert.deepEqual([refused.statusCode, refused.json(), refused.headers['retry-after']], [429, { message: 'Too many concurrent requests' }, '1']);
    }
    const tool = await postMcp(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'analytics.query', arguments: {} } }, bearer(shop.headers));
    assert.deepEqual([tool.status, tool.body], [429, { message: 'Too many concurrent requests' }]);
    gated.open();
    assert.deepEqual((await Promise.all(held)).map((r) => r.statusCode), Array(20).fill(200));
  });

  test('a bound set below the rate limit\'s burst is raised to the burst; 0 stays off', () => {
    assert.equal(inFlightBound(4, { perSecond: 10, burst: 20 }), 20);
    assert.equal(inFlightBound(4, { perSecond: 50, burst: 20 }), 50, 'the bucket holds at least a second of requests');
    assert.equal(inFlightBound(30, { perSecond: 10, burst: 20 }), 30);
    assert.equal(inFlightBound(4, { perSecond: 0, burst: 0 }), 4, 'no rate limit: the bound as set');
    assert.equal(inFlightBound(0, { perSecond: 10, burst: 20 }), 0);
  });
});
