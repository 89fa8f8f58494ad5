/**
 * Collector benchmark (docs/performance.md, "Collector"). In one process, on a temp data dir:
 * 1. 64 concurrent senders (autocannon) post one-event requests to POST /collect for DURATION
 *    seconds; every 202 is fsynced in the write-ahead log. Then the writer drains to ClickHouse.
 * 2. The same number of rows, built the same way, inserted straight into chDB in the writer's
 *    batch size: the raw baseline. The ratio compares the two rates.
 * 3. Single requests one after another: the time from the 202 to the row being visible in
 *    ClickHouse (what /v3/events reads), median and p90 over SAMPLES requests.
 * Run: `node --import tsx bench/suites/collector.ts` (or through bench/run.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openStores } from '../../src/store/index.ts';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createWorkspace } from '../../src/store/app/workspaces.ts';
import { collectBody, toRows } from '../../src/collect/payload.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

export interface CollectorResult {
  accepted: number;
  acceptedPerSecond: number;
  drainSeconds: number;
  rawRowsPerSecond: number;
  ratio: number;
  visibleMedianMs: number;
  visibleP90Ms: number;
  flushMs: number;
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

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export async function runCollectorBench(log: (line: string) => void = console.log): Promise<CollectorResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-bench-collector-'));
  const config = loadConfig({}, {
    dataDir,
    demo: false,
    rate: { perSecond: 0, burst: 0, daily: 0 },
    collect: { ...loadConfig({}).collect, perClientPerMinute: 0, perPixelPerSecond: 0 },
  });
  const logger = createLogger('silent');
  const stores = await openStores(config, logger);
  const limits = await createRateLimits(config.rate, null);
  const app = await buildApp({ config, stores, limits, logger });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const count = async (name: string) =>
    Number((await stores.ch.query<{ n: string }>('bench-count', 'SELECT count() AS n FROM events WHERE store_id = {s:UInt64} AND name = {name:String}', { s: workspace.id, name }))[0]!.n);
  const workspace = await createWorkspace(stores.db, { name: 'Bench', currency: 'USD', timezone: 'UTC' });
  try {
    // 1. Throughput under 64 concurrent senders.
    const body = JSON.stringify(payload(workspace.pixelId, 'bench_load', Date.now()));
    const result = await autocannon({
      url: `${base}/collect`,
      method: 'POST',
      connections: CONNECTIONS,
      workers: 1, // load generation off the server's event loop
      duration: DURATION,
      headers: { 'content-type': 'text/plain', 'user-agent': UA },
      body,
    });
    const accepted = result['2xx'];
    const drainStart = performance.now();
    while ((await count('bench_load')) < accepted) await sleep(20);
    const drainSeconds = (performance.now() - drainStart) / 1000;
    const acceptedPerSecond = accepted / DURATION;
    log(`collector: ${accepted} events accepted (fsynced) in ${DURATION} s with ${CONNECTIONS} senders = ${Math.round(acceptedPerSecond)} events/s; ${result.non2xx} non-2xx; drained to ClickHouse ${drainSeconds.toFixed(2)} s after the load stopped`);

    // 2. Raw chDB insert of the same rows, in the writer's batch size.
    const parsed = collectBody.parse(payload(workspace.pixelId, 'bench_raw', Date.now()));
    const row = JSON.stringify(toRows(parsed, { workspaceId: workspace.id, now: Date.now(), deviceType: 'desktop', countryCode: '' }).events[0]);
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

    // 3. Accept-to-visible latency, one request at a time.
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
    return { accepted, acceptedPerSecond, drainSeconds, rawRowsPerSecond, ratio, visibleMedianMs, visibleP90Ms, flushMs: config.collect.flushMs };
  } finally {
    await app.close();
    await limits.close();
    await stores.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runCollectorBench();
}
