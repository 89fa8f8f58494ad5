/**
 * What `FINAL` over several parts costs the report (docs/performance.md, "Report on data as the
 * collector inserts it"), on the shared seeded data: the statement of one 90-day linear campaign
 * report (28-day window), recorded from a request, run straight on the engine against
 * - the tables as they are (merged after the default seed),
 * - copies of `sessions` and `visitor_customers` split into PARTS parts per partition, merges
 *   stopped: sessions by time as collector flushes write them (days 1-8, 9-16, 17-24 and 25-31 of
 *   the month, by each row's start), buyer links by visitor id (random, so any split is alike),
 * - a copy of `sessions` with one part per month for everything older than two days and PARTS
 *   small parts for the last two days, twelve hours each (the state analytics migration 0011
 *   leaves),
 * - copies of every table the statement reads, each after `OPTIMIZE ... FINAL` (the merged state,
 *   as a baseline measured in the same run whatever state the seeded tables are in),
 * in turn, round after round, after checking that all four give the same rows. Prints medians
 * (beside the first and the merged variant) and the counters of one run of each (`system.events`
 * before and after); then what merging each month of the four-part copy costs (logMergeCost).
 */
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { formatDay } from '../../src/kit/calendar/days.ts';
import type { Clickhouse, QueryParams } from '../../src/store/clickhouse.ts';
import type { BenchEnv } from '../seed.ts';
import { quantile, round } from '../measure.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const PARTS = 4;
const DAY_MS = 86_400_000;
const COUNTERS = ['UserTimeMicroseconds', 'SelectedRows', 'ReadCompressedBytes', 'QueryAnalysisMicroseconds'];
const READ_TABLES = ['sessions', 'visitor_customers', 'conversions', 'orders', 'ads'];

/** `sql` reading `bench_merged_<table>` instead of each of READ_TABLES. */
const onMergedCopies = (sql: string) => sql.replace(new RegExp(`\\b(FROM|JOIN) (${READ_TABLES.join('|')})\\b`, 'g'), '$1 bench_merged_$2');

async function recordReport(env: BenchEnv, url: string): Promise<{ sql: string; params: QueryParams }> {
  let seen: { sql: string; params: QueryParams } | null = null;
  const ch: Clickhouse = {
    ...env.stores.ch,
    async query(name, sql, params = {}) {
      if (name === 'report') seen = { sql, params };
      return env.stores.ch.query(name, sql, params);
    },
  };
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  const app = await buildApp({ config: env.config, stores: { ...env.stores, ch }, limits, logger: createLogger('silent') });
  try {
    const response = await app.inject({ method: 'GET', url, headers: env.workspaces[0]!.headers });
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
  } finally {
    await app.close();
    await limits.close();
  }
  if (!seen) throw new Error('the report ran no statement named report');
  return seen;
}

/**
 * A copy of `table` without merges, filled by one INSERT per condition (one part each per
 * partition). The conditions must split the rows: bound values, not `now()`, which each INSERT
 * would read anew.
 */
async function splitCopy(ch: Clickhouse, table: string, copy: string, conditions: string[], params: QueryParams = {}) {
  await ch.exec(`DROP TABLE IF EXISTS ${copy} SYNC`);
  await ch.exec(`CREATE TABLE ${copy} AS ${table}`);
  await ch.exec(`SYSTEM STOP MERGES ${copy}`);
  for (const condition of conditions) await ch.exec(`INSERT INTO ${copy} SELECT * FROM ${table} WHERE ${condition}`, params);
}

const counters = async (ch: Clickhouse) =>
  Object.fromEntries((await ch.query<{ event: string; value: number }>('bench-events',
    'SELECT event, value FROM system.events WHERE event IN {names:Array(String)}', { names: COUNTERS })).map((r) => [r.event, Number(r.value)]));

/** Rows compared as sets, floats to 9 significant digits (summation order may differ). */
const normalized = (rows: unknown[]) =>
  rows.map((r) => JSON.stringify(r, (_, v) => (typeof v === 'number' ? Number(v.toPrecision(9)) : v))).sort().join('\n');

/**
 * What a scheduled merge of the recent partitions would write: each month of the copy, every
 * workspace's partition of it in PARTS parts (the newest month first, the one a running store keeps
 * adding to), merged into one part per partition with `OPTIMIZE ... PARTITION ... FINAL`, timed,
 * beside its rows.
 */
async function logMergeCost(ch: Clickhouse, log: (line: string) => void) {
  const partitions = await ch.query<{ partition_id: string; month: string; rows: string }>('bench-final', `SELECT partition_id,
    toString(any(min_date)) AS month, sum(rows) AS rows FROM system.parts
    WHERE database = currentDatabase() AND table = 'bench_sessions_parts' AND active
    GROUP BY partition_id ORDER BY month DESC, partition_id`);
  const months = new Map<string, { partitions: number; rows: number; ms: number }>();
  await ch.exec('SYSTEM START MERGES bench_sessions_parts');
  for (const p of partitions) {
    // Partition ids of a (workspace, month) key are the engine's own names, never input.
    if (!/^\d+-\d+$/.test(p.partition_id)) throw new Error(`unexpected partition id ${p.partition_id}`);
    const started = performance.now();
    await ch.exec(`OPTIMIZE TABLE bench_sessions_parts PARTITION ID '${p.partition_id}' FINAL`);
    const month = months.get(p.month) ?? { partitions: 0, rows: 0, ms: 0 };
    months.set(p.month, { partitions: month.partitions + 1, rows: month.rows + Number(p.rows), ms: month.ms + performance.now() - started });
  }
  log('');
  log(`| merging a month of bench_sessions_parts (${PARTS} parts per workspace) | workspaces | rows | ms | µs per row |`);
  log('|---|---|---|---|---|');
  for (const [month, m] of months) {
    log(`| ${month.slice(0, 7)} | ${m.partitions} | ${m.rows} | ${round(m.ms)} | ${round((m.ms * 1000) / Math.max(1, m.rows), 2)} |`);
  }
}

export async function runFinalPartsBench(env: BenchEnv, log: (line: string) => void = console.log) {
  const { ch } = env.stores;
  const today = Date.now() - (Date.now() % DAY_MS);
  const url = `/v3/report?start_date=${formatDay(today - 89 * DAY_MS)}&end_date=${formatDay(today)}&breakdown=campaign&attribution_window=28&attribution_model=linear`;
  const report = await recordReport(env, url);
  const slices = (slice: string) => Array.from({ length: PARTS }, (_, i) => `${slice} = ${i}`);
  await splitCopy(ch, 'sessions', 'bench_sessions_parts', slices(`intDiv(toDayOfMonth(started) - 1, ${Math.ceil(31 / PARTS)})`));
  await splitCopy(ch, 'visitor_customers', 'bench_visitor_customers_parts', slices(`visitor_id % ${PARTS}`));
  await splitCopy(ch, 'sessions', 'bench_sessions_tail', [
    'started < {recent:DateTime}',
    ...slices(`least(intDiv(toUnixTimestamp(started) - toUnixTimestamp({recent:DateTime}), ${(2 * 86_400) / PARTS}), ${PARTS - 1})`)
      .map((c) => `started >= {recent:DateTime} AND ${c}`),
  ], { recent: Math.floor(Date.now() / 1000) - 2 * 86_400 });
  for (const table of READ_TABLES) {
    await ch.exec(`DROP TABLE IF EXISTS bench_merged_${table} SYNC`);
    await ch.exec(`CREATE TABLE bench_merged_${table} AS ${table}`);
    await ch.exec(`INSERT INTO bench_merged_${table} SELECT * FROM ${table}`);
    await ch.exec(`OPTIMIZE TABLE bench_merged_${table} FINAL`);
  }
  const variants = {
    'as seeded': report.sql,
    [`${PARTS} parts per partition`]: report.sql.replace('sessions FINAL', 'bench_sessions_parts FINAL')
      .replace('visitor_customers FINAL', 'bench_visitor_customers_parts FINAL'),
    'merged + small recent parts': report.sql.replace('sessions FINAL', 'bench_sessions_tail FINAL'),
    'every table merged (copies)': onMergedCopies(report.sql),
  };
  try {
    const expected = normalized(await ch.query('bench-final', report.sql, report.params));
    for (const [name, sql] of Object.entries(variants)) {
      const same = normalized(await ch.query('bench-final', sql, report.params)) === expected;
      const before = await counters(ch);
      await ch.query('bench-final', sql, report.params);
      const after = await counters(ch);
      log(`${name}: ${same ? 'same rows' : 'DIFFERENT ROWS'}; ${COUNTERS.map((c) => `${c} ${(after[c] ?? 0) - (before[c] ?? 0)}`).join(', ')}`);
    }
    const ms: Record<string, number[]> = {};
    for (let i = 0; i < 2 + ITERATIONS; i++) {
      for (const [name, sql] of Object.entries(variants)) {
        const started = performance.now();
        await ch.query('bench-final', sql, report.params);
        if (i >= 2) (ms[name] ??= []).push(performance.now() - started);
      }
    }
    const base = quantile(ms['as seeded']!.sort((a, b) => a - b), 0.5);
    const merged = quantile(ms['every table merged (copies)']!.sort((a, b) => a - b), 0.5);
    log('');
    log('| tables read | median ms | p99 ms | / as seeded | / every table merged |');
    log('|---|---|---|---|---|');
    for (const [name, m] of Object.entries(ms)) {
      m.sort((a, b) => a - b);
      log(`| ${name} | ${round(quantile(m, 0.5))} | ${round(quantile(m, 0.99))} | ${round(quantile(m, 0.5) / base, 2)} | ${round(quantile(m, 0.5) / merged, 2)} |`);
    }
    await logMergeCost(ch, log);
  } finally {
    const copies = ['bench_sessions_parts', 'bench_visitor_customers_parts', 'bench_sessions_tail', ...READ_TABLES.map((t) => `bench_merged_${t}`)];
    for (const copy of copies) await ch.exec(`DROP TABLE IF EXISTS ${copy} SYNC`);
  }
}
