/**
 * The real server (`main.ts start`) on a fresh data dir with REDIS_URL pointing at a port where
 * nothing listens and the rate limits on: it starts, serves data and reports the fallback in
 * /healthz; everything it writes in the data dir is owner-only; the admin endpoint refuses a
 * request a proxy handed on. Fixture: one workspace made through the CLI, one collected pageview.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { getJson, runCli, startServer, tempDataDir } from './run-cli.ts';

/** The collector's check with nothing waiting in its log (docs/operations.md). */
const IDLE_COLLECTOR = { status: 'ok', wal: { segments: 0, bytes: 0, oldest_segment_at: null }, dead_letters: { rows: 0 } };

const dataDir = tempDataDir();
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Every file and directory under `dir` with its permission bits, as `relative path -> octal`.
 * Symbolic links (chDB links table names to their data) have no mode of their own; their
 * targets are in the walk.
 */
function modes(dir: string): Record<string, string> {
  const found: Record<string, string> = { '.': (fs.statSync(dir).mode & 0o777).toString(8) };
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const file = path.join(entry.parentPath, entry.name);
    found[path.relative(dir, file)] = (fs.statSync(file).mode & 0o777).toString(8);
  }
  return found;
}

const openToOthers = (found: Record<string, string>) =>
  Object.entries(found).filter(([, mode]) => (parseInt(mode, 8) & 0o077) !== 0);

test('listens on loopback unless HOST says otherwise', () => {
  assert.equal(loadConfig({}).host, '127.0.0.1');
  assert.equal(loadConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0');
});

test('starts with Redis unreachable, serves on memory limits, keeps every data file owner-only and the admin endpoint local', async () => {
  const server = await startServer(dataDir, {
    REDIS_URL: `redis://127.0.0.1:${await deadPort()}`,
    STORELENS_RATE_PER_SECOND: '10',
    STORELENS_RATE_BURST: '20',
    STORELENS_DAILY_QUOTA: '1000',
    // The collected row stays in its write-ahead log segment while the files are checked.
    STORELENS_COLLECT_FLUSH_MS: '600000',
  });
  try {
    const health = await fetch(`${server.baseUrl}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), {
      status: 'degraded',
      checks: { analytics: 'ok', app_state: 'ok', data_dir: 'ok', redis: 'unreachable: rate limits use process memory', collect: IDLE_COLLECTOR },
    });
    assert.match(server.stderr(), /Redis unreachable: rate limits use process memory until it is back/);

    const created = await runCli(dataDir, ['workspace', 'create', '--name', 'Shop']);
    assert.equal(created.code, 0, created.stderr);
    const headers = { 'x-api-key': created.json.api_key, 'client-secret': created.json.client_secret };
    const events = await getJson(`${server.baseUrl}/v3/events`, headers);
    assert.equal(events.status, 200);
    assert.match(String((await fetch(`${server.baseUrl}/v3/events`, { headers })).headers.get('ratelimit')), /^"burst";r=\d+;t=\d+, "daily";r=\d+;t=\d+$/);

    const atStart = modes(dataDir);
    for (const file of ['app.sqlite', 'app.sqlite-wal', 'admin-token', 'server.json', 'collect', 'chdb']) assert.ok(file in atStart, `${file} exists`);
    assert.deepEqual(openToOthers(atStart), []);

    const collected = await fetch(`${server.baseUrl}/collect`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({
        pixel_id: created.json.pixel_id,
        visitor_id: '7001',
        session_id: '8001',
        entry_url: 'https://shop.example/',
        items: [{ type: 'event', name: 'pageview', url: 'https://shop.example/', ts: Date.now() }],
      }),
    });
    assert.equal(collected.status, 202);
    const afterCollect = modes(dataDir);
    assert.ok(Object.keys(afterCollect).some((file) => /^collect\/.+\.wal$/.test(file)), 'a write-ahead log segment exists');
    assert.deepEqual(openToOthers(afterCollect), []);

    const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    const forwarded = await fetch(`${server.baseUrl}/admin/cli`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-forwarded-for': '127.0.0.1' },
      body: JSON.stringify({ argv: ['key', 'create', '--workspace', String(created.json.workspace_id), '--scopes', 'admin:admin'] }),
    });
    assert.deepEqual([forwarded.status, await forwarded.json()], [404, { message: 'Not found' }]);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
