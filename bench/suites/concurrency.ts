/**
 * Concurrency benchmark (docs/performance.md, "Under concurrent clients"), on the shared seeded
 * data: `/v3/events` (first page, 7 days) and the 90-day campaign report (28-day window), each
 * under 32 concurrent keep-alive clients over real HTTP, beside two figures measured in the same
 * run with the same statements and values (recorded from one request of each case):
 * - pool: the statements from 32 concurrent callers on the session pool (`ch.query`), the engine's
 *   parallel limit the API can reach at best;
 * - one at a time: the same statements bound through chdb's `queryBindAsync`, which runs every
 *   query with bound parameters on one process-wide chain: how the service ran them before the
 *   pool.
 * Then report clients of one key: 1 and then 8 keep-alive loops sending the 90-day campaign report
 * for SECONDS each to a server with the default bound on requests in flight, counting answers and
 * refusals, and the process's CPU time over the window (every thread: the engine runs in this
 * process): busy cores = CPU seconds / wall seconds, and reports per CPU second (work per busy
 * core), 8 clients beside 1.
 */
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import autocannon from 'autocannon';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { formatDay } from '../../src/kit/calendar/days.ts';
import { ANALYTICS_DATABASE, QUERY_SETTINGS, type Clickhouse, type QueryParams } from '../../src/store/clickhouse.ts';
import type { BenchEnv } from '../seed.ts';
import { concurrentRate, round, type Rate } from '../measure.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CLIENTS = 32;
const DAY_MS = 86_400_000;

interface Statement {
  name: string;
  sql: string;
  params: QueryParams;
}

/** The statements one request runs, in order, recorded on a copy of the app. */
async function recordStatements(env: BenchEnv, url: string, headers: Record<string, string>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const ch: Clickhouse = {
    ...env.stores.ch,
    async query(name, sql, params = {}) {
      seen.push({ name, sql, params });
      return env.stores.ch.query(name, sql, params);
    },
  };
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  const app = await buildApp({ config: env.config, stores: { ...env.stores, ch }, limits, logger: createLogger('silent') });
  try {
    const response = await app.inject({ method: 'GET', url, headers });
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
  } finally {
    await app.close();
    await limits.close();
  }
  return seen;
}

async function httpRate(url: string, headers: Record<string, string>): Promise<Rate> {
  const result = await autocannon({ url, connections: CLIENTS, duration: SECONDS, headers });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: round(result.requests.average), p50Ms: round(result.latency.p50), p99Ms: round(result.latency.p99) };
}

const REPORT_CLIENTS = [1, 8];

/** `clients` loops sending `url` for SECONDS; answers, refusals and the process's CPU over the window. */
async function reportClients(url: string, headers: Record<string, string>, clients: number) {
  const counts = { ok: 0, refused: 0 };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < until) {
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (response.status === 200) counts.ok++;
      else if (response.status === 429) counts.refused++;
      else throw new Error(`${url} answered ${response.status}`);
    }
  }));
  const wallS = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  return { ...counts, perSecond: counts.ok / wallS, busyCores: cpuS / wallS, perCpuSecond: counts.ok / cpuS };
}

export async function runConcurrencyBench(env: BenchEnv, log: (line: string) => void = console.log) {
  if (env.stores.ch.kind !== 'chdb') throw new Error('the concurrency suite compares chDB paths; unset CLICKHOUSE_URL');
  const ws = env.workspaces[0]!;
  const { Session } = await import('chdb');
  // A session of its own for the one-at-a-time path, set up like the pool's.
  const serial = new Session(path.join(env.config.dataDir, 'chdb'));
  await serial.queryAsync(`USE ${ANALYTICS_DATABASE}`);
  await serial.queryAsync(`SET ${Object.entries(QUERY_SETTINGS).map(([k, v]) => `${k} = ${v}`).join(', ')}`);
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  const app = await buildApp({ config: env.config, stores: env.stores, limits, logger: createLogger('silent') });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const today = Date.now() - (Date.now() % DAY_MS);
    const cases = [
      { name: '/v3/events, first page', url: '/v3/events' },
      {
        name: 'campaign report, 90 days, 28-day window',
        url: `/v3/report?start_date=${formatDay(today - 89 * DAY_MS)}&end_date=${formatDay(today)}&breakdown=campaign&attribution_window=28`,
      },
    ];
    const rows: string[] = [];
    for (const c of cases) {
      const statements = await recordStatements(env, c.url, ws.headers);
      const onPool = async () => {
        for (const s of statements) await env.stores.ch.query(s.name, s.sql, s.params);
      };
      const oneAtATime = async () => {
        for (const s of statements) await serial.queryBindAsync(s.sql, s.params, { format: 'JSONEachRow' });
      };
      const api = await httpRate(`${base}${c.url}`, ws.headers);
      const pool = await concurrentRate(onPool, CLIENTS, SECONDS);
      const before = await concurrentRate(oneAtATime, CLIENTS, SECONDS);
      const line = `| ${c.name} | ${api.rps} | ${api.p50Ms} / ${api.p99Ms} | ${pool.rps} | ${pool.p50Ms} / ${pool.p99Ms} | ${before.rps} | ${round(api.rps / pool.rps, 2)} | ${round(api.rps / before.rps, 2)} |`;
      log(`${c.name}: API ${api.rps} req/s, pool ${pool.rps}/s, one at a time ${before.rps}/s`);
      rows.push(line);
    }
    // Report clients of one key, under the service's default bound on requests in flight.
    const bounded = await buildApp({
      config: { ...env.config, queries: { ...env.config.queries, maxPerKey: loadConfig({}).queries.maxPerKey } },
      stores: env.stores, limits, logger: createLogger('silent'),
    });
    const boundedBase = await bounded.listen({ port: 0, host: '127.0.0.1' });
    const clientRows: string[] = [];
    try {
      const cores = os.availableParallelism();
      let single: Awaited<ReturnType<typeof reportClients>> | null = null;
      for (const clients of REPORT_CLIENTS) {
        const r = await reportClients(`${boundedBase}${cases[1]!.url}`, ws.headers, clients);
        single ??= r;
        clientRows.push(`| ${clients} | ${r.ok} / ${r.refused} | ${round(r.perSecond, 2)} | ${round(r.busyCores, 2)} of ${cores} (${round((100 * r.busyCores) / cores)} %) | ${round(r.perCpuSecond, 2)} | ${round(r.perCpuSecond / single.perCpuSecond, 2)} | ${round(r.perSecond / single.perSecond, 2)} |`);
        log(`report clients ${clients}: ${r.ok} answered, ${r.refused} refused, ${round(r.busyCores, 2)} cores busy`);
      }
    } finally {
      await bounded.close();
    }
    log('');
    log(`| campaign report clients of one key, ${SECONDS} s | answered / refused (429) | reports/s | busy cores (process CPU) | reports per CPU second | work per busy core vs 1 client | throughput vs 1 client |`);
    log('|---|---|---|---|---|---|---|');
    for (const row of clientRows) log(row);
    log('');
    log(`| ${CLIENTS} clients, ${SECONDS} s | API req/s | API p50 / p99 ms | pool calls/s | pool p50 / p99 ms | one at a time calls/s | API / pool | API / one at a time |`);
    log('|---|---|---|---|---|---|---|---|');
    for (const row of rows) log(row);
  } finally {
    await app.close();
    await limits.close();
    serial.close();
  }
}
