/**
 * Isolation benchmark (docs/performance.md, "One key under another key's load"), on the shared
 * seeded data (bench/seed.ts), over real HTTP on listening servers:
 * - the latency of one key's `GET /v3/events` (first page, 7 days) and of the collector's
 *   duplicate check (`findStoredTransactions`, the lookup each collector insert waits on), p50 and
 *   p95 over ITERATIONS samples each,
 * - first with no other load, then while another workspace's key keeps eight 90-day campaign
 *   reports going at once (each of its eight loops sends the next report when one is answered, and
 *   waits the Retry-After of a 429 before trying again),
 * - under load twice: with the default bound on requests in flight per key (20) and with the bound
 *   off, so the engine queue's turn-taking shows on its own.
 * All phases run in one process on the same data, one after another.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { loadConfig } from '../../src/config.ts';
import { formatDay } from '../../src/kit/calendar/days.ts';
import { findStoredTransactions } from '../../src/collect/queries/find-stored-transactions.ts';
import type { BenchEnv } from '../seed.ts';
import { quantile, round } from '../measure.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 60);
const HEAVY_CLIENTS = 8;
const DEFAULT_BOUND = loadConfig({}).queries.maxPerKey;
const DAY_MS = 86_400_000;

interface Figures {
  eventsP50: number;
  eventsP95: number;
  dedupeP50: number;
  dedupeP95: number;
}

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return [round(quantile(sorted, 0.5)), round(quantile(sorted, 0.95))] as const;
};

async function timed(task: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}

/** HEAVY_CLIENTS loops of 90-day reports for one key until `stop()`; counts answers by status. */
function heavyLoad(base: string, headers: Record<string, string>) {
  const today = Date.now() - (Date.now() % DAY_MS);
  const url = `${base}/v3/report?start_date=${formatDay(today - 89 * DAY_MS)}&end_date=${formatDay(today)}&breakdown=campaign&attribution_window=28`;
  const counts = { ok: 0, refused: 0 };
  let running = true;
  const loops = Array.from({ length: HEAVY_CLIENTS }, async () => {
    while (running) {
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (response.status === 200) counts.ok++;
      else if (response.status === 429) {
        counts.refused++;
        await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
      } else throw new Error(`report answered ${response.status}`);
    }
  });
  return {
    counts,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

export async function runIsolationBench(env: BenchEnv, log: (line: string) => void = console.log) {
  const { ch } = env.stores;
  const [light, heavy] = [env.workspaces[0]!, env.workspaces[1]!];
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  const apps: FastifyInstance[] = [];
  const serve = async (maxPerKey: number) => {
    const config = { ...env.config, queries: { ...env.config.queries, maxPerKey } };
    const app = await buildApp({ config, stores: env.stores, limits, logger: createLogger('silent') });
    apps.push(app);
    return app.listen({ port: 0, host: '127.0.0.1' });
  };
  try {
    const bounded = await serve(DEFAULT_BOUND);
    const unbounded = await serve(0);
    // A duplicate check as the collector makes it: a handful of transaction ids of one workspace.
    const ids = (await ch.query<{ transaction_id: string }>('bench-transaction-ids',
      'SELECT transaction_id FROM conversions WHERE store_id = {store_id:UInt64} AND transaction_id != \'\' LIMIT 5',
      { store_id: light.id })).map((r) => r.transaction_id);
    const dedupe = () => findStoredTransactions(ch, { workspaceIds: [light.id], transactionIds: [...ids, 'not-stored'] });

    const sample = async (base: string): Promise<Figures> => {
      const events: number[] = [];
      const checks: number[] = [];
      for (let i = 0; i < ITERATIONS; i++) {
        events.push(await timed(async () => {
          const response = await fetch(`${base}/v3/events`, { headers: light.headers });
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`/v3/events answered ${response.status}`);
        }));
        checks.push(await timed(dedupe));
      }
      const [eventsP50, eventsP95] = stats(events);
      const [dedupeP50, dedupeP95] = stats(checks);
      return { eventsP50, eventsP95, dedupeP50, dedupeP95 };
    };

    for (let i = 0; i < 5; i++) {
      await (await fetch(`${bounded}/v3/events`, { headers: light.headers })).arrayBuffer();
      await dedupe();
    }
    const rows: { phase: string; figures: Figures; reports?: { ok: number; refused: number; seconds: number } }[] = [];
    rows.push({ phase: 'no other load', figures: await sample(bounded) });
    for (const [phase, base] of [[`${HEAVY_CLIENTS} 90-day reports of another key, default bound (${DEFAULT_BOUND} per key)`, bounded], [`${HEAVY_CLIENTS} 90-day reports of another key, bound off`, unbounded]] as const) {
      const started = performance.now();
      const load = heavyLoad(base, heavy.headers);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const figures = await sample(base);
      await load.stop();
      const reports = { ...load.counts, seconds: round((performance.now() - started) / 1000) };
      rows.push({ phase, figures, reports });
    }

    const idle = rows[0]!.figures;
    log('| phase | /v3/events p50 ms | p95 ms | p50 / idle | duplicate check p50 ms | p95 ms | other key: reports answered / refused (429) |');
    log('|---|---|---|---|---|---|---|');
    for (const { phase, figures: f, reports } of rows) {
      const other = reports ? `${reports.ok} / ${reports.refused} in ${reports.seconds} s` : '-';
      log(`| ${phase} | ${f.eventsP50} | ${f.eventsP95} | ${round(f.eventsP50 / idle.eventsP50, 2)} | ${f.dedupeP50} | ${f.dedupeP95} | ${other} |`);
    }
    return rows;
  } finally {
    for (const app of apps) await app.close();
    await limits.close();
  }
}
