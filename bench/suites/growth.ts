/**
 * Cost growth (docs/performance.md, "Report cost as a workspace grows"): the 90-day campaign
 * report (28-day window, last_click, linear and any_click) for workspaces of 1x, 4x and 16x
 * today's per-workspace volume, on one data dir of the same total size as the shared benchmark
 * data (BENCH_EVENTS events over BENCH_WORKSPACES workspace units: one workspace of 16 units, one
 * of 4, the rest of 1). The three workspaces are requested in turn, round after round, so all
 * three see the same machine load; the suite prints each median and the growth factor per step.
 * BENCH_MERGED applies as for the shared data (bench/seed.ts).
 */
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { formatDay } from '../../src/kit/calendar/days.ts';
import { benchSizes, openBenchEnv, partCounts } from '../seed.ts';
import { quantile, round } from '../measure.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const WARMUP = 3;
const DAY_MS = 86_400_000;
const SCALES = [1, 4, 16];

export async function runGrowthBench(log: (line: string) => void = console.log) {
  const units = Number(process.env.BENCH_WORKSPACES ?? 50);
  const big = SCALES.filter((s) => s > 1).reduce((a, b) => a + b, 0);
  if (units < big + 1) throw new Error(`the growth suite needs BENCH_WORKSPACES >= ${big + 1}`);
  // Weights in SCALES order first (16x is last), then 1x filler up to the same total.
  const weights = [...SCALES, ...Array.from({ length: units - big - 1 }, () => 1)];
  const sizes = benchSizes(undefined, weights);
  log(`seeding ${sizes.events} events over ${sizes.workspaces} workspaces (weights ${weights.join(', ')}), ${sizes.merged ? 'merged' : 'unmerged'} ...`);
  const env = await openBenchEnv(sizes);
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  const app = await buildApp({ config: env.config, stores: env.stores, limits, logger: createLogger('silent') });
  try {
    log(`seeded in ${env.seedSeconds.toFixed(1)} s; ${await partCounts(env.stores.ch)}`);
    const today = Date.now() - (Date.now() % DAY_MS);
    const q90 = `start_date=${formatDay(today - 89 * DAY_MS)}&end_date=${formatDay(today)}&breakdown=campaign&attribution_window=28`;
    const get = async (headers: Record<string, string>, query: string) => {
      const response = await app.inject({ method: 'GET', url: `/v3/report?${query}`, headers });
      if (response.statusCode !== 200) throw new Error(`/v3/report?${query} answered ${response.statusCode}: ${response.body}`);
    };
    const rows: string[] = [];
    for (const model of ['last_click', 'linear', 'any_click']) {
      const query = `${q90}&attribution_model=${model}`;
      const ms: number[][] = SCALES.map(() => []);
      for (let i = 0; i < WARMUP + ITERATIONS; i++) {
        for (const [k] of SCALES.entries()) {
          const started = performance.now();
          await get(env.workspaces[k]!.headers, query);
          if (i >= WARMUP) ms[k]!.push(performance.now() - started);
        }
      }
      const medians = ms.map((m) => quantile(m.sort((a, b) => a - b), 0.5));
      const steps = medians.slice(1).map((m, k) => round(m / medians[k]!, 2));
      log(`${model}: medians ${medians.map((m, k) => `${SCALES[k]}x ${round(m)} ms`).join(', ')}; growth ${steps.map((g, k) => `${SCALES[k]}x->${SCALES[k + 1]}x ${g}`).join(', ')}`);
      rows.push(`| ${model} | ${medians.map((m) => round(m)).join(' | ')} | ${steps.join(' | ')} |`);
    }
    log('');
    log(`| 90-day campaign report | ${SCALES.map((s) => `${s}x median ms`).join(' | ')} | ${SCALES.slice(1).map((s, k) => `${SCALES[k]}x->${s}x`).join(' | ')} |`);
    log(`|---|${SCALES.map(() => '---|').join('')}${SCALES.slice(1).map(() => '---|').join('')}`);
    for (const row of rows) log(row);
  } finally {
    await app.close();
    await limits.close();
    await env.close();
  }
}
