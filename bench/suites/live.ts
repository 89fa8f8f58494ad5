/**
 * The report on live data against merged data (docs/performance.md, "A bulk load ends merged"),
 * on its own data dir: a demo workspace seeded as `npm start` seeds it (same function, same
 * STORELENS_DEMO_DAYS), then the 90-day campaign report (default model) over real HTTP with the
 * demo's key, ITERATIONS requests per state, in these states of the same data, in turn:
 * - as just seeded: the seed runs with the merges that end a bulk load held back (recorded, not
 *   run), the state a store was left in before they existed;
 * - after those merges (run here, and timed: what they add to the seed);
 * - every table after `OPTIMIZE TABLE ... FINAL`: the merged baseline;
 * - a running store: a few collector-like small inserts of today's events and conversions into
 *   the current partition (one part each, as the collector's flushes leave them);
 * - that running store merged (its own baseline, since its rows differ from the others').
 * The first three must give the same rows, and so must the last two. Prints p50/p95/p99, the
 * ratio to the merged state's p50, the engine's user CPU per request (steadier than wall time on
 * a shared machine) and the parts of `sessions` and `visitor_customers`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { formatDay } from '../../src/kit/calendar/days.ts';
import { openStores } from '../../src/store/index.ts';
import type { Clickhouse } from '../../src/store/clickhouse.ts';
import { seedDemoWorkspace } from '../../src/cli/start.ts';
import { DemoGenerator } from '../../src/cli/demo/generate.ts';
import { DEMO_SEED } from '../../src/cli/demo/seed.ts';
import { findImportKind } from '../../src/collect/import/kinds.ts';
import { benchConfig } from '../seed.ts';
import { quantile, round } from '../measure.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const WARMUP = 3;
const DAY_MS = 86_400_000;
/** Collector-like flushes in the running-store state, and the sessions they hold in all. */
const FLUSHES = 4;
const LIVE_SESSIONS = 80;

interface StateTiming {
  state: string;
  p50: number;
  p95: number;
  p99: number;
  cpuMs: number;
  /** Background merges the engine ran while the state was measured (their CPU is in cpuMs). */
  merges: number;
  parts: string;
  load: string;
}

/** `ch` with every OPTIMIZE statement recorded in `held` instead of run: a load's state before its merges. */
export function holdingMerges(ch: Clickhouse, held: string[]): Clickhouse {
  return {
    kind: ch.kind,
    query: ch.query.bind(ch),
    stream: ch.stream.bind(ch),
    insertNdjson: ch.insertNdjson.bind(ch),
    close: ch.close.bind(ch),
    async exec(sql, params) {
      if (/^\s*OPTIMIZE\b/i.test(sql)) held.push(sql);
      else await ch.exec(sql, params);
    },
  };
}

/** The engine's user CPU (queries and background merges alike) and the merges it ran, so far. */
async function engineCounters(ch: Clickhouse): Promise<{ cpuUs: number; merges: number }> {
  const rows = await ch.query<{ event: string; value: string }>('bench-live',
    "SELECT event, value FROM system.events WHERE event IN ('UserTimeMicroseconds', 'Merge')");
  const value = (event: string) => Number(rows.find((r) => r.event === event)?.value ?? 0);
  return { cpuUs: value('UserTimeMicroseconds'), merges: value('Merge') };
}

const partsOf = async (ch: Clickhouse) =>
  (await ch.query<{ table: string; parts: string; partitions: string }>('bench-live', `
SELECT table, count() AS parts, uniqExact(partition) AS partitions FROM system.parts
WHERE database = currentDatabase() AND active AND table IN ('sessions', 'visitor_customers')
GROUP BY table ORDER BY table`)).map((r) => `${r.table} ${r.parts} parts / ${r.partitions} partitions`).join(', ');

const mergeTreeTables = async (ch: Clickhouse) =>
  (await ch.query<{ name: string }>('bench-live', `
SELECT name FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree' ORDER BY name`)).map((r) => r.name);

export async function runLiveBench(log: (line: string) => void = console.log) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-bench-live-'));
  const config = benchConfig(dataDir, true);
  const stores = await openStores(config, createLogger('silent'));
  const { ch } = stores;
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  const app = await buildApp({ config, stores, limits, logger: createLogger('silent') });
  try {
    const held: string[] = [];
    let started = performance.now();
    const demo = await seedDemoWorkspace(config, { ...stores, ch: holdingMerges(ch, held) }, createLogger('silent'));
    if (!demo) throw new Error('the demo was not seeded');
    const seedSeconds = (performance.now() - started) / 1000;
    log(`demo of ${config.demoDays} days seeded in ${round(seedSeconds)} s without its closing merges (the "merged" lines above were held back); ${await partsOf(ch)}`);

    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const headers = { 'x-api-key': demo.apiKey, 'client-secret': demo.clientSecret };
    const today = Date.now() - (Date.now() % DAY_MS);
    const url = `${base}/v3/report?start_date=${formatDay(today - 89 * DAY_MS)}&end_date=${formatDay(today)}&breakdown=campaign&limit=500`;
    const report = async () => {
      const response = await fetch(url, { headers });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`the report answered ${response.status}: ${text}`);
      return text;
    };
    const rowsOf = (text: string) => {
      const body = JSON.parse(text) as { data: unknown[]; pagination: unknown };
      return JSON.stringify([body.data, body.pagination]);
    };

    const timings: StateTiming[] = [];
    const measure = async (state: string): Promise<string> => {
      const rows = rowsOf(await report());
      for (let i = 1; i < WARMUP; i++) await report();
      const ms: number[] = [];
      const before = await engineCounters(ch);
      for (let i = 0; i < ITERATIONS; i++) {
        const t = performance.now();
        await report();
        ms.push(performance.now() - t);
      }
      const after = await engineCounters(ch);
      ms.sort((a, b) => a - b);
      const timing = {
        state,
        p50: round(quantile(ms, 0.5)),
        p95: round(quantile(ms, 0.95)),
        p99: round(quantile(ms, 0.99)),
        cpuMs: round((after.cpuUs - before.cpuUs) / 1000 / ITERATIONS),
        merges: after.merges - before.merges,
        parts: await partsOf(ch),
        load: os.loadavg().map((l) => l.toFixed(1)).join(' '),
      };
      timings.push(timing);
      log(`${state}: p50 ${timing.p50} ms, p95 ${timing.p95}, p99 ${timing.p99}, engine user CPU ${timing.cpuMs} ms per request, ${timing.merges} background merges; ${timing.parts}; load ${timing.load}`);
      return rows;
    };
    const same = (name: string, a: string, b: string) => log(`${name}: ${a === b ? 'same rows' : 'DIFFERENT ROWS'}`);

    const seeded = await measure('as just seeded (closing merges held back)');
    started = performance.now();
    for (const sql of held) await ch.exec(sql);
    const mergeSeconds = (performance.now() - started) / 1000;
    log(`the load's closing merges: ${held.length} statements, ${round(mergeSeconds, 2)} s (${round((100 * mergeSeconds) / seedSeconds)} % of the seed)`);
    same('after the closing merges against as seeded', await measure('after the closing merges (what a load now ends with)'), seeded);
    const tables = await mergeTreeTables(ch);
    for (const table of tables) await ch.exec(`OPTIMIZE TABLE ${table} FINAL`);
    same('every table merged against as seeded', await measure(`every table merged (${tables.length} tables)`), seeded);

    // Today's traffic of other visitors (another generator seed), in small blocks as collector flushes.
    const day = new DemoGenerator(DEMO_SEED + 1, LIVE_SESSIONS).day(today, config.demoDays - 1, config.demoDays, Date.now());
    const target = { workspaceId: demo.workspaceId, version: Date.now() * 1000 };
    for (const [kind, rows] of [['events', day.events], ['conversions', day.conversions]] as const) {
      const importKind = findImportKind(kind)!;
      const lines = rows.map((row) => JSON.stringify(importKind.toRow(row, target)));
      const per = Math.ceil(lines.length / FLUSHES);
      for (let i = 0; i < lines.length; i += per) await ch.insertNdjson(importKind.table, lines.slice(i, i + per).join('\n'));
    }
    log(`running store: ${day.events.length} events and ${day.conversions.length} conversions of today in ${FLUSHES} inserts each`);
    const running = await measure('running store (merged + small recent parts)');
    for (const table of ['sessions', 'visitor_customers']) await ch.exec(`OPTIMIZE TABLE ${table} FINAL`);
    same('running store merged against running store', await measure('running store, merged'), running);

    const merged = timings[2]!.p50;
    const runningMerged = timings[4]!.p50;
    log('');
    log('| state | p50 ms | p95 ms | p99 ms | p50 / merged | engine user CPU ms per request | merges meanwhile | sessions and buyer links |');
    log('|---|---|---|---|---|---|---|---|');
    for (const [i, t] of timings.entries()) {
      const ratio = round(t.p50 / (i < 3 ? merged : runningMerged), 2);
      log(`| ${t.state} | ${t.p50} | ${t.p95} | ${t.p99} | ${ratio}${i < 3 ? '' : ' (of the running store merged)'} | ${t.cpuMs} | ${t.merges} | ${t.parts} |`);
    }
    log(`seed ${round(seedSeconds)} s without the closing merges; the merges ${round(mergeSeconds, 2)} s`);
  } finally {
    await app.close();
    await limits.close();
    await stores.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
