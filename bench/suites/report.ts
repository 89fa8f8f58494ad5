/**
 * Report benchmark (docs/performance.md, "Report"), on the shared seeded data (bench/seed.ts): for
 * one workspace, GET /v3/report over real HTTP on a listening server, median and p99 over
 * ITERATIONS requests, each beside one hand-written ClickHouse query computing the same
 * last_click numbers (same sessions, same buyer identity, same window, same sales rules and
 * excluded transactions: `equal`), and beside the earlier rounds' query without those rules
 * (`loose`), the three in turn so all see the same load. The workspace gets an excluded-transaction
 * list first. Before timing, the report's last_click rows are checked against both.
 *
 * Cases: the default report (7 days); breakdown=campaign over 90 days with 28-day windows under
 * last_click, linear and any_click; interval=day with attribution_date=click over 90 days; and
 * interval=day over 90 days in UTC and in New York time, the pair that shows what a time zone costs.
 * Then the learned models' cost against linear (the same campaign report, paired), markov and
 * data_driven each: once with what they learned kept, once learned afresh on every call (the data
 * version is raised before each); and every model side by side (the dashboard's models view,
 * attribution.get-data) in one statement, beside one run per model and one model alone; and the
 * final-parts suite (the report on collector-like parts beside merged tables).
 */
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { rangeDays, resolveRange, undated } from '../../src/kit/calendar/range.ts';
import { formatDay, formatTimestampMs } from '../../src/kit/calendar/days.ts';
import { reportingSourceSql } from '../../src/analytics/dimensions.ts';
import type { Clickhouse } from '../../src/store/clickhouse.ts';
import type { Range } from '../../src/kit/calendar/range.ts';
import type { BenchEnv } from '../seed.ts';
import { measureInTurn, measurePaired, round } from '../measure.ts';
import { runFinalPartsBench } from './final-parts.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { runReport, runReportModels, type ReportRequest } from '../../src/analytics/report/run.ts';
import { ATTRIBUTION_MODELS } from '../../src/analytics/attribution/index.ts';
import { visibilityOf } from '../../src/analytics/permissions.ts';
import { bumpDataVersions } from '../../src/store/app/data-versions.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const WARMUP = 3;
const DAY_MS = 86_400_000;
const TS = "DateTime64(3, 'UTC')";

export interface Baseline {
  campaign: boolean;
  day: boolean;
  click: boolean;
  windowDays: number;
}

/**
 * Which conversions the hand-written query counts. `equal`: those the report counts, by the same
 * rules written by hand (a purchase that names a stored order, by id or name, whose newest version
 * is cancelled, test or pending counts in no number; the workspace's excluded transactions count
 * in none). `loose`: every conversion in the range, the baseline of the earlier rounds, which
 * equals the report only on data without orders or excluded ids.
 */
export type BaselineRules = 'equal' | 'loose';

/** The equal rules, as a condition on the conversion `c`: bound `excluded` is the settings' list. */
const EQUAL_RULES = `
    AND c.transaction_id NOT IN (
      SELECT arrayJoin(arrayFilter(x -> x != '', [transaction_id, order_name])) FROM orders FINAL
      WHERE store_id = {store_id:UInt64} AND status != 'sale')
    AND c.transaction_id NOT IN {excluded:Array(String)}`;

/** Whether a case reads the clicked touch: its campaign, or its date under click dates. */
const touchRead = (b: Baseline) => b.campaign || b.click;

/**
 * The hand-written comparison: last click per conversion with argMaxIf over the buyer's tagged
 * sessions, plus ads and sessions, in one query. Output columns: src, camp, date, spend, revenue
 * (cents), conversions, sessions. A case that reads nothing of the clicked touch (no campaign key,
 * conversion dates) counts each conversion on its own date, as one would write it by hand: last
 * click credits every conversion once, so no touch needs finding.
 */
export function baselineSql(b: Baseline, rules: BaselineRules = 'equal'): string {
  const keys = [...(b.campaign ? ['src', 'camp'] : []), ...(b.day ? ['date'] : [])];
  const group = keys.length ? `GROUP BY ${keys.join(', ')}` : '';
  // A timestamp's date in the request's zone; an ads row's dt is a date already.
  const sel = (src: string, camp: string, date: string) =>
    [...(b.campaign ? [`${src} AS src`, `${camp} AS camp`] : []), ...(b.day ? [`${date} AS date`] : [])].join(', ');
  const local = (ts: string) => `toDate(${ts}, {tz:String})`;
  const comma = keys.length ? ',' : '';
  const inWindow = `t.ident != '' AND t.started <= cv.dt AND t.started >= cv.dt - toIntervalDay(${b.windowDays})`;
  const creditDate = b.click ? 'if(n = 0, dt, lt.3)' : 'dt';
  // The buyer's touches and each conversion's last one in the window.
  const paths = `
idmap AS (
  SELECT visitor_id AS vis, customer_id AS cust FROM visitor_customers FINAL WHERE store_id = {store_id:UInt64}
),
touch AS (
  SELECT if(i.cust != '', concat('c:', i.cust), concat('v:', toString(s.vis))) AS ident, s.started AS started,
    s.session_id AS session_id, s.ch AS ch, s.cp AS cp
  FROM sess AS s LEFT JOIN idmap AS i ON i.vis = s.vis WHERE s.ch != ''
),
cv AS (
  SELECT concat(c._part, ':', toString(c._part_offset)) AS k, c.dt AS dt, c.transaction_gross_revenue AS rev,
    multiIf(c.customer_id != '', concat('c:', c.customer_id), i.cust != '', concat('c:', i.cust), concat('v:', toString(c.visitor_id))) AS ident
  FROM conversions AS c LEFT JOIN idmap AS i ON i.vis = c.visitor_id
  WHERE c.store_id = {store_id:UInt64} AND c.dt BETWEEN {start:${TS}} AND {conv_end:${TS}}${rules === 'equal' ? EQUAL_RULES : ''}
),
last AS (
  SELECT cv.k AS k, any(cv.dt) AS dt, any(cv.rev) AS rev, countIf(${inWindow}) AS n,
    argMaxIf((t.ch, t.cp, t.started), (t.started, t.session_id), ${inWindow}) AS lt
  FROM cv LEFT JOIN touch AS t ON t.ident = cv.ident
  GROUP BY cv.k
)`;
  const conversionRows = touchRead(b) ? `
  SELECT ${sel(`if(n = 0, 'organic', ${reportingSourceSql('lt.1')})`, "if(n = 0, '', lt.2)", local(creditDate))}${comma}
    0 AS spend, sum(rev) AS revenue, count() AS conversions, 0 AS sessions
  FROM last WHERE ${creditDate} BETWEEN {start:${TS}} AND {end:${TS}} ${group}` : `
  SELECT ${sel('', '', local('c.dt'))}${comma} 0 AS spend, sum(c.transaction_gross_revenue) AS revenue, count() AS conversions, 0 AS sessions
  FROM conversions AS c
  WHERE c.store_id = {store_id:UInt64} AND c.dt BETWEEN {start:${TS}} AND {end:${TS}}${rules === 'equal' ? EQUAL_RULES : ''} ${group}`;
  return `
WITH
sess AS (
  SELECT session_id, started, tupleElement(landing, 'visitor_id') AS vis, tupleElement(landing, 'adv_source') AS ch,
    tupleElement(landing, 'adv_campaign_id') AS cp
  FROM sessions FINAL
  WHERE store_id = {store_id:UInt64} AND month BETWEEN toStartOfMonth({scan_start:${TS}}) AND toStartOfMonth({scan_end:${TS}})
    AND started BETWEEN {scan_start:${TS}} AND {scan_end:${TS}}
)${touchRead(b) ? `,${paths}` : ''}
SELECT ${keys.join(', ')}${comma} sum(spend) AS spend, sum(revenue) AS revenue, sum(conversions) AS conversions, sum(sessions) AS sessions
FROM (${conversionRows}
  UNION ALL
  SELECT ${sel(reportingSourceSql('source'), 'campaign_id', 'dt')}${comma} sum(spend), 0, 0, 0
  FROM ads FINAL WHERE store_id = {store_id:UInt64} AND dt BETWEEN {day_start:Date} AND {day_end:Date} ${group}
  UNION ALL
  SELECT ${sel(reportingSourceSql('ch'), 'cp', local('started'))}${comma} 0, 0, 0, count()
  FROM sess WHERE started BETWEEN {start:${TS}} AND {end:${TS}} ${group}
)
${group}`;
}

export function baselineParams(workspaceId: number, range: Range, b: Baseline, excluded: readonly string[] = []) {
  const window = touchRead(b) ? b.windowDays * DAY_MS : 0;
  return {
    store_id: workspaceId,
    start: formatTimestampMs(range.startMs),
    end: formatTimestampMs(range.endMs),
    scan_start: formatTimestampMs(range.startMs - window),
    scan_end: formatTimestampMs(b.click ? range.endMs + window : range.endMs),
    conv_end: formatTimestampMs(b.click ? range.endMs + window : range.endMs),
    ...rangeDays(range),
    tz: range.timeZone,
    excluded: [...excluded],
  };
}

type BaseRow = { src?: string; camp?: string; date?: string; spend: number; revenue: number; conversions: number; sessions: number };
type ReportRow = Record<string, string | number | null>;

/** Compares the report's last_click rows (all pages) with the baseline; returns the mismatches. */
function compare(report: ReportRow[], base: BaseRow[], b: Baseline): string[] {
  const key = (r: { source?: unknown; src?: unknown; campaign?: unknown; camp?: unknown; date?: unknown }) =>
    [b.campaign ? (r.source ?? r.src) : '', b.campaign ? (r.campaign ?? r.camp) : '', b.day ? r.date : ''].join('|');
  const expected = new Map(base.map((r) => [key(r), r]));
  const problems: string[] = [];
  for (const row of report) {
    const want = expected.get(key(row));
    expected.delete(key(row));
    const got = [row.spend, row.revenue, row.conversions, row.sessions];
    const exp = want ? [Number(want.spend) / 100, Number(want.revenue) / 100, Number(want.conversions), Number(want.sessions)] : [0, 0, 0, 0];
    if (got.some((v, i) => Math.abs(Number(v) - exp[i]!) > 0.005)) problems.push(`${key(row)}: report ${got} vs baseline ${exp}`);
  }
  for (const [k, r] of expected) if (Number(r.revenue) || Number(r.sessions) || Number(r.spend)) problems.push(`${k}: missing in report`);
  return problems;
}


/** A report request of the suite, with the range it resolves to and its hand-written twin. */
export interface ReportCase {
  name: string;
  url: string;
  range: Range;
  b: Baseline;
}

/** The suite's cases over the 90 days up to `now` (the 7-day default report up to now). */
export function reportCases(now = Date.now()): ReportCase[] {
  const today = now - (now % DAY_MS);
  const from = formatDay(today - 89 * DAY_MS);
  const to = formatDay(today);
  const week = resolveRange({}, now);
  const quarter = resolveRange({ start_date: from, end_date: to }, now);
  const q90 = `start_date=${from}&end_date=${to}`;
  const newYork = 'America/New_York';
  const quarterInNewYork = resolveRange({ start_date: from, end_date: to, timezone: newYork }, now);
  const daily: Baseline = { campaign: false, day: true, click: false, windowDays: 7 };
  const campaign: Baseline = { campaign: true, day: false, click: false, windowDays: 28 };
  return [
    { name: 'default report (7 days)', url: '', range: week, b: { campaign: false, day: false, click: false, windowDays: 7 } },
    { name: 'breakdown=campaign, last_click, 28-day window, 90 days', url: `${q90}&breakdown=campaign&attribution_window=28`, range: quarter, b: campaign },
    { name: 'breakdown=campaign, linear, 28-day window, 90 days', url: `${q90}&breakdown=campaign&attribution_window=28&attribution_model=linear`, range: quarter, b: campaign },
    { name: 'breakdown=campaign, any_click, 28-day window, 90 days', url: `${q90}&breakdown=campaign&attribution_window=28&attribution_model=any_click`, range: quarter, b: campaign },
    { name: 'interval=day, attribution_date=click, 90 days', url: `${q90}&interval=day&attribution_date=click`, range: quarter, b: { campaign: false, day: true, click: true, windowDays: 7 } },
    { name: 'interval=day, 90 days, UTC', url: `${q90}&interval=day`, range: quarter, b: daily },
    { name: 'interval=day, 90 days, timezone=America/New_York', url: `${q90}&interval=day&timezone=${newYork}`, range: quarterInNewYork, b: daily },
  ];
}

/** A /v3/report client: the body of a 200, else an error naming the status. */
export type ReportGet = (query: string) => Promise<{ data: ReportRow[]; pagination: { total_rows: number } }>;

/** The hand-written query of a case, run on the engine. */
export const runBaseline = (ch: Clickhouse, workspaceId: number, c: ReportCase, rules: BaselineRules, excluded: readonly string[]) =>
  ch.query<BaseRow>('bench-report-baseline', baselineSql(c.b, rules), baselineParams(workspaceId, c.range, c.b, excluded));

/**
 * The mismatches between the report's rows of a last_click case (every page) and its hand-written
 * query under `rules`.
 */
export async function baselineMismatches(
  get: ReportGet, ch: Clickhouse, workspaceId: number, c: ReportCase, rules: BaselineRules, excluded: readonly string[],
): Promise<{ rows: number; problems: string[] }> {
  const rows: ReportRow[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await get(`${c.url}&metrics=spend,revenue,conversions,sessions&limit=500&offset=${offset}`);
    rows.push(...page.data);
    if (offset + 500 >= page.pagination.total_rows) break;
  }
  return { rows: rows.length, problems: compare(rows, await runBaseline(ch, workspaceId, c, rules, excluded), c.b) };
}

/** The transactions the bench excludes in the workspace settings: every 40th of its pixel purchases. */
export async function benchExcludedIds(ch: Clickhouse, workspaceId: number): Promise<string[]> {
  const rows = await ch.query<{ id: string }>('bench-excluded', `SELECT transaction_id AS id FROM conversions
    WHERE store_id = {store_id:UInt64} AND transaction_id != '' ORDER BY transaction_id`, { store_id: workspaceId });
  return rows.filter((_, i) => i % 40 === 0).map((r) => r.id);
}

export async function runReportBench(env: BenchEnv, log: (line: string) => void = console.log) {
  const { ch } = env.stores;
  const ws = env.workspaces[0]!;
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  const app = await buildApp({ config: env.config, stores: env.stores, limits, logger: createLogger('silent') });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const excluded = await benchExcludedIds(ch, ws.id);
  await updateSettings(env.stores.db, ws.id, { excluded_transaction_ids: excluded });
  try {
    const today = Date.now() - (Date.now() % DAY_MS);
    const q90 = `start_date=${formatDay(today - 89 * DAY_MS)}&end_date=${formatDay(today)}`;
    const cases = reportCases();
    const get: ReportGet = async (query) => {
      const response = await fetch(`${base}/v3/report?${query}`, { headers: ws.headers });
      const body = (await response.json()) as { data: ReportRow[]; pagination: { total_rows: number } };
      if (response.status !== 200) throw new Error(`/v3/report?${query} answered ${response.status}: ${JSON.stringify(body)}`);
      return body;
    };
    const [orders] = await ch.query<{ orders: string; not_sale: string; named: string }>('bench-orders', `SELECT count() AS orders,
      countIf(status != 'sale') AS not_sale, (SELECT count() FROM conversions WHERE store_id = {store_id:UInt64} AND startsWith(transaction_id, '#')) AS named
      FROM orders FINAL WHERE store_id = {store_id:UInt64}`, { store_id: ws.id });
    log(`workspace ${ws.id}: ${orders?.orders} orders, ${orders?.not_sale} no sale (cancelled, test, pending), ${orders?.named} pixel purchases naming their order; ${excluded.length} excluded transaction ids`);

    // Correctness first: last_click rows (every page) against the hand-written query, under both rules.
    for (const c of cases.filter((c) => !c.url.includes('attribution_model='))) {
      for (const rules of ['equal', 'loose'] as const) {
        const { rows, problems } = await baselineMismatches(get, ch as Clickhouse, ws.id, c, rules, excluded);
        log(`${c.name}: ${rows} rows, ${problems.length ? `${rules} rules: ${problems.length} rows differ, e.g. ${problems.slice(0, 2).join('; ')}` : `equal to the hand-written last_click query (${rules} rules)`}`);
      }
    }

    const results = [];
    for (const c of cases) {
      const t = await measureInTurn({
        report: () => get(c.url),
        equal: () => runBaseline(ch as Clickhouse, ws.id, c, 'equal', excluded),
        loose: () => runBaseline(ch as Clickhouse, ws.id, c, 'loose', excluded),
      }, { iterations: ITERATIONS, warmup: WARMUP });
      const rows = (await get(c.url)).pagination.total_rows;
      const row = { case: c.name, rows, ...t, ratio: round(t.report.medianMs / t.equal.medianMs, 2), looseRatio: round(t.report.medianMs / t.loose.medianMs, 2) };
      results.push(row);
      log(`${row.case}: ${rows} rows, report median ${t.report.medianMs} ms / p99 ${t.report.p99Ms} ms, equal-rules baseline ${t.equal.medianMs} / ${t.equal.p99Ms} ms (ratio ${row.ratio}), loose baseline ${t.loose.medianMs} ms (ratio ${row.looseRatio})`);
    }
    const learned = await measureLearned(env, get, `${q90}&breakdown=campaign&attribution_window=28`);
    const models = await measureModels(env, { start_date: formatDay(today - 89 * DAY_MS), end_date: formatDay(today), breakdown: 'source', attribution_window: 28 });
    log('');
    log('| case | rows | report median ms | p99 ms | equal-rules baseline median ms | p99 ms | report / equal-rules | loose baseline (earlier rounds) median ms | report / loose |');
    log('|---|---|---|---|---|---|---|---|---|');
    for (const r of results) {
      log(`| ${r.case} | ${r.rows} | ${r.report.medianMs} | ${r.report.p99Ms} | ${r.equal.medianMs} | ${r.equal.p99Ms} | ${r.ratio} | ${r.loose.medianMs} | ${r.looseRatio} |`);
    }
    log('');
    log('| learned model, breakdown=campaign, 28-day window, 90 days | model median ms | p99 ms | linear median ms | p99 ms | model / linear (median) |');
    log('|---|---|---|---|---|---|');
    for (const r of learned) log(`| ${r.case} | ${r.apiMedianMs} | ${r.apiP99Ms} | ${r.engineMedianMs} | ${r.engineP99Ms} | ${r.ratio} |`);
    log('');
    log(`| ${ATTRIBUTION_MODELS.length} models side by side, breakdown=source, 28-day window, 90 days | median ms | p99 ms | / one model (last_click) |`);
    log('|---|---|---|---|');
    for (const [name, r] of Object.entries(models)) log(`| ${name} | ${r.medianMs} | ${r.p99Ms} | ${round(r.medianMs / models['one model (last_click)'].medianMs, 2)} |`);
    log('');
    log('Collector-like parts against merged (the final-parts suite):');
    const parts = await runFinalPartsBench(env, log);
    return { results, learned, models, parts };
  } finally {
    // The suites after this one read the workspace as seeded.
    await updateSettings(env.stores.db, ws.id, { excluded_transaction_ids: [] });
    await app.close();
    await limits.close();
  }
}

/**
 * The models view's work (every model side by side, as the dashboard and attribution.get-data ask
 * it) in one statement, beside one run per model at once (what the view did before) and one model
 * alone, in turn on the report core. data_driven's chain is kept between calls (learning it afresh
 * is the data_driven case's second row, and costs the same in one statement or seven).
 */
async function measureModels(env: BenchEnv, request: ReportRequest) {
  const ws = env.workspaces[0]!;
  const auth = { workspaceId: ws.id, visibility: visibilityOf(['admin:admin']) };
  return measureInTurn({
    'one model (last_click)': () => runReport(env.stores, auth, { ...request, attribution_model: 'last_click' }),
    'every model, one statement': () => runReportModels(env.stores, auth, resolveRange(request), undated(request), ATTRIBUTION_MODELS),
    'every model, one run each (at once)': () =>
      Promise.all(ATTRIBUTION_MODELS.map((model) => runReport(env.stores, auth, { ...request, attribution_model: model }))),
  }, { iterations: ITERATIONS, warmup: WARMUP });
}

/** markov and data_driven against linear on the same report, paired: with what they learned kept, and learned afresh on every call. */
async function measureLearned(env: BenchEnv, get: (query: string) => Promise<unknown>, query: string) {
  const ws = env.workspaces[0]!;
  const runs = [
    { case: 'kept (repeated request)', before: async () => {} },
    { case: 'learned afresh (data version raised before each call)', before: () => bumpDataVersions(env.stores.db, [ws.id]) },
  ];
  const out = [];
  for (const model of ['markov', 'data_driven']) {
    for (const run of runs) {
      const { timing } = await measurePaired(
        async () => {
          await run.before();
          return get(`${query}&attribution_model=${model}`);
        },
        () => get(`${query}&attribution_model=linear`),
        { iterations: ITERATIONS, warmup: WARMUP },
      );
      out.push({ case: `${model}, ${run.case}`, ...timing });
    }
  }
  return out;
}
