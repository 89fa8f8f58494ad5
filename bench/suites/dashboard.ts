/**
 * Dashboard benchmark (docs/performance.md, "Dashboard"), on the shared seeded data: for one
 * workspace over 90 days, the time until a view's data are complete, as the browser fetches them
 * (GET /dashboard/api/me, then the view's endpoint) over real HTTP with a signed-in session:
 * - overview: `overview` (two report runs: the range by day and the period before it);
 * - attribution: `report?breakdown=source` with the view's default metrics.
 * Each with 1 and with 10 users loading the view at the same time (every user repeats the load
 * ITERATIONS times), p50 and p95 per load. Baseline measured in the same run: the same report
 * runs through /v3/report with an API key (overview: its two calls one after the other).
 */
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { formatDay } from '../../src/kit/dates.ts';
import { createUser, setMembership } from '../../src/store/app/users.ts';
import { hashPassword } from '../../src/dashboard/passwords.ts';
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

/** Runs `load` ITERATIONS times in each of `users` parallel loops; answers p50/p95 of one load in ms. */
async function timeLoads(users: number, load: () => Promise<void>): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  await load(); // warm-up
  await Promise.all(
    Array.from({ length: users }, async () => {
      for (let i = 0; i < ITERATIONS; i++) {
        const started = performance.now();
        await load();
        times.push(performance.now() - started);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { p50: round(quantile(times, 0.5)), p95: round(quantile(times, 0.95)) };
}

export async function runDashboardBench(env: BenchEnv, log: (line: string) => void = console.log) {
  const ws = env.workspaces[0]!;
  const user = await createUser(env.stores.db, 'bench@example.com', await hashPassword('bench password'));
  await setMembership(env.stores.db, { userId: user.id, workspaceId: ws.id, role: 'owner', scopes: null });
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  const app = await buildApp({ config: env.config, stores: env.stores, limits, logger: createLogger('silent') });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const signIn = await fetch(`${base}/dashboard/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench password' }),
    });
    await ok(signIn);
    const cookie = { cookie: signIn.headers.get('set-cookie')!.split(';')[0]! };
    const today = Date.now() - (Date.now() % DAY_MS);
    const range = `start_date=${formatDay(today - 89 * DAY_MS)}&end_date=${formatDay(today)}`;
    const previous = `start_date=${formatDay(today - 179 * DAY_MS)}&end_date=${formatDay(today - 90 * DAY_MS)}`;
    const overviewMetrics = 'spend,revenue,roas,conversions,sessions,cr,net_profit';
    const reportMetrics = 'spend,revenue,roas,conversions,cpa,sessions,cr,new_customers,net_profit,net_roas';
    const view = (endpoint: string) => async () => {
      await ok(await fetch(`${base}/dashboard/api/me`, { headers: cookie }));
      await ok(await fetch(`${base}/dashboard/api/${endpoint}`, { headers: cookie }));
    };
    const api = (...queries: string[]) => async () => {
      for (const q of queries) await ok(await fetch(`${base}/v3/report?${q}`, { headers: ws.headers }));
    };
    const cases = [
      {
        name: 'overview, 90 days',
        dashboard: view(`overview?workspace=${ws.id}&${range}`),
        baseline: api(`${range}&interval=day&metrics=${overviewMetrics}&limit=500`, `${previous}&metrics=${overviewMetrics}&limit=1`),
      },
      {
        name: 'attribution by source, 90 days',
        dashboard: view(`report?workspace=${ws.id}&${range}&breakdown=source&metrics=${reportMetrics}`),
        baseline: api(`${range}&breakdown=source&metrics=${reportMetrics}`),
      },
    ];
    const rows = [];
    for (const c of cases) {
      for (const users of USERS) {
        const dashboard = await timeLoads(users, c.dashboard);
        const baseline = await timeLoads(users, c.baseline);
        const row = { case: c.name, users, ...dashboard, baselineP50: baseline.p50, baselineP95: baseline.p95 };
        rows.push(row);
        log(`${c.name}, ${users} user(s): dashboard p50 ${row.p50} ms / p95 ${row.p95} ms; /v3/report p50 ${row.baselineP50} ms / p95 ${row.baselineP95} ms`);
      }
    }
    log('');
    log('| view | concurrent users | data complete p50 ms | p95 ms | same report runs via /v3/report p50 ms | p95 ms |');
    log('|---|---|---|---|---|---|');
    for (const r of rows) log(`| ${r.case} | ${r.users} | ${r.p50} | ${r.p95} | ${r.baselineP50} | ${r.baselineP95} |`);
    return rows;
  } finally {
    await app.close();
    await limits.close();
  }
}
