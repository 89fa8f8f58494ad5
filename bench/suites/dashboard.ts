/**
 * Dashboard benchmark (docs/performance.md, "Dashboard"), on the shared seeded data: for one
 * workspace over 90 days, the time until a view's data are complete, as the browser fetches them
 * (GET /dashboard/api/me, then the view's endpoint) over real HTTP with a signed-in session:
 * - overview: `overview` (two report runs: the range by day and the period before it);
 * - attribution: `report?breakdown=source` with the view's default metrics.
 * Each with 1 and with 10 users loading the view at the same moment, ITERATIONS rounds, p50 and
 * p95 per load, on three servers over the same stores, in turn:
 * - uncached: no result cache (every load runs its reports);
 * - new data each round: the result cache, with the workspace's data version raised before every
 *   round (as a collector flush does), so each round's loads find nothing kept and share one
 *   computation;
 * - repeated: the result cache as the round before left it (a refresh with no new data);
 * - with REDIS_URL set, two processes sharing Redis, new data each round: the users' loads
 *   alternate between two more servers, each with its own cache and answers shared through Redis.
 * The server's reports that reached the engine are counted per variant.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { formatDay } from '../../src/kit/calendar/days.ts';
import { createUser, setMembership } from '../../src/store/app/users.ts';
import { hashPassword } from '../../src/dashboard/passwords.ts';
import { bumpDataVersions } from '../../src/store/app/data-versions.ts';
import { createResultCache, type ResultCache } from '../../src/kit/result-cache.ts';
import { openResultCache } from '../../src/store/result-cache.ts';
import type { Clickhouse } from '../../src/store/clickhouse.ts';
import type { BenchEnv } from '../seed.ts';
import { quantile, round } from '../measure.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 10);
const DAY_MS = 86_400_000;
const USERS = [1, 10];

async function ok(response: Response): Promise<unknown> {
  const body = await response.json();
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/** ITERATIONS rounds of `users` loads at the same moment, `beforeRound` first; p50/p95 of one load in ms. */
async function timeRounds(users: number, load: () => Promise<void>, beforeRound: () => Promise<void>) {
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    await beforeRound();
    await Promise.all(Array.from({ length: users }, async () => {
      const started = performance.now();
      await load();
      times.push(performance.now() - started);
    }));
  }
  times.sort((a, b) => a - b);
  return { p50: round(quantile(times, 0.5)), p95: round(quantile(times, 0.95)) };
}

export async function runDashboardBench(env: BenchEnv, log: (line: string) => void = console.log) {
  const ws = env.workspaces[0]!;
  const user = await createUser(env.stores.db, 'bench@example.com', await hashPassword('bench password'));
  await setMembership(env.stores.db, { userId: user.id, workspaceId: ws.id, role: 'owner', scopes: null });
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  let engineReports = 0;
  const ch: Clickhouse = {
    ...env.stores.ch,
    query(name, ...rest) {
      if (name.startsWith('report')) engineReports++;
      return env.stores.ch.query(name, ...rest);
    },
  };
  const apps: FastifyInstance[] = [];
  const closers: (() => void)[] = [];
  const cacheMb = env.config.resultCacheMb || 64;
  const redisUrl = process.env.REDIS_URL || null;
  const sharing = async () => {
    const cache = await openResultCache({ ...env.config, resultCacheMb: cacheMb, redisUrl, rate: { ...env.config.rate, redisPrefix: `storelens-bench-${process.pid}` } }, createLogger('silent'));
    closers.push(cache.close);
    return serve(cache.results);
  };
  const serve = async (results: ResultCache) => {
    const app = await buildApp({ config: env.config, stores: { ...env.stores, ch, results }, limits, logger: createLogger('silent') });
    apps.push(app);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const signIn = await fetch(`${base}/dashboard/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench password' }),
    });
    await ok(signIn);
    return { base, cookie: { cookie: signIn.headers.get('set-cookie')!.split(';')[0]! } };
  };
  try {
    const uncached = await serve(createResultCache(0));
    const cached = await serve(createResultCache(cacheMb * 1024 * 1024));
    const processes = redisUrl ? [await sharing(), await sharing()] : [];
    const today = Date.now() - (Date.now() % DAY_MS);
    const range = `start_date=${formatDay(today - 89 * DAY_MS)}&end_date=${formatDay(today)}`;
    const reportMetrics = 'spend,revenue,roas,conversions,cpa,sessions,cr,new_customers,net_profit,net_roas';
    const view = (server: { base: string; cookie: Record<string, string> }, endpoint: string) => async () => {
      await ok(await fetch(`${server.base}/dashboard/api/me`, { headers: server.cookie }));
      await ok(await fetch(`${server.base}/dashboard/api/${endpoint}`, { headers: server.cookie }));
    };
    const cases = [
      { name: 'overview, 90 days', endpoint: `overview?workspace=${ws.id}&${range}` },
      { name: 'attribution by source, 90 days', endpoint: `report?workspace=${ws.id}&${range}&breakdown=source&metrics=${reportMetrics}` },
    ];
    const nothing = async () => {};
    const newData = () => bumpDataVersions(env.stores.db, [ws.id]);
    const rows = [];
    for (const c of cases) {
      await view(uncached, c.endpoint)(); // warm-up
      for (const users of USERS) {
        let turn = 0;
        const variants = [
          ['uncached', view(uncached, c.endpoint), nothing],
          ['new data each round', view(cached, c.endpoint), newData],
          ['repeated', view(cached, c.endpoint), nothing],
          ...processes.length ? [['two processes sharing Redis, new data each round', () => view(processes[turn++ % 2]!, c.endpoint)(), newData] as const] : [],
        ] as const;
        const figures: string[] = [];
        for (const [name, load, before] of variants) {
          const counted = engineReports;
          const { p50, p95 } = await timeRounds(users, load, before);
          figures.push(`${p50} / ${p95} (${engineReports - counted})`);
          log(`${c.name}, ${users} user(s), ${name}: p50 ${p50} ms, p95 ${p95} ms, ${engineReports - counted} report statements`);
        }
        rows.push(`| ${c.name} | ${users} | ${figures.join(' | ')} |`);
      }
    }
    log('');
    const shared = processes.length ? ' two processes sharing Redis, new data each round |' : '';
    log(`| view | users at once | uncached p50 / p95 ms (report statements) | cached, new data each round | cached, repeated |${shared}`);
    log(`|---|---|---|---|---|${shared && '---|'}`);
    for (const row of rows) log(row);
    return rows;
  } finally {
    for (const app of apps) await app.close();
    for (const close of closers) close();
    await limits.close();
  }
}
