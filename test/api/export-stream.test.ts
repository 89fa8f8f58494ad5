/**
 * A long export over real HTTP: it streams with backpressure, counts against the key's bound on
 * requests in flight while it runs, and a client that goes away mid-stream stops the engine query
 * and frees the key. Fixture: 200,000 events of one workspace on one day (about 60 MB of NDJSON,
 * far more than the socket buffers hold, so a client that stops reading holds the stream).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createTestWorkspace, injectGet, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';

let t: TestApp;
let shop: TestWorkspace;
let port: number;
const EVENTS = 200_000;

before(async () => {
  t = await startTestApp({ queries: { timeoutMs: 10_000, maxPerKey: 1 } });
  shop = await createTestWorkspace(t.stores);
  await t.stores.ch.exec(
    `INSERT INTO events (store_id, dt, name, session_id, visitor_id, adv_source, pathname)
     SELECT {store_id:UInt64}, toDateTime64('2026-03-01 00:00:00', 3, 'UTC') + number / 4, 'pageview', 1000 + number % 5000, 1 + number % 5000, 'google', concat('/p/', toString(number))
     FROM numbers({events:UInt64})`,
    { store_id: shop.id, events: EVENTS },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
after(() => t.close());

/** Export queries the engine is running now (embedded chDB shows every session's queries). */
async function runningExports(): Promise<number> {
  const [row] = await t.stores.ch.query<{ n: string }>(
    'running-exports',
    "SELECT count() AS n FROM system.processes WHERE query LIKE '%FROM events%' AND query NOT LIKE '%system.processes%'",
  );
  return Number(row!.n);
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`gave up waiting until ${what}`);
}

test('a client that stops reading holds its stream and its in-flight slot; leaving stops the engine query and frees the key', async () => {
  const request = http.get({ port, host: '127.0.0.1', path: '/v3/export/events?start_date=2026-03-01&end_date=2026-03-01', headers: shop.headers });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => request.once('response', resolve).once('error', reject));
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['transfer-encoding'], 'chunked');
  const first: Buffer = await new Promise((resolve) => response.once('data', resolve));
  response.pause();
  assert.deepEqual(Object.keys(JSON.parse(first.toString().split('\n')[0]!)).slice(0, 3), ['store_id', 'dt', 'name']);

  // The export is one of the key's requests in flight (the bound is 1 here); another key is served.
  const same = await injectGet(t, '/v3/events?start_date=2026-03-01&end_date=2026-03-01', shop.headers);
  assert.deepEqual([same.status, same.body], [429, { message: 'Too many concurrent requests' }]);
  const other = await injectGet(t, '/v3/events?start_date=2026-03-01&end_date=2026-03-01&limit=1', await shop.keyHeaders(['read:google']));
  assert.equal(other.status, 200);
  // Embedded chDB: the engine query is still there, waiting for the client (the stand-in of the
  // server transport answers each query whole, so there is nothing to watch on that side).
  if (t.stores.ch.kind === 'chdb') await until('the export runs in the engine', async () => (await runningExports()) === 1);

  request.destroy();
  await until('the key is free again', async () => (await injectGet(t, '/v3/events?limit=1', shop.headers)).status === 200);
  assert.equal(await runningExports(), 0);
});

test('a client that reads to the end gets every row, in order', async () => {
  const body = await new Promise<string>((resolve, reject) => {
    http.get({ port, host: '127.0.0.1', path: '/v3/export/events?start_date=2026-03-01&end_date=2026-03-01', headers: shop.headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve(text));
      response.on('error', reject);
    });
  });
  const lines = body.split('\n');
  assert.equal(lines.pop(), '');
  assert.equal(lines.length, EVENTS);
  const times = lines.map((line) => JSON.parse(line).dt as string);
  assert.ok(times.every((dt, i) => i === 0 || times[i - 1]! <= dt));
  assert.equal(times[0], '2026-03-01 00:00:00');
  assert.equal(times.at(-1), '2026-03-01 13:53:19');
});
