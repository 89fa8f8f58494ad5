/**
 * Collector benchmark (docs/performance.md, "Collector"). In one process, on a temp data dir:
 * 1. 64 concurrent keep-alive senders (bench/load, a worker thread) post the same one-event
 *    request for DURATION seconds, ROUNDS times alternately to two servers: a bare Fastify route
 *    that appends each body to a file and fdatasyncs it before answering 202 (the limit of any
 *    durable collector on this machine and disk: the baseline), and POST /collect, whose every 202
 *    is fsynced in the write-ahead log. Each sender is a visitor at its own public address
 *    (X-Forwarded-For, the server trusting its proxy), so the collector looks up every request's
 *    city. Each line shows the answers per second, the latency
 *    median, p95 and p99, and the server thread's CPU time per request. Then the writer drains
 *    to ClickHouse.
 * 2. The same number of rows, built the same way, inserted straight into chDB in the writer's
 *    batch size: how far below the engine's own insert rate the collector stays.
 * 3. The city lookup alone (src/collect/geo): µs per lookup in the bundled database, for
 *    addresses seen again and again (a shop's returning visitors) and for all-new ones.
 * 4. Single requests one after another: the time from the 202 to the row being visible in
 *    ClickHouse (what /v3/events reads), median and p90 over SAMPLES requests.
 * Run: `node --import tsx bench/suites/collector.ts` (or through bench/run.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openStores } from '../../src/store/index.ts';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createWorkspace } from '../../src/store/app/workspaces.ts';
import { collectBody, toRows } from '../../src/collect/payload.ts';
import { cityDatabase, type CityDatabase } from '../../src/collect/geo/city-database.ts';
import { postLoad, type PostLoadResult } from '../load/post-load.ts';
import { mainThreadCpuMs, quantile, round } from '../measure.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARMUP = 2;
const CONNECTIONS = 64;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

export interface CollectorResult {
  accepted: number;
  acceptedPerSecond: number;
  barePerSecond: number;
  /** Collector over bare route, accepted requests per second over all rounds. */
  bareRatio: number;
  drainSeconds: number;
  rawRowsPerSecond: number;
  ratio: number;
  visibleMedianMs: number;
  visibleP90Ms: number;
  flushMs: number;
  lookupRepeatedUs: number;
  lookupDistinctUs: number;
}

function payload(pixelId: string, name: string, now: number) {
  return {
    pixel_id: pixelId,
    visitor_id: '424242',
    session_id: '434343',
    entry_url: 'https://shop.example/?utm_source=facebook&utm_campaign=bench&fbclid=IwAR-bench',
    referrer: 'https://l.facebook.com/',
    timezone: 'Europe/Berlin',
    items: [{ type: 'event', name, url: 'https://shop.example/p/shoe', ts: now }],
  };
}

/**
 * The baseline: the least a durable collector must do per request. Fastify with the collector's
 * body parsing, each body appended to one file and fdatasynced before the 202; concurrent
 * requests' syncs overlap (the kernel commits them together where it can), nothing else runs.
 */
async function startBareCollector(dir: string): Promise<{ base: string; close(): Promise<void> }> {
  const file = await fs.promises.open(path.join(dir, 'bare.log'), 'a');
  const app = Fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.post('/collect', async (request, reply) => {
    await file.write(`${request.body as string}\n`);
    await file.datasync();
    return reply.code(202).send({ accepted: 1 });
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base,
    async close() {
      await app.close();
      await file.close();
    },
  };
}

/** One public address per sender, half IPv4, half IPv6 (both bundled database files are read). */
const VISITOR_ADDRESSES = Array.from({ length: CONNECTIONS }, (_, i) => (i % 2 ? `81.2.${64 + (i % 32)}.${10 + i}` : `2a02:8108:${(i * 97).toString(16)}::${i + 1}`));

/** A public IPv4 address from a counter, outside the private, reserved and multicast ranges. */
const publicAddress = (n: number) => `${[31, 62, 81, 91, 151, 176, 185, 212][n % 8]}.${(n >> 3) & 255}.${(n >> 11) & 255}.${1 + ((n * 7) % 250)}`;

/** Median µs per lookup over 5 rounds, for 1,000 addresses repeated 100 times, and for 100,000 different ones. */
async function cityLookupCost(database: CityDatabase): Promise<{ repeatedUs: number; distinctUs: number }> {
  const time = async (addresses: string[]) => {
    const rounds: number[] = [];
    for (let round = 0; round < 5; round++) {
      const started = performance.now();
      for (const address of addresses) await database.lookup(address);
      rounds.push(((performance.now() - started) * 1000) / addresses.length);
    }
    return round(quantile(rounds.sort((a, b) => a - b), 0.5), 1);
  };
  const returning = Array.from({ length: 1000 }, (_, i) => publicAddress(i));
  await time(returning);
  return {
    repeatedUs: await time(Array.from({ length: 100 }, () => returning).flat()),
    distinctUs: await time(Array.from({ length: 100_000 }, (_, i) => publicAddress(1_000_000 + i * 13))),
  };
}

/** One load's result, with the 202 answers and the server's main-thread CPU per answered request. */
type Measured = PostLoadResult & { accepted: number; cpuUs: number | null };

const describeLoad = (r: Measured) =>
  `${r.okPerSecond} req/s, latency median ${r.p50Ms} ms, p95 ${r.p95Ms} ms, p99 ${r.p99Ms} ms` +
  `${r.cpuUs === null ? '' : `, main-thread CPU ${Math.round(r.cpuUs)} µs/request`}${failures(r)}`;

function failures(r: PostLoadResult): string {
  const other = Object.entries(r.statuses).filter(([status]) => !status.startsWith('2'));
  return other.length || r.errors ? `; not 2xx: ${JSON.stringify(Object.fromEntries(other))}, ${r.errors} errors` : '';
}

export async function runCollectorBench(log: (line: string) => void = console.log): Promise<CollectorResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-bench-collector-'));
  const config = loadConfig({}, {
    dataDir,
    demo: false,
    rate: { perSecond: 0, burst: 0, daily: 0 },
    collect: { ...loadConfig({}).collect, perClientPerMinute: 0, perPixelPerSecond: 0 },
    // Behind a proxy: each sender is a visitor at a public address, looked up in the city database.
    trustProxy: true,
  });
  const logger = createLogger('silent');
  const stores = await openStores(config, logger);
  const limits = await createRateLimits(config.rate, null);
  const app = await buildApp({ config, stores, limits, logger });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const count = async (name: string) =>
    Number((await stores.ch.query<{ n: string }>('bench-count', 'SELECT count() AS n FROM events WHERE store_id = {s:UInt64} AND name = {name:String}', { s: workspace.id, name }))[0]!.n);
  const workspace = await createWorkspace(stores.db, { name: 'Bench', currency: 'USD', timezone: 'UTC' });
  const bare = await startBareCollector(dataDir);
  try {
    // 1. Throughput under 64 concurrent senders: bare route and collector, alternately, after an
    //    untimed warm-up of each (JIT, first segment, first insert).
    const body = JSON.stringify(payload(workspace.pixelId, 'bench_load', Date.now()));
    const load = async (url: string, seconds: number): Promise<Measured> => {
      const cpuBefore = mainThreadCpuMs();
      const result = await postLoad({
        url,
        body,
        headers: { 'content-type': 'text/plain', 'user-agent': UA },
        connectionHeaders: VISITOR_ADDRESSES.map((address) => ({ 'x-forwarded-for': address })),
        connections: CONNECTIONS,
        seconds,
      });
      const cpuAfter = mainThreadCpuMs();
      const answered = Object.values(result.statuses).reduce((a, b) => a + b, 0);
      const cpuUs = cpuBefore === null || cpuAfter === null || answered === 0 ? null : ((cpuAfter - cpuBefore) * 1000) / answered;
      return { ...result, accepted: result.statuses['202'] ?? 0, cpuUs };
    };
    let stored = (await load(`${base}/collect`, WARMUP)).accepted;
    await load(`${bare.base}/collect`, WARMUP);
    const bareRounds: Measured[] = [];
    const collectorRounds: Measured[] = [];
    for (let pass = 1; pass <= ROUNDS; pass++) {
      const baseline = await load(`${bare.base}/collect`, DURATION);
      log(`round ${pass} bare route (append + fdatasync per request): ${describeLoad(baseline)}`);
      const collector = await load(`${base}/collect`, DURATION);
      log(`round ${pass} collector (POST /collect, write-ahead log): ${describeLoad(collector)}`);
      bareRounds.push(baseline);
      collectorRounds.push(collector);
      stored += collector.accepted;
    }
    const drainStart = performance.now();
    while ((await count('bench_load')) < stored) await sleep(20);
    const drainSeconds = (performance.now() - drainStart) / 1000;
    const accepted = collectorRounds.reduce((n, r) => n + r.accepted, 0);
    const acceptedPerSecond = accepted / collectorRounds.reduce((n, r) => n + r.seconds, 0);
    const barePerSecond = bareRounds.reduce((n, r) => n + r.accepted, 0) / bareRounds.reduce((n, r) => n + r.seconds, 0);
    const bareRatio = acceptedPerSecond / barePerSecond;
    log(`collector: ${accepted} events accepted (fsynced) with ${CONNECTIONS} senders over ${ROUNDS} rounds = ${Math.round(acceptedPerSecond)} events/s vs bare route ${Math.round(barePerSecond)} req/s: ${round(bareRatio * 100, 0)} % of the baseline; drained to ClickHouse ${drainSeconds.toFixed(2)} s after the load stopped`);

    // 2. Raw chDB insert of the same rows, in the writer's batch size.
    const parsed = collectBody.parse(payload(workspace.pixelId, 'bench_raw', Date.now()));
    const row = JSON.stringify(toRows(parsed, { workspaceId: workspace.id, now: Date.now(), deviceType: 'desktop', countryCode: '', city: '' }).events[0]);
    const batch = Array.from({ length: config.collect.maxRows }, () => row).join('\n');
    const rawStart = performance.now();
    let inserted = 0;
    while (inserted < accepted) {
      const n = Math.min(config.collect.maxRows, accepted - inserted);
      await stores.ch.insertNdjson('events', n === config.collect.maxRows ? batch : batch.slice(0, (row.length + 1) * n - 1));
      inserted += n;
    }
    const rawRowsPerSecond = inserted / ((performance.now() - rawStart) / 1000);
    const ratio = acceptedPerSecond / rawRowsPerSecond;
    log(`raw chDB insert of the same ${inserted} rows: ${Math.round(rawRowsPerSecond)} rows/s; collector/raw = ${ratio.toFixed(4)}`);

    // 3. What a city lookup costs per event, apart from the load.
    const lookups = await cityLookupCost(cityDatabase(dataDir, logger));
    log(`city lookup (bundled database, IPv4): ${lookups.repeatedUs} µs per lookup for 1,000 addresses seen again and again, ${lookups.distinctUs} µs for 100,000 different addresses (medians of 5 rounds)`);

    // 4. Accept-to-visible latency, one request at a time.
    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const name = `bench_visible_${i}`;
      const response = await fetch(`${base}/collect`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'user-agent': UA },
        body: JSON.stringify(payload(workspace.pixelId, name, Date.now())),
      });
      if (response.status !== 202) throw new Error(`collector answered ${response.status}`);
      const acceptedAt = performance.now();
      while ((await count(name)) === 0) await sleep(5);
      latencies.push(performance.now() - acceptedAt);
      await sleep(Math.random() * config.collect.flushMs); // arrive at a random point of the flush cycle
    }
    latencies.sort((a, b) => a - b);
    const visibleMedianMs = quantile(latencies, 0.5);
    const visibleP90Ms = quantile(latencies, 0.9);
    log(`accept to visible (flush every ${config.collect.flushMs} ms): median ${Math.round(visibleMedianMs)} ms, p90 ${Math.round(visibleP90Ms)} ms over ${SAMPLES} requests`);
    return { accepted, acceptedPerSecond, barePerSecond, bareRatio, lookupRepeatedUs: lookups.repeatedUs, lookupDistinctUs: lookups.distinctUs, drainSeconds, rawRowsPerSecond, ratio, visibleMedianMs, visibleP90Ms, flushMs: config.collect.flushMs };
  } finally {
    await bare.close();
    await app.close();
    await limits.close();
    await stores.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runCollectorBench();
}
