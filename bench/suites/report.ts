/**
 * Report benchmark (docs/performance.md, "Report"), on the shared seeded data (bench/seed.ts): for
 * one workspace, GET /v3/report over real HTTP on a listening server, median and p99 over
 * ITERATIONS requests, each beside one hand-written ClickHouse query computing the same
 * last_click numbers (same sessions, same buyer identity, same window), interleaved so both see
 * the same load. Before timing, the report's last_click rows are checked against that query.
 *
 * Cases: the default report (7 days); breakdown=campaign over 90 days with 28-day windows under
 * last_click, linear and any_click; interval=day with attribution_date=click over 90 days; and
 * interval=day over 90 days in UTC and in New York time, the pair that shows what a time zone costs.
 * Then the learned models' cost against linear (the same campaign report, paired), markov and
 * data_driven each: once with what they learned kept, once learned afresh on every call (the data
 * version is raised before each).
 */
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { rangeDays, resolveRange } from '../../src/kit/calendar/range.ts';
import { formatDay, formatTimestampMs } from '../../src/kit/calendar/days.ts';
import { reportingSourceSql } from '../../src/analytics/dimensions.ts';
import type { Clickhouse } from '../../src/store/clickhouse.ts';
import type { Range } from '../../src/kit/calendar/range.ts';
import type { BenchEnv } from '../seed.ts';
import { measurePaired } from '../measure.ts';
import { bumpDataVersions } from '../../src/store/app/data-versions.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const WARMUP = 3;
const DAY_MS = 86_400_000;
const TS = "DateTime64(3, 'UTC')";

interface Baseline {
  campaign: boolean;
  day: boolean;
  click: boolean;
  windowDays: number;
}

/**
 * The hand-written comparison: last click per conversion with argMaxIf over the buyer's tagged
 * sessions, plus ads and sessions, in one query. Output columns: src, camp, date, spend, revenue
 * (cents), conversions, sessions.
 */
export function baselineSql(b: Baseline): string {
  const keys = [...(b.campaign ? ['src', 'camp'] : []), ...(b.day ? ['date'] : [])];
  const group = keys.length ? `GROUP BY ${keys.join(', ')}` : '';
  // A timestamp's date in the request's zone; an ads row's dt is a date already.
  const sel = (src: string, camp: string, date: string) =>
    [...(b.campaign ? [`${src} AS src`, `${camp} AS camp`] : []), ...(b.day ? [`${date} AS date`] : [])].join(', ');
  const local = (ts: string) => `toDate(${ts}, {tz:String})`;
  const comma = keys.length ? ',' : '';
  const inWindow = `t.ident != '' AND t.started <= cv.dt AND t.started >= cv.dt - toIntervalDay(${b.windowDays})`;
  const creditDate = b.click ? 'if(n = 0, dt, lt.3)' : 'dt';
  return `
WITH
sess AS (
  SELECT session_id, started, tupleElement(landing, 'visitor_id') AS vis, tupleElement(landing, 'adv_source') AS ch,
    tupleElement(landing, 'adv_campaign_id') AS cp
  FROM sessions FINAL
  WHERE store_id = {store_id:UInt64} AND month BETWEEN toStartOfMonth({scan_start:${TS}}) AND toStartOfMonth({scan_end:${TS}})
    AND started BETWEEN {scan_start:${TS}} AND {scan_end:${TS}}
),
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
  WHERE c.store_id = {store_id:UInt64} AND c.dt BETWEEN {start:${TS}} AND {conv_end:${TS}}
),
last AS (
  SELECT cv.k AS k, any(cv.dt) AS dt, any(cv.rev) AS rev, countIf(${inWindow}) AS n,
    argMaxIf((t.ch, t.cp, t.started), (t.started, t.session_id), ${inWindow}) AS lt
  FROM cv LEFT JOIN touch AS t ON t.ident = cv.ident
  GROUP BY cv.k
)
SELECT ${keys.join(', ')}${comma} sum(spend) AS spend, sum(revenue) AS revenue, sum(conversions) AS conversions, sum(sessions) AS sessions
FROM (
  SELECT ${sel(`if(n = 0, 'organic', ${reportingSourceSql('lt.1')})`, "if(n = 0, '', lt.2)", local(creditDate))}${comma}
    0 AS spend, sum(rev) AS revenue, count() AS conversions, 0 AS sessions
  FROM last WHERE ${creditDate} BETWEEN {start:${TS}} AND {end:${TS}} ${group}
  UNION ALL
  SELECT ${sel(reportingSourceSql('source'), 'campaign_id', 'dt')}${comma} sum(spend), 0, 0, 0
  FROM ads FINAL WHERE store_id = {store_id:UInt64} AND dt BETWEEN {day_start:Date} AND {day_end:Date} ${group}
  UNION ALL
  SELECT ${sel(reportingSourceSql('ch'), 'cp', local('started'))}${comma} 0, 0, 0, count()
  FROM sess WHERE started BETWEEN {start:${TS}} AND {end:${TS}} ${group}
)
${group}`;
}

export function baselineParams(workspaceId: number, range: Range, b: Baseline) {
  const window = b.windowDays * DAY_MS;
  return {
    store_id: workspaceId,
    start: formatTimestampMs(range.startMs),
    end: formatTimestampMs(range.endMs),
    scan_start: formatTimestampMs(range.startMs - window),
    scan_end: formatTimestampMs(b.click ? range.endMs + window : range.endMs),
    conv_end: formatTimestampMs(b.click ? range.endMs + window : range.endMs),
    ...rangeDays(range),
    tz: range.timeZone,
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


export async function runReportBench(env: BenchEnv, log: (line: string) => void = console.log) {
  const { ch } = env.stores;
  const ws = env.workspaces[0]!;
  const limits = await createRateLimits({ perSecond: 0, burst: 0, daily: 0 }, null);
  const app = await buildApp({ config: env.config, stores: env.stores, limits, logger: createLogger('silent') });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const today = Date.now() - (Date.now() % DAY_MS);
    const from = formatDay(today - 89 * DAY_MS);
    const to = formatDay(today);
    const week = resolveRange({});
    const quarter = resolveRange({ start_date: from, end_date: to });
    const q90 = `start_date=${from}&end_date=${to}`;
    const newYork = 'America/New_York';
    const quarterInNewYork = resolveRange({ start_date: from, end_date: to, timezone: newYork });
    const daily: Baseline = { campaign: false, day: true, click: false, windowDays: 7 };
    const campaign: Baseline = { campaign: true, day: false, click: false, windowDays: 28 };
    const cases = [
      { name: 'default report (7 days)', url: '', range: week, b: { campaign: false, day: false, click: false, windowDays: 7 } },
      { name: 'breakdown=campaign, last_click, 28-day window, 90 days', url: `${q90}&breakdown=campaign&attribution_window=28`, range: quarter, b: campaign },
      { name: 'breakdown=campaign, linear, 28-day window, 90 days', url: `${q90}&breakdown=campaign&attribution_window=28&attribution_model=linear`, range: quarter, b: campaign },
      { name: 'breakdown=campaign, any_click, 28-day window, 90 days', url: `${q90}&breakdown=campaign&attribution_window=28&attribution_model=any_click`, range: quarter, b: campaign },
      { name: 'interval=day, attribution_date=click, 90 days', url: `${q90}&interval=day&attribution_date=click`, range: quarter, b: { campaign: false, day: true, click: true, windowDays: 7 } },
      { name: 'interval=day, 90 days, UTC', url: `${q90}&interval=day`, range: quarter, b: daily },
      { name: 'interval=day, 90 days, timezone=America/New_York', url: `${q90}&interval=day&timezone=${newYork}`, range: quarterInNewYork, b: daily },
    ];
    const get = async (query: string) => {
      const response = await fetch(`${base}/v3/report?${query}`, { headers: ws.headers });
      const body = (await response.json()) as { data: ReportRow[]; pagination: { total_rows: number } };
      if (response.status !== 200) throw new Error(`/v3/report?${query} answered ${response.status}: ${JSON.stringify(body)}`);
      return body;
    };
    const baseline = (c: (typeof cases)[number]) =>
      (ch as Clickhouse).query<BaseRow>('bench-report-baseline', baselineSql(c.b), baselineParams(ws.id, c.range, c.b));

    // Correctness first: last_click rows (every page) against the hand-written query.
    for (const c of cases.filter((c) => !c.url.includes('attribution_model='))) {
      const rows: ReportRow[] = [];
      for (let offset = 0; ; offset += 500) {
        const page = await get(`${c.url}&metrics=spend,revenue,conversions,sessions&limit=500&offset=${offset}`);
        rows.push(...page.data);
        if (offset + 500 >= page.pagination.total_rows) break;
      }
      const problems = compare(rows, await baseline(c), c.b);
      log(`${c.name}: ${rows.length} rows, ${problems.length ? `MISMATCH ${problems.slice(0, 5).join('; ')}` : 'equal to the hand-written last_click query'}`);
    }

    const results = [];
    for (const c of cases) {
      const { timing, last } = await measurePaired(() => get(c.url), () => baseline(c), {
        iterations: ITERATIONS,
        warmup: WARMUP,
      });
      const row = { case: c.name, rows: last.pagination.total_rows, ...timing };
      results.push(row);
      log(`${row.case}: ${row.rows} rows, report median ${row.apiMedianMs} ms / p99 ${row.apiP99Ms} ms, hand-written median ${row.engineMedianMs} ms / p99 ${row.engineP99Ms} ms, ratio ${row.ratio}`);
    }
    const learned = await measureLearned(env, get, `${q90}&breakdown=campaign&attribution_window=28`);
    log('');
    log('| case | rows | report median ms | report p99 ms | hand-written last_click median ms | p99 ms | report / hand-written (median) |');
    log('|---|---|---|---|---|---|---|');
    for (const r of results) log(`| ${r.case} | ${r.rows} | ${r.apiMedianMs} | ${r.apiP99Ms} | ${r.engineMedianMs} | ${r.engineP99Ms} | ${r.ratio} |`);
    log('');
    log('| learned model, breakdown=campaign, 28-day window, 90 days | model median ms | p99 ms | linear median ms | p99 ms | model / linear (median) |');
    log('|---|---|---|---|---|---|');
    for (const r of learned) log(`| ${r.case} | ${r.apiMedianMs} | ${r.apiP99Ms} | ${r.engineMedianMs} | ${r.engineP99Ms} | ${r.ratio} |`);
    return { results, learned };
  } finally {
    await app.close();
    await limits.close();
  }
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
