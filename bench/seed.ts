/**
 * Benchmark data, generated inside the engine (INSERT ... SELECT FROM numbers(), never rows through
 * JS) on a temp data dir. Other suites reuse it: `openBenchEnv()` gives stores, the workspaces
 * with admin keys, and the sizes actually seeded.
 *
 * Shape (scaled by BENCH_EVENTS, default 20,000,000 events, and BENCH_WORKSPACES, default 50):
 * - workspaces of equal size (or weighted, see `BenchSizes.weights`); sessions spread over the 90 days up to now, 1 to 8 events each (4.5 on average),
 *   about two sessions per visitor; channels facebook, instagram, google, tiktok, microsoft, bing,
 *   creator, email and untagged (''), ad platforms carrying campaign/adgroup/ad ids and click ids
 *   that match the ad rows.
 * - conversions (1.5 % of the event count: 300k at full size) in real sessions, by their visitors,
 *   80 % with a customer id, some customer ids shared by several visitors.
 * - ad rows (500k at full size): per workspace, ad platform, day and ad; 5 % re-imported with a newer
 *   version and different numbers (only those may be returned).
 *
 * Two states of the same rows (BENCH_MERGED, docs/performance.md "Report"):
 * - merged (default, `BENCH_MERGED=1`): one large insert, then `OPTIMIZE ... FINAL`, the state
 *   background merges leave settled history in: one part per partition, FINAL has nothing to fold.
 * - unmerged (`BENCH_MERGED=0`): inserted the way the collector inserts, in time order, in small
 *   blocks (INSERT_BLOCK_ROWS events), so every block is a part of `events` and, through the
 *   materialized views, of `sessions` and `visitor_customers` with partial rows of the sessions
 *   that span blocks; merging is left to the engine's background merges.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { openStores, type Stores } from '../src/store/index.ts';
import { createWorkspace } from '../src/store/app/workspaces.ts';
import { createApiKey } from '../src/store/app/api-keys.ts';
import type { Clickhouse } from '../src/store/clickhouse.ts';

export const DAYS = 90;
/** Events per insert block in the unmerged state (a busy collector flush). */
export const INSERT_BLOCK_ROWS = Number(process.env.BENCH_BLOCK_ROWS ?? 20_000);
/** Raw channel per session, by weight; '' is untagged traffic. */
const CHANNELS = ['', '', '', '', 'facebook', 'facebook', 'instagram', 'google', 'google', 'tiktok', 'microsoft', 'bing', 'creator', 'email'];
export const AD_SOURCES = ['facebook', 'instagram', 'google', 'tiktok', 'microsoft', 'bing'];
const CLICK_IDS: Record<string, string> = { facebook: 'fbclid', instagram: 'fbclid', google: 'gclid', tiktok: 'ttclid', microsoft: 'msclkid', bing: 'msclkid' };
const EVENT_NAMES = ['pageview', 'pageview', 'pageview', 'view_content', 'add_to_cart', 'initiate_checkout', 'add_payment_info', 'contact', 'newsletter_signup', 'survey_opened'];
const PATHS = ['/', '/collections/summer', '/products/linen-shirt', '/products/sneaker', '/cart', '/checkout', '/blog/care-guide'];

export interface BenchSizes {
  events: number;
  workspaces: number;
  /**
   * Relative size of each workspace (length `workspaces`), all 1 unless a suite asks otherwise: a
   * workspace of weight 4 gets four times the sessions, conversions and ad rows of one of weight 1.
   */
  weights: number[];
  /** Merged history (OPTIMIZE FINAL) or collector-like small inserts left to background merges. */
  merged: boolean;
  sessions: number;
  conversions: number;
  ads: number;
  adsPerPlatformDay: number;
}

export function benchSizes(
  events = Number(process.env.BENCH_EVENTS ?? 20_000_000),
  weights: number[] = Array.from({ length: Number(process.env.BENCH_WORKSPACES ?? 50) }, () => 1),
  merged = process.env.BENCH_MERGED !== '0',
): BenchSizes {
  const sessions = Math.max(1, Math.round(events / 4.5));
  const units = weights.reduce((a, b) => a + b, 0);
  // 18.5 ads per platform and day for a workspace of 400,000 events (the full-size default).
  const adsPerPlatformDay = Math.max(1, Math.round((18.5 * events) / units / 400_000));
  return {
    events,
    workspaces: weights.length,
    weights,
    merged,
    sessions,
    conversions: Math.max(1, Math.round(events * 0.015)),
    ads: units * DAYS * AD_SOURCES.length * adsPerPlatformDay,
    adsPerPlatformDay,
  };
}

/**
 * Session ids (BENCH_SESSION_IDS): by default as the pixel makes them, the minute the session
 * started above 38 random bits, so they grow with time (docs/collection.md section 2); `random`
 * numbers sessions in an order unrelated to their time, as the pixel's ids were until 2026-11
 * (docs/performance.md, "Time-ordered session ids").
 */
const SESSION_ID = process.env.BENCH_SESSION_IDS === 'random'
  ? 's + 1'
  : `bitShiftLeft(toUInt64(intDiv(toUnixTimestamp(start_dt), 60)), 38) + cityHash64(s, 13) % ${2 ** 38}`;

/**
 * Session attributes as SQL over a session number `s` (UInt64): every table derives the same
 * session from the same number, so conversions land in real sessions by their real visitors.
 */
function sessionColumns(now: number) {
  return `
    s, ${SESSION_ID} AS session_id,
    {stores:Array(UInt64)}[1 + s % length({stores:Array(UInt64)})] AS store_id,
    1 + cityHash64(s, 2) % greatest(1, intDiv({sessions:UInt64}, 2)) AS visitor_id,
    toDateTime64(${Math.floor(now / 1000)} - cityHash64(s, 1) % ({days:UInt32} * 86400), 3, 'UTC') AS start_dt,
    1 + cityHash64(s, 3) % 8 AS len,
    {channels:Array(String)}[1 + cityHash64(s, 4) % length({channels:Array(String)})] AS channel,
    has({ad_sources:Array(String)}, channel) AS is_ad,
    cityHash64(s, 5) % ({ads_per_day:UInt32} * {store_weights:Array(UInt32)}[1 + s % length({stores:Array(UInt64)})]) AS ad_no`;
}

function params(workspaceIds: number[], sizes: BenchSizes) {
  return {
    // Each workspace as often as its weight (`s % length` picks them in proportion), with its weight
    // and the number of its repetition: a workspace of weight w has w times the ads.
    stores: workspaceIds.flatMap((id, i) => Array.from({ length: sizes.weights[i] ?? 1 }, () => id)),
    store_weights: workspaceIds.flatMap((_, i) => Array.from({ length: sizes.weights[i] ?? 1 }, () => sizes.weights[i] ?? 1)),
    store_reps: workspaceIds.flatMap((_, i) => Array.from({ length: sizes.weights[i] ?? 1 }, (_, rep) => rep)),
    sessions: sizes.sessions,
    days: DAYS,
    channels: CHANNELS,
    ad_sources: AD_SOURCES,
    ads_per_day: sizes.adsPerPlatformDay,
    names: EVENT_NAMES,
    paths: PATHS,
    click_keys: AD_SOURCES.map((s) => CLICK_IDS[s]),
  };
}

/** Ad ids as the ad rows carry them: `<source>-<ad number>`, 3 ads per adgroup, 2 adgroups per campaign. */
const AD_ID = (source: string, no: string) => `concat(${source}, '-ad-', toString(${no}))`;
const ADGROUP_ID = (source: string, no: string) => `concat(${source}, '-ag-', toString(intDiv(${no}, 3)))`;
const CAMPAIGN_ID = (source: string, no: string) => `concat(${source}, '-c-', toString(intDiv(${no}, 6)))`;

/**
 * Platform orders: every purchase conversion's, named `#<1000 + c>`; a third of the pixel's
 * purchases send that name instead of the id (the rest the id), so the sales rule matches by both.
 * Some orders are no sale (about 8 % cancelled, test or pending at their first version) and some
 * change status in a second, newer version (cancelled, or cancelled and back to sale), so the
 * report's `orders FINAL` has versions to fold and the sales rule has orders to leave out.
 */
const ORDER_NAME = "concat('#', toString(1000 + c))";
const PIXEL_TRANSACTION_ID = `if(c % 3 = 1, ${ORDER_NAME}, concat('T', toString(c)))`;
const FIRST_STATUS = "multiIf(c % 31 = 0, 'cancelled', c % 37 = 0, 'test', c % 41 = 0, 'pending', 'sale')";
const SECOND_STATUS = "if(c % 31 = 0, 'sale', 'cancelled')";

function ordersSql(version: 1 | 2, now: number): string {
  return `
INSERT INTO orders (store_id, transaction_id, order_name, dt, customer_id, is_new_customer, currency, gross_revenue,
  status, city, country_code, version)
SELECT store_id, concat('T', toString(c)), ${ORDER_NAME}, start_dt + toIntervalSecond(len * 60),
  if(cityHash64(c, 1) % 5 = 0, '', concat('cust-', toString(visitor_id % greatest(1, intDiv({sessions:UInt64} * 2, 5))))),
  toUInt8(cityHash64(c, 2) % 3 = 0), 'USD', 1000 + cityHash64(c, 3) % 29000,
  ${version === 1 ? FIRST_STATUS : SECOND_STATUS},
  ['Berlin', 'Austin', 'Leeds', 'Lyon', 'Graz'][1 + cityHash64(c, 4) % 5], ['DE', 'US', 'GB', 'FR', 'AT'][1 + cityHash64(c, 4) % 5], ${version}
FROM (SELECT c, ${sessionColumns(now)} FROM (SELECT number AS c, cityHash64(number, 99) % {sessions:UInt64} AS s FROM numbers({conversions:UInt64})))
WHERE c % 10 != 0${version === 2 ? ' AND (c % 13 = 0 OR (c % 31 = 0 AND c % 2 = 0))' : ''}`;
}

export async function seedAnalytics(ch: Clickhouse, workspaceIds: number[], sizes: BenchSizes, now = Date.now()): Promise<void> {
  const p = params(workspaceIds, sizes);
  const events = (where: string, tail: string) => `
INSERT INTO events (store_id, dt, name, session_id, visitor_id, visitor_timezone, adv_source, adv_campaign_id,
  adv_adgroup_id, adv_ad_id, utm_source, utm_medium, utm_campaign, device_type, country_code, hostname, pathname,
  referrer, entry_meta_keys, entry_meta_values)
SELECT store_id, start_dt + toIntervalSecond(k * (20 + cityHash64(s, k, 6) % 90)) AS event_dt,
  if(k = 0, 'pageview', {names:Array(String)}[1 + cityHash64(s, k, 7) % length({names:Array(String)})]),
  session_id, visitor_id, 'Europe/Berlin', channel,
  if(is_ad, ${CAMPAIGN_ID('channel', 'ad_no')}, ''), if(is_ad, ${ADGROUP_ID('channel', 'ad_no')}, ''), if(is_ad, ${AD_ID('channel', 'ad_no')}, ''),
  if(channel = '', '', channel), multiIf(is_ad, 'cpc', channel = 'email', 'email', channel = 'creator', 'creator', ''),
  if(is_ad, ${CAMPAIGN_ID('channel', 'ad_no')}, ''),
  ['desktop', 'mobile', 'mobile', 'tablet'][1 + cityHash64(s, 8) % 4], ['DE', 'US', 'GB', 'FR', 'AT'][1 + cityHash64(s, 9) % 5],
  'shop.example', if(k = 0, {paths:Array(String)}[1 + cityHash64(s, 10) % 3], {paths:Array(String)}[1 + cityHash64(s, k, 11) % length({paths:Array(String)})]),
  if(k = 0 AND channel != '', concat('https://', channel, '.example/'), ''),
  if(is_ad, [{click_keys:Array(String)}[indexOf({ad_sources:Array(String)}, channel)]], []),
  if(is_ad, [hex(cityHash64(s, 12))], [])
FROM (SELECT ${sessionColumns(now)} FROM (SELECT number AS s FROM numbers({sessions:UInt64}) WHERE ${where}))
ARRAY JOIN range(len) AS k
${tail}`;
  const conversions = (tail: string) => `
INSERT INTO conversions (store_id, dt, name, session_id, visitor_id, customer_id, transaction_id, is_new_customer,
  transaction_gross_revenue, transaction_currency, transaction_country_code, transaction_city, hostname)
SELECT store_id, start_dt + toIntervalSecond(len * 60) AS conv_dt, if(c % 10 = 0, 'lead', 'purchase'), session_id, visitor_id,
  if(cityHash64(c, 1) % 5 = 0, '', concat('cust-', toString(visitor_id % greatest(1, intDiv({sessions:UInt64} * 2, 5))))),
  ${PIXEL_TRANSACTION_ID}, toUInt8(cityHash64(c, 2) % 3 = 0), if(c % 10 = 0, 0, 1000 + cityHash64(c, 3) % 29000),
  'USD', ['DE', 'US', 'GB', 'FR', 'AT'][1 + cityHash64(c, 4) % 5], ['Berlin', 'Austin', 'Leeds', 'Lyon', 'Graz'][1 + cityHash64(c, 4) % 5],
  'shop.example'
FROM (SELECT c, ${sessionColumns(now)} FROM (SELECT number AS c, cityHash64(number, 99) % {sessions:UInt64} AS s FROM numbers({conversions:UInt64})))
${tail}`;

  if (sizes.merged) {
    await ch.exec(events('1', ''), p);
    await ch.exec(conversions(''), { ...p, conversions: sizes.conversions });
  } else {
    // One day of sessions per statement (oldest first), in time order, cut into blocks of
    // INSERT_BLOCK_ROWS events: each block becomes a part, as a collector flush does.
    const blocks = (rows: number) => `SETTINGS max_block_size = ${rows}, max_insert_block_size = ${rows},
  min_insert_block_size_rows = ${rows}, min_insert_block_size_bytes = 0, max_insert_threads = 1, max_threads = 1`;
    for (let day = DAYS - 1; day >= 0; day--) {
      await ch.exec(events(`intDiv(cityHash64(s, 1) % ({days:UInt32} * 86400), 86400) = {day:UInt32}`, `ORDER BY event_dt ${blocks(INSERT_BLOCK_ROWS)}`), { ...p, day });
    }
    // Conversions arrive with the same flushes: blocks of the same time span.
    const convRows = Math.max(1, Math.round((INSERT_BLOCK_ROWS * sizes.conversions) / sizes.events));
    await ch.exec(conversions(`ORDER BY conv_dt ${blocks(convRows)}`), { ...p, conversions: sizes.conversions });
  }

  await ch.exec(ordersSql(1, now), { ...p, conversions: sizes.conversions });
  await ch.exec(ordersSql(2, now), { ...p, conversions: sizes.conversions });

  const adRows = (version: number, where: string) => `
INSERT INTO ads (store_id, dt, source, ad_id, adaccount_id, campaign_id, campaign_name, adgroup_id, adgroup_name, ad_name,
  spend, impressions, clicks, reach, version)
SELECT store_id, dt, source, ${AD_ID('source', 'a')}, concat(source, '-acct-', toString(store_id)),
  ${CAMPAIGN_ID('source', 'a')}, concat('Campaign ', toString(intDiv(a, 6))), ${ADGROUP_ID('source', 'a')},
  concat('Adgroup ', toString(intDiv(a, 3))), concat('Ad ', toString(a)),
  500 + cityHash64(n, ${version}) % 20000 AS spend, 100 + cityHash64(n, 20 + ${version}) % 50000 AS impressions,
  intDiv(impressions, 50 + cityHash64(n, 30) % 100), if(source IN ('facebook', 'instagram'), intDiv(impressions * 4, 5), 0), ${version}
FROM (
  SELECT number AS n,
    {ad_sources:Array(String)}[1 + intDiv(n, {ads_per_day:UInt32}) % length({ad_sources:Array(String)})] AS source,
    toDate(${Math.floor(now / 1000)}, 'UTC') - intDiv(n, {ads_per_day:UInt32} * length({ad_sources:Array(String)})) % {days:UInt32} AS dt,
    intDiv(n, {ads_per_day:UInt32} * length({ad_sources:Array(String)}) * {days:UInt32}) AS unit,
    {stores:Array(UInt64)}[1 + unit % length({stores:Array(UInt64)})] AS store_id,
    n % {ads_per_day:UInt32} + {ads_per_day:UInt32} * {store_reps:Array(UInt32)}[1 + unit % length({stores:Array(UInt64)})] AS a
  FROM numbers({ads:UInt64})
)
WHERE ${where}`;
  await ch.exec(adRows(1, '1'), { ...p, ads: sizes.ads });
  await ch.exec(adRows(2, 'cityHash64(n, 40) % 20 = 0'), { ...p, ads: sizes.ads });
}

/** Active parts and rows per analytics table: how much FINAL has left to fold. */
export async function partCounts(ch: Clickhouse): Promise<string> {
  const rows = await ch.query<{ table: string; parts: number; rows: number }>('bench-parts', `
SELECT table, count() AS parts, sum(rows) AS rows FROM system.parts
WHERE database = currentDatabase() AND active AND table IN ('events', 'sessions', 'visitor_customers', 'conversions')
GROUP BY table ORDER BY table`);
  return rows.map((r) => `${r.table} ${r.parts} parts / ${r.rows} rows`).join(', ');
}

/** Whether the engine has folded `sessions` and `visitor_customers` into one part per partition. */
export async function folded(ch: Clickhouse): Promise<boolean> {
  const [row] = await ch.query<{ extra: number }>('bench-parts', `
SELECT toUInt64(count()) - toUInt64(uniqExact(table, partition)) AS extra FROM system.parts
WHERE database = currentDatabase() AND active AND table IN ('sessions', 'visitor_customers')`);
  return Number(row?.extra ?? 1) === 0;
}

export interface BenchWorkspace {
  id: number;
  /** Data-API headers of an admin key. */
  headers: Record<string, string>;
}

export interface BenchEnv {
  config: Config;
  stores: Stores;
  workspaces: BenchWorkspace[];
  sizes: BenchSizes;
  seedSeconds: number;
  close(): Promise<void>;
  /** Deletes the data dir without closing the stores (for an interrupted process). */
  removeDataDir(): void;
}

/**
 * The suites' config on `dataDir`: without rate limits or a bound on requests in flight (the
 * suites measure, they do not police), without the result cache (the suites time the work of a
 * request; kept answers would time the cache: the dashboard suite measures that itself, beside the
 * uncached figure), and without the demo unless `demo` is set. The query time limit may come from
 * the environment (STORELENS_QUERY_TIMEOUT_MS, 0 = none).
 */
export function benchConfig(dataDir: string, demo = false): Config {
  const limit = process.env.STORELENS_QUERY_TIMEOUT_MS;
  const env = limit === undefined ? {} : { STORELENS_QUERY_TIMEOUT_MS: limit };
  return loadConfig(env, {
    dataDir,
    demo,
    rate: { perSecond: 0, burst: 0, daily: 0 },
    queries: { ...loadConfig(env).queries, maxPerKey: 0 },
    resultCacheMb: 0,
  });
}

/** A temp data dir with the workspaces (admin key each) and the seeded analytics data. */
export async function openBenchEnv(sizes = benchSizes()): Promise<BenchEnv> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-bench-'));
  const config = benchConfig(dataDir);
  const stores = await openStores(config, createLogger('silent'));
  const workspaces: BenchWorkspace[] = [];
  for (let i = 0; i < sizes.workspaces; i++) {
    const ws = await createWorkspace(stores.db, { name: `Bench shop ${i + 1}`, currency: 'USD', timezone: 'UTC' });
    const key = await createApiKey(stores.db, ws.id, ['admin:admin']);
    workspaces.push({ id: ws.id, headers: { 'x-api-key': key.api_key, 'client-secret': key.client_secret } });
  }
  const started = performance.now();
  await seedAnalytics(stores.ch, workspaces.map((w) => w.id), sizes);
  // Settled history: merged as background merges leave data a few hours old.
  if (sizes.merged) for (const table of ['events', 'sessions', 'visitor_customers']) await stores.ch.exec(`OPTIMIZE TABLE ${table} FINAL`);
  const seedSeconds = (performance.now() - started) / 1000;
  return {
    config,
    stores,
    workspaces,
    sizes,
    seedSeconds,
    async close() {
      await stores.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    removeDataDir() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
