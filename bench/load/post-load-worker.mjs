/**
 * The worker of post-load.ts: autocannon, run inside this thread, with every response's latency
 * kept and posted back. Plain JavaScript: on Node 20 a worker thread does not get tsx's loader
 * for its entry file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

/** @type {import('./post-load.ts').PostLoadOptions} */
const options = workerData;
const extra = options.connectionHeaders ?? [];
const latencies = [];
const statuses = {};
let connections = 0;

const started = performance.now();
const instance = autocannon({
  url: options.url,
  method: 'POST',
  connections: options.connections,
  duration: options.seconds,
  headers: options.headers,
  body: options.body,
  // Each connection sends its own headers on top of the common ones (a visitor per connection).
  setupClient: (client) => {
    if (extra.length) client.setHeaders({ ...options.headers, ...extra[connections++ % extra.length] });
  },
}, (error, result) => {
  if (error) throw error;
  parentPort.postMessage({
    statuses,
    errors: result.errors + result.timeouts,
    seconds: (performance.now() - started) / 1000,
    latencies: Float64Array.from(latencies),
  });
});
instance.on('response', (_client, status, _bytes, ms) => {
  latencies.push(ms);
  statuses[status] = (statuses[status] ?? 0) + 1;
});
