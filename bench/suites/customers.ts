/**
 * Customers benchmark (docs/performance.md, "Customers"), on the shared seeded data: for one
 * workspace, GET /v3/customers beside GET /v3/report for the same range, interleaved so both see
 * the same load, over real HTTP. The report keeps answers per data version, so the version is
 * raised before every call of either: both are computed afresh each time. The goal: customers'
 * median under 1.5 times the report's.
 * Cases: 30 and 90 days, by first source against the report by source, and by cohort month
 * against the report per month.
 */
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { formatDay } from '../../src/kit/calendar/days.ts';
import { bumpDataVersions } from '../../src/store/app/data-versions.ts';
import type { BenchEnv } from '../seed.ts';
import { measurePaired } from '../measure.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const WARMUP = 3;
const DAY_MS = 86_400_000;

export async function runCustomersBench(env: BenchEnv, log: (line: string) => void = console.log) {
  const ws = env.workspaces[0]!;
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  const app = await buildApp({ config: env.config, stores: env.stores, limits, logger: createLogger('silent') });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const today = Date.now() - (Date.now() % DAY_MS);
    const range = (days: number) => `start_date=${formatDay(today - (days - 1) * DAY_MS)}&end_date=${formatDay(today)}`;
    const get = async (path: string) => {
      await bumpDataVersions(env.stores.db, [ws.id]);
      const response = await fetch(`${base}/v3/${path}`, { headers: ws.headers });
      const body = (await response.json()) as { data: unknown[]; totals: Record<string, number | null> };
      if (response.status !== 200) throw new Error(`/v3/${path} answered ${response.status}: ${JSON.stringify(body)}`);
      return body;
    };
    const cases = [30, 90].flatMap((days) => [
      { name: `breakdown=first_source, ${days} days`, customers: `customers?${range(days)}&breakdown=first_source`, report: `report?${range(days)}&breakdown=source` },
      { name: `breakdown=cohort_month, ${days} days`, customers: `customers?${range(days)}&breakdown=cohort_month`, report: `report?${range(days)}&interval=month` },
    ]);
    const results = [];
    for (const c of cases) {
      const { timing, last } = await measurePaired(() => get(c.customers), () => get(c.report), { iterations: ITERATIONS, warmup: WARMUP });
      const row = { case: c.name, rows: last.data.length, newCustomers: last.totals.new_customers, ...timing };
      results.push(row);
      log(`${row.case}: ${row.rows} rows, ${row.newCustomers} new customers, customers median ${row.apiMedianMs} ms / p99 ${row.apiP99Ms} ms, report median ${row.engineMedianMs} ms / p99 ${row.engineP99Ms} ms, ratio ${row.ratio}`);
    }
    log('');
    log('| case | rows | new customers | customers median ms | p99 ms | report median ms | p99 ms | customers / report (median) |');
    log('|---|---|---|---|---|---|---|---|');
    for (const r of results) log(`| ${r.case} | ${r.rows} | ${r.newCustomers} | ${r.apiMedianMs} | ${r.apiP99Ms} | ${r.engineMedianMs} | ${r.engineP99Ms} | ${r.ratio} |`);
    return { results };
  } finally {
    await app.close();
    await limits.close();
  }
}
