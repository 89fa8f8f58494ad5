/**
 * Bulk export benchmark (docs/performance.md, "Bulk export"): one workspace of BENCH_EXPORT_EVENTS
 * events (default BENCH_EVENTS, 20,000,000) over 90 days, on a data dir of its own
 * (BENCH_MERGED applies as for the shared data, bench/seed.ts).
 * - Throughput: GET /v3/export/events of the whole 90 days over real HTTP on a listening server,
 *   read to the end by a client that counts lines, in rows per second; each run beside the same
 *   rows straight from the engine: the export's statement (eventsStatement, the same SELECT) as
 *   `FORMAT JSONEachRow` on a chDB session of its own, read to the end, in turns so both see the
 *   same machine load. Goal: the export at 50 % of the engine's rate or more.
 * - Memory: this process is the server (the engine runs inside it on embedded chDB), so its
 *   resident set before an export and its peak during one (VmHWM, reset right before the export
 *   through /proc/self/clear_refs) say what an export costs the server. Goal: under 100 MB more.
 * - Once each for information: the same export as CSV and as Parquet.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Session } from 'chdb';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { formatDay } from '../../src/kit/calendar/days.ts';
import { resolveRange } from '../../src/kit/calendar/range.ts';
import { setParamsSql } from '../../src/store/chdb-params.ts';
import { ANALYTICS_DATABASE, QUERY_SETTINGS } from '../../src/store/clickhouse.ts';
import { eventsStatement } from '../../src/analytics/queries/events/list-events.ts';
import { benchSizes, openBenchEnv, partCounts } from '../seed.ts';
import { quantile, round } from '../measure.ts';

const ITERATIONS = Number(process.env.BENCH_EXPORT_ITERATIONS ?? 3);
const DAY_MS = 86_400_000;
const MB = 1024 * 1024;

/** Resident set now and its peak since the last reset, in bytes (Linux /proc). */
function memory(): { rss: number; peak: number } {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Sets the peak resident set back to the current one (Linux: "5" to clear_refs). */
function resetPeak(): void {
  fs.writeFileSync('/proc/self/clear_refs', '5');
}

interface Read {
  rows: number;
  bytes: number;
  seconds: number;
}

/** GETs `url` and reads the answer to its end, counting lines; fails on anything but 200. */
function download(url: string, headers: Record<string, string>): Promise<Read> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`${url} answered ${response.statusCode}`));
      let rows = 0;
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) rows++;
      });
      response.on('end', () => resolve({ rows, bytes, seconds: (performance.now() - started) / 1000 }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

const rate = (read: Read) => read.rows / read.seconds;

export async function runExportBench(log: (line: string) => void = console.log) {
  const events = Number(process.env.BENCH_EXPORT_EVENTS ?? process.env.BENCH_EVENTS ?? 20_000_000);
  const sizes = benchSizes(events, [1]);
  log(`seeding ${sizes.events} events in one workspace, ${sizes.merged ? 'merged' : 'unmerged'} ...`);
  const env = await openBenchEnv(sizes);
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  const app = await buildApp({ config: env.config, stores: env.stores, limits, logger: createLogger('silent') });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  // The engine's own session on the same data dir, as the export's pool opens them.
  const raw = new Session(path.join(env.config.dataDir, 'chdb'));
  try {
    log(`seeded in ${env.seedSeconds.toFixed(1)} s; ${await partCounts(env.stores.ch)}`);
    await raw.queryAsync(`USE ${ANALYTICS_DATABASE}`);
    await raw.queryAsync(`SET ${Object.entries(QUERY_SETTINGS).map(([name, value]) => `${name} = ${value}`).join(', ')}`);
    const ws = env.workspaces[0]!;
    const today = Date.now() - (Date.now() % DAY_MS);
    const days = { start_date: formatDay(today - 89 * DAY_MS), end_date: formatDay(today) };
    const statement = eventsStatement({ workspaceId: ws.id, range: resolveRange(days), channels: null }, {});
    const engine = async (): Promise<Read> => {
      const started = performance.now();
      await raw.queryAsync(setParamsSql(statement.sql, statement.params)!);
      let rows = 0;
      let bytes = 0;
      for await (const chunk of raw.queryStream(statement.sql, { format: 'JSONEachRow' })) {
        rows += chunk.numRows;
        bytes += chunk.numBytes;
      }
      return { rows, bytes, seconds: (performance.now() - started) / 1000 };
    };
    const url = (format: string) => `${base}/v3/export/events?start_date=${days.start_date}&end_date=${days.end_date}&format=${format}`;

    const exportRates: number[] = [];
    const engineRates: number[] = [];
    /** The run with the largest growth of the resident set during its export. */
    let worst = { before: 0, peak: 0 };
    let rows = 0;
    // Run 0 warms up (the engine's caches, the JIT) and is not counted.
    for (let i = 0; i <= ITERATIONS; i++) {
      resetPeak();
      const before = memory().rss;
      const exported = await download(url('ndjson'), ws.headers);
      const peak = memory().peak;
      resetPeak();
      const engineBefore = memory().rss;
      const direct = await engine();
      const engineGrowth = memory().peak - engineBefore;
      if (exported.rows !== direct.rows) throw new Error(`the export sent ${exported.rows} rows, the engine ${direct.rows}`);
      log(`${i === 0 ? 'warm-up' : `run ${i}`}: export ${round(exported.seconds, 2)} s (${Math.round(rate(exported))} rows/s, ${round(exported.bytes / MB)} MB), ` +
        `engine ${round(direct.seconds, 2)} s (${Math.round(rate(direct))} rows/s); RSS ${round(before / MB)} MB before the export, peak ${round(peak / MB)} MB ` +
        `(the engine's own read: +${round(engineGrowth / MB)} MB)`);
      if (i === 0) continue;
      rows = exported.rows;
      exportRates.push(rate(exported));
      engineRates.push(rate(direct));
      if (peak - before > worst.peak - worst.before) worst = { before, peak };
    }
    const median = (values: number[]) => quantile([...values].sort((a, b) => a - b), 0.5);
    const share = median(exportRates) / median(engineRates);
    const growth = (worst.peak - worst.before) / MB;
    log('');
    log('| rows | export rows/s (median) | engine JSONEachRow rows/s (median) | export / engine | server RSS before | peak during export | growth (largest run) |');
    log('|---|---|---|---|---|---|---|');
    log(`| ${rows} | ${Math.round(median(exportRates))} | ${Math.round(median(engineRates))} | ${round(share * 100)} % | ${round(worst.before / MB)} MB | ${round(worst.peak / MB)} MB | ${round(growth)} MB |`);
    log(`goals: export >= 50 % of the engine's rate: ${share >= 0.5 ? 'met' : 'NOT met'}; growth < 100 MB: ${growth < 100 ? 'met' : 'NOT met'}`);

    for (const format of ['csv', 'parquet']) {
      resetPeak();
      const idle = memory().rss;
      const read = await download(url(format), ws.headers);
      log(`${format}: ${round(read.seconds, 2)} s (${Math.round(rows / read.seconds)} rows/s), ${round(read.bytes / MB)} MB; peak RSS ${round((memory().peak - idle) / MB)} MB over ${round(idle / MB)} MB`);
    }
    return { rows, exportRowsPerSecond: median(exportRates), engineRowsPerSecond: median(engineRates), share, growthMb: growth };
  } finally {
    raw.close();
    await app.close();
    await limits.close();
    await env.close();
  }
}
