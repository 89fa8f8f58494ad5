/**
 * Data-API benchmark (docs/performance.md, "Data API"), on the shared seeded data (bench/seed.ts):
 * 1. For one workspace and the default 7-day range: the first page and offset 20,000 of each
 *    row-level endpoint, over real HTTP on a listening server, median and p99 over ITERATIONS
 *    requests; each beside the same query run straight through `ch.query` (the query function the
 *    route calls, same SQL, same rows) in the same run, interleaved so both see the same load.
 * 2. /v3/conversions?group_by=date,adv_source over 90 days, measured the same way.
 * 3. Throughput of /v3/events (first page) under 32 concurrent keep-alive clients (autocannon,
 *    loopback), against a bare Fastify route that returns a JSON body of the same size.
 */
import Fastify from 'fastify';
import autocannon from 'autocannon';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { resolveRange } from '../../src/kit/calendar/range.ts';
import { formatDay } from '../../src/kit/calendar/days.ts';
import { AD_PLATFORMS, channelsOfAll } from '../../src/analytics/sources.ts';
import { listEvents } from '../../src/analytics/queries/events/list-events.ts';
import { listSessions } from '../../src/analytics/queries/sessions/list-sessions.ts';
import { listConversions } from '../../src/analytics/queries/conversions/list-conversions.ts';
import { groupConversions } from '../../src/analytics/queries/conversions/group-conversions.ts';
import { listAds } from '../../src/analytics/queries/ads/list-ads.ts';
import { totalAds } from '../../src/analytics/queries/ads/total-ads.ts';
import type { QueryScope } from '../../src/analytics/query-scope.ts';
import type { BenchEnv } from '../seed.ts';
import { concurrentRate, measurePaired, round, type PairedTiming } from '../measure.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 60);
const WARMUP = 5;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;
const DAY_MS = 86_400_000;

interface Case {
  name: string;
  url: string;
  raw: () => Promise<unknown>;
}

export interface LatencyRow extends PairedTiming {
  case: string;
  rows: number;
}


export async function runDataApiBench(env: BenchEnv, log: (line: string) => void = console.log) {
  const { ch } = env.stores;
  const ws = env.workspaces[0]!;
  const logger = createLogger('silent');
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  const app = await buildApp({ config: env.config, stores: env.stores, limits, logger });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const bare = Fastify();
  try {
    const week = resolveRange({});
    const today = Date.now() - (Date.now() % DAY_MS);
    const quarter = resolveRange({ start_date: formatDay(today - 89 * DAY_MS), end_date: formatDay(today) });
    const first = { limit: 100, offset: 0 };
    const deep = { limit: 100, offset: 20_000 };
    const pixel: QueryScope = { workspaceId: ws.id, range: week, channels: null };
    const ads: QueryScope = { workspaceId: ws.id, range: week, channels: channelsOfAll(AD_PLATFORMS) };
    const cases: Case[] = [
      { name: 'events, first page', url: '/v3/events', raw: () => listEvents(ch, pixel, { page: first }) },
      { name: 'events, offset 20000', url: '/v3/events?offset=20000', raw: () => listEvents(ch, pixel, { page: deep }) },
      { name: 'sessions, first page', url: '/v3/sessions', raw: () => listSessions(ch, pixel, { page: first }) },
      { name: 'sessions, offset 20000', url: '/v3/sessions?offset=20000', raw: () => listSessions(ch, pixel, { page: deep }) },
      { name: 'conversions, first page', url: '/v3/conversions', raw: () => listConversions(ch, pixel, { page: first }) },
      { name: 'conversions, offset 20000', url: '/v3/conversions?offset=20000', raw: () => listConversions(ch, pixel, { page: deep }) },
      { name: 'ads, first page', url: '/v3/ads', raw: () => Promise.all([listAds(ch, ads, { page: first }), totalAds(ch, ads, {})]) },
      { name: 'ads, offset 20000', url: '/v3/ads?offset=20000', raw: () => Promise.all([listAds(ch, ads, { page: deep }), totalAds(ch, ads, {})]) },
      {
        name: 'conversions group_by=date,adv_source, 90 days',
        url: `/v3/conversions?group_by=date,adv_source&start_date=${formatDay(today - 89 * DAY_MS)}&end_date=${formatDay(today)}`,
        raw: () => groupConversions(ch, { ...pixel, range: quarter }, { dimensions: ['date', 'adv_source'], page: first }),
      },
    ];

    const results: LatencyRow[] = [];
    for (const c of cases) {
      const { timing, last } = await measurePaired(
        async () => {
          const response = await fetch(`${base}${c.url}`, { headers: ws.headers });
          const body = (await response.json()) as { data: unknown[] };
          if (response.status !== 200) throw new Error(`${c.url} answered ${response.status}: ${JSON.stringify(body)}`);
          return body;
        },
        c.raw,
        { iterations: ITERATIONS, warmup: WARMUP },
      );
      const row = { case: c.name, rows: last.data.length, ...timing };
      results.push(row);
      log(`${row.case}: ${row.rows} rows, API median ${row.apiMedianMs} ms / p99 ${row.apiP99Ms} ms, engine median ${row.engineMedianMs} ms / p99 ${row.engineP99Ms} ms, ratio ${row.ratio}`);
    }

    // Throughput: /v3/events first page against a bare route serving a body of the same size.
    const sample = await (await fetch(`${base}/v3/events`, { headers: ws.headers })).text();
    bare.get('/bare', async (_request, reply) => reply.type('application/json').send(sample));
    const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });
    const load = async (url: string, headers: Record<string, string> = {}) => {
      const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
      if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return result.requests.average;
    };
    const apiRps = await load(`${base}/v3/events`, ws.headers);
    const bareRps = await load(`${bareBase}/bare`);
    // The same query from 32 concurrent callers straight on the engine: the ceiling the API can reach.
    const engineRps = (await concurrentRate(cases[0]!.raw, CONNECTIONS, SECONDS)).rps;
    const throughput = {
      bodyBytes: Buffer.byteLength(sample),
      apiRps: round(apiRps),
      bareRps: round(bareRps),
      engineRps: round(engineRps),
      ratio: round(apiRps / bareRps, 3),
      engineRatio: round(apiRps / engineRps, 2),
    };
    log(`throughput, ${CONNECTIONS} clients for ${SECONDS} s, body ${throughput.bodyBytes} bytes: /v3/events ${throughput.apiRps} req/s, bare route ${throughput.bareRps} req/s (ratio ${throughput.ratio}), same query on the engine ${throughput.engineRps} req/s (API / engine ${throughput.engineRatio})`);

    log('');
    log('| case | rows | API median ms | API p99 ms | engine median ms | engine p99 ms | API / engine (median) |');
    log('|---|---|---|---|---|---|---|');
    for (const r of results) log(`| ${r.case} | ${r.rows} | ${r.apiMedianMs} | ${r.apiP99Ms} | ${r.engineMedianMs} | ${r.engineP99Ms} | ${r.ratio} |`);
    log('');
    log(`| throughput, ${CONNECTIONS} clients, ${throughput.bodyBytes} B body | req/s |`);
    log('|---|---|');
    log(`| /v3/events first page | ${throughput.apiRps} |`);
    log(`| bare Fastify route, same body | ${throughput.bareRps} |`);
    log(`| same query straight on the engine | ${throughput.engineRps} |`);
    log(`| API / bare route | ${throughput.ratio} |`);
    log(`| API / engine | ${throughput.engineRatio} |`);
    return { latency: results, throughput };
  } finally {
    await bare.close();
    await app.close();
    await limits.close();
  }
}
