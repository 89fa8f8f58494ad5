/**
 * Every data-API refusal whose message the contract names, walked through HTTP on every endpoint
 * that can answer it: the body's `message` is the contract's text exactly (clients match it), and
 * the help for a person is in an added `detail` where there is any. Messages the contract writes
 * with `...` (`Unknown source: ...`) carry their detail inline and have no `detail` member.
 * Fixture: one workspace with an admin key and narrower keys; no rows are needed to be refused.
 * The two 429s come from apps of their own with a burst of one request and one request in flight.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import type { Config } from '../../src/config.ts';
import type { Stores } from '../../src/store/index.ts';
import { DATA_API_PREFIX, DATA_ENDPOINTS } from '../../src/api/endpoints.ts';
import { parameterNames } from '../../src/api/params.ts';

let t: TestApp;
let shop: TestWorkspace;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
});
/** Apps of their own (the 429s), closed before the shared one. */
const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers) await close();
  await t.close();
});

const DATE_MESSAGE = 'Invalid start_date or end_date parameter';

/** Each endpoint with the query it needs to get as far as the check under test (attribution names a conversion). */
const ENDPOINTS = DATA_ENDPOINTS.map(({ path, query }) => ({
  url: `${DATA_API_PREFIX}${path}`,
  base: path === '/attribution' ? 'transaction_id=T1&' : '',
  params: new Set(parameterNames(query)),
}));

type Answer = { status: number; body: Record<string, unknown> };

async function get(url: string, headers: Record<string, string>, method: 'GET' | 'POST' = 'GET', app: FastifyInstance = t.app): Promise<Answer> {
  const response = await app.inject({ method, url, headers });
  return { status: response.statusCode, body: response.json() };
}

const exactly = (status: number, message: string, detail?: string): Answer => ({ status, body: detail === undefined ? { message } : { message, detail } });

describe('contract-named error messages', () => {
  test('credentials and methods: the exact message, nothing added, on every endpoint', async () => {
    const key = shop.headers['x-api-key']!;
    for (const { url } of ENDPOINTS) {
      assert.deepEqual(await get(url, {}), exactly(400, 'Missing x-api-key header'), url);
      assert.deepEqual(await get(url, { 'x-api-key': key }), exactly(400, 'Missing client-secret header'), url);
      assert.deepEqual(await get(url, { 'x-api-key': 'sl_nope', 'client-secret': 'x' }), exactly(401, 'Invalid API key'), url);
      assert.deepEqual(await get(url, { 'x-api-key': key, 'client-secret': 'wrong' }), exactly(401, 'Invalid client secret'), url);
      assert.deepEqual(await get(url, shop.headers, 'POST'), exactly(405, 'Method not allowed'), url);
    }
    assert.deepEqual(await get('/v3/nothing-here', shop.headers), exactly(404, 'Not found'));
  });

  test('Invalid start_date or end_date parameter: the message alone, what is wrong in detail', async () => {
    const cases: [string, string][] = [
      ['start_date=01/11/2026', 'start_date must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (got 01/11/2026)'],
      ['end_date=2300-01-01', 'end_date must be in the years 1970 to 2299 (got 2300-01-01)'],
      ['start_date=2026-02-30', 'start_date is not a calendar day (got 2026-02-30)'],
      ['end_date=2026-03-01%2024:00:00', 'end_date is not a valid time of day (got 2026-03-01 24:00:00)'],
      [`start_date=${'9'.repeat(50)}`, `start_date must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (got ${'9'.repeat(40)}…)`],
      ['end_date=2026-03-01&end_date=2026-03-02', 'end_date must be given once'],
    ];
    let walked = 0;
    for (const { url, base, params } of ENDPOINTS) {
      if (!params.has('start_date')) continue;
      walked++;
      for (const [query, detail] of cases) {
        assert.deepEqual(await get(`${url}?${base}${query}`, shop.headers), exactly(400, DATE_MESSAGE, detail), `${url}?${query}`);
      }
      assert.deepEqual(
        await get(`${url}?${base}start_date=2026-03-02&end_date=2026-03-01`, shop.headers),
        exactly(400, 'start_date must be before end_date'),
        url,
      );
    }
    assert.equal(walked, ENDPOINTS.length, 'every endpoint takes a range');
  });

  test('paging and id filters: the exact message, nothing added', async () => {
    const checks: [string, string, string][] = [
      ['limit', 'limit=0', 'limit must be a positive integer'],
      ['limit', 'limit=ten', 'limit must be a positive integer'],
      ['offset', 'offset=-1', 'offset must be a non-negative integer'],
      ['session_id', 'session_id=abc', 'session_id must be numeric'],
      ['visitor_id', 'visitor_id=1e3', 'visitor_id must be numeric'],
      ['is_new_customer', 'is_new_customer=2', 'is_new_customer must be one of 0,1,true,false'],
    ];
    const seen = new Set<string>();
    for (const { url, base, params } of ENDPOINTS) {
      for (const [param, query, message] of checks) {
        if (!params.has(param)) continue;
        seen.add(message);
        assert.deepEqual(await get(`${url}?${base}${query}`, shop.headers), exactly(400, message), `${url}?${query}`);
      }
    }
    assert.deepEqual([...seen].sort(), [...new Set(checks.map(([, , m]) => m))].sort(), 'each message is walked on some endpoint');
  });

  test('Unknown source: ... carries its detail inline and has no detail member', async () => {
    let walked = 0;
    for (const { url, base, params } of ENDPOINTS) {
      if (!params.has('source')) continue;
      walked++;
      const { status, body } = await get(`${url}?${base}source=myspace`, shop.headers);
      assert.equal(status, 400, url);
      assert.deepEqual(Object.keys(body), ['message'], url);
      assert.match(String(body.message), /^Unknown source: myspace\. Accepted sources: [a-z_]+(, [a-z_]+)+$/, url);
    }
    assert.ok(walked >= 4, 'the row endpoints and the report take source');
  });

  test('permissions: the exact message, nothing added', async () => {
    const profitOnly = await shop.keyHeaders(['read:profit']);
    const organic = await shop.keyHeaders(['read:organic']);
    const meta = await shop.keyHeaders(['read:meta']);
    const cases: [string, Record<string, string>, string][] = [
      ['/v3/events', profitOnly, 'You do not have access to pixel data'],
      ['/v3/sessions', profitOnly, 'You do not have access to pixel data'],
      ['/v3/conversions', profitOnly, 'You do not have access to pixel data'],
      ['/v3/export/events', profitOnly, 'You do not have access to pixel data'],
      ['/v3/ads', organic, 'You do not have access to ads data'],
      ['/v3/export/ads', organic, 'You do not have access to ads data'],
      ['/v3/events?source=google', meta, 'You do not have access to the requested sources'],
      ['/v3/sessions?source=google', meta, 'You do not have access to the requested sources'],
      ['/v3/conversions?source=google', meta, 'You do not have access to the requested sources'],
      ['/v3/report?source=google', meta, 'You do not have access to the requested sources'],
    ];
    for (const [url, headers, message] of cases) assert.deepEqual(await get(url, headers), exactly(403, message), url);
  });

  /** An app over the shared stores with its own limits; its rate limiter's clock stands still. */
  async function limitedApp(config: Partial<Pick<Config, 'rate' | 'queries'>>, stores: Stores = t.stores): Promise<FastifyInstance> {
    const rate = config.rate ?? t.config.rate;
    const now = Date.now();
    const limits = await createRateLimits(rate, null, undefined, () => now);
    const app = await buildApp({ config: { ...t.config, ...config, rate, redisUrl: null }, stores, limits, logger: createLogger('silent') });
    closers.push(async () => {
      await app.close();
      await limits.close();
    });
    return app;
  }
  const RANGE = 'start_date=2026-03-01&end_date=2026-03-07';

  test('Rate limit exceeded: the exact message, nothing added, on every endpoint once the key spent its burst', async () => {
    const app = await limitedApp({ rate: { perSecond: 1, burst: 1, daily: 0 } });
    assert.equal((await get(`/v3/events?${RANGE}`, shop.headers, 'GET', app)).status, 200);
    for (const { url, base } of ENDPOINTS) {
      assert.deepEqual(await get(`${url}?${base}${RANGE}`, shop.headers, 'GET', app), exactly(429, 'Rate limit exceeded'), url);
    }
  });

  test('Too many concurrent requests: the exact message, nothing added, on every endpoint while the key has its bound in flight', async () => {
    let arrived = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const ch = { ...t.stores.ch, async query(...args: Parameters<Stores['ch']['query']>) {
      arrived++;
      await gate;
      return t.stores.ch.query(...args);
    } } as Stores['ch'];
    const app = await limitedApp({ queries: { ...t.config.queries, maxPerKey: 1 } }, { ...t.stores, ch });
    const held = get(`/v3/events?${RANGE}`, shop.headers, 'GET', app);
    while (arrived === 0) await new Promise((resolve) => setImmediate(resolve));
    for (const { url, base } of ENDPOINTS) {
      assert.deepEqual(await get(`${url}?${base}${RANGE}`, shop.headers, 'GET', app), exactly(429, 'Too many concurrent requests'), url);
    }
    open();
    assert.equal((await held).status, 200);
  });
});
