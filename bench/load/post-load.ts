/**
 * A keep-alive POST load (autocannon) in a worker thread, off the server's event loop:
 * `connections` connections, each sending the same body one request at a time for `seconds`.
 * It keeps every response's latency, because autocannon's own summary has fixed percentiles
 * without p95, so the collector suite can print exact medians, p95 and p99.
 */
import { Worker } from 'node:worker_threads';
import { quantile, round } from '../measure.ts';

export interface PostLoadOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Extra headers per connection, cycled (e.g. each connection a visitor with its own address). */
  connectionHeaders?: Record<string, string>[];
  connections: number;
  seconds: number;
}

export interface PostLoadResult {
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Requests that failed without an answer. */
  errors: number;
  seconds: number;
  /** 2xx answers per second. */
  okPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

export async function postLoad(options: PostLoadOptions): Promise<PostLoadResult> {
  const worker = new Worker(new URL('./post-load-worker.mjs', import.meta.url), { workerData: options });
  const raw = await new Promise<{ statuses: Record<string, number>; errors: number; seconds: number; latencies: Float64Array }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  const sorted = Array.from(raw.latencies.sort());
  const ok = Object.entries(raw.statuses).reduce((n, [status, count]) => (status.startsWith('2') ? n + count : n), 0);
  return {
    statuses: raw.statuses,
    errors: raw.errors,
    seconds: raw.seconds,
    okPerSecond: round(ok / raw.seconds, 0),
    p50Ms: round(quantile(sorted, 0.5), 2),
    p95Ms: round(quantile(sorted, 0.95), 2),
    p99Ms: round(quantile(sorted, 0.99), 2),
  };
}
