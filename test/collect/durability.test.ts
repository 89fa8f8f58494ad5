/**
 * Fixture: the real server (`src/cli/main.ts start`) on a free port and a temp data dir, with a
 * workspace created through the CLI. 40 concurrent collector requests are answered 202, the
 * process is SIGKILLed the moment the last answer arrives, and a restarted server must show
 * every accepted event exactly once. The writer flushes every 150 ms, so at the kill some rows
 * are in ClickHouse, some only in the write-ahead log, and an insert may be half done. A second
 * run kills the server in the middle of a burst of 64 concurrent senders, with requests still
 * waiting for their group's fsync.
 * A third run posts 40 survey answers (a survey drafted through the tool endpoint and published
 * with the CLI) and kills the server at the last answer: each must be read back after the restart.
 * A fourth does the same with 40 submissions to a live form (created and published with the CLI).
 * The same server runs `webhook secret` / `webhook rotate` through the CLI.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from '../support/free-port.ts';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DESKTOP_UA, todayRange } from './helpers.ts';
import { signWebhook } from '../../src/collect/order-webhook.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-kill-'));
let server: ChildProcess | null = null;
/** The restarted server of the first test, reused by the second. */
let live: { port: number; base: string } | null = null;

function env(port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    STORELENS_DATA_DIR: dataDir,
    STORELENS_DEMO: '0',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    STORELENS_COLLECT_FLUSH_MS: '150',
    STORELENS_COLLECT_RATE_PER_CLIENT: '0',
    STORELENS_RATE_PER_SECOND: '0',
    STORELENS_DAILY_QUOTA: '0',
  };
}

async function startServer(port: number): Promise<string> {
  server = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'start'], { cwd: ROOT, env: env(port), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  server.stderr!.on('data', (chunk) => (stderr += chunk));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return base;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`server did not start: ${stderr}`);
}

async function kill(): Promise<void> {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server!.once('exit', resolve));
  server.kill('SIGKILL');
  await exited;
}

function cli(port: number, ...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env: env(port), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

/** Posts event `<prefix>_<i>` (its own visitor and session) to the collector; answers the status. */
async function postEvent(base: string, pixelId: string, prefix: string, i: number, ts: number): Promise<number> {
  const response = await fetch(`${base}/collect`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'user-agent': DESKTOP_UA },
    body: JSON.stringify({
      pixel_id: pixelId, visitor_id: String(1000 + i), session_id: String(5000 + i),
      entry_url: 'https://shop.example/', items: [{ type: 'event', name: `${prefix}_${i}`, url: 'https://shop.example/', ts }],
    }),
  });
  return response.status;
}

/** The names of the workspace's stored events of today, through /v3/events. */
async function storedNames(base: string, workspace: { api_key: string; client_secret: string }): Promise<string[]> {
  const headers = { 'x-api-key': workspace.api_key, 'client-secret': workspace.client_secret };
  const response = await fetch(`${base}/v3/events?${todayRange()}&limit=500`, { headers });
  assert.equal(response.status, 200);
  return ((await response.json()) as { data: Array<{ name: string }> }).data.map((e) => e.name);
}

after(async () => {
  await kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('every event answered 202 is stored exactly once after the server is killed and restarted', async () => {
  const port = await freePort();
  const base = await startServer(port);
  const workspace = cli(port, 'workspace', 'create', '--name', 'Kill shop');

  const now = Date.now() - 30_000;
  const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => postEvent(base, workspace.pixel_id, 'kill', i, now + i)));
  await kill();
  const accepted = statuses.flatMap((status, i) => (status === 202 ? [`kill_${i}`] : [])).sort();
  assert.equal(accepted.length, 40);

  const restarted = await startServer(port);
  assert.deepEqual((await storedNames(restarted, workspace)).sort(), accepted);
  live = { port, base: restarted };
});

test('under a burst of concurrent requests cut by kill -9, every event answered 202 is stored exactly once', async () => {
  const port = live?.port ?? (await freePort());
  const base = live?.base ?? (await startServer(port));
  const workspace = cli(port, 'workspace', 'create', '--name', 'Burst shop');

  // 64 senders share REQUESTS requests; the server is killed once half of them are answered,
  // so the kill lands while groups of appends wait for their shared fsync.
  const REQUESTS = 400;
  const now = Date.now() - 30_000;
  const accepted: string[] = [];
  let next = 0;
  let answered = 0;
  let killing: Promise<void> | null = null;
  const sender = async () => {
    while (next < REQUESTS && !killing) {
      const i = next++;
      try {
        if ((await postEvent(base, workspace.pixel_id, 'burst', i, now + i)) === 202) accepted.push(`burst_${i}`);
      } catch {
        continue; // the connection was cut by the kill: this request was never answered
      }
      if (++answered === REQUESTS / 2) killing = kill();
    }
  };
  await Promise.all(Array.from({ length: 64 }, sender));
  await killing;
  assert.ok(accepted.length >= REQUESTS / 2, `only ${accepted.length} answered 202`);

  const restarted = await startServer(port);
  const stored = await storedNames(restarted, workspace);
  // Each stored event once; every accepted one among them; nothing that was never sent.
  assert.equal(new Set(stored).size, stored.length);
  assert.deepEqual(accepted.filter((name) => !stored.includes(name)), []);
  assert.deepEqual(stored.filter((name) => !/^burst_\d+$/.test(name) || Number(name.slice(6)) >= REQUESTS), []);
  live = { port, base: restarted };
});

/** A tool call over HTTP with the workspace's admin key; answers the structured result. */
async function tool(base: string, workspace: { api_key: string; client_secret: string }, name: string, args: unknown) {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${workspace.api_key}:${workspace.client_secret}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return ((await response.json()) as { result: { structuredContent: any } }).result.structuredContent;
}

test('every survey answer answered 202 is read back after the server is killed and restarted', async () => {
  const port = live?.port ?? (await freePort());
  const base = live?.base ?? (await startServer(port));
  const workspace = cli(port, 'workspace', 'create', '--name', 'Survey shop');
  const { survey } = await tool(base, workspace, 'surveys.create', {
    title: 'After your order',
    questions: [{ text: 'How did you hear about us?', type: 'single_choice', options: ['Instagram', 'Podcast'] }],
  });
  cli(port, 'survey', 'publish', '--workspace', String(workspace.workspace_id), '--survey', survey.id);

  const post = async (i: number) => {
    const response = await fetch(`${base}/collect/survey`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'user-agent': DESKTOP_UA },
      body: JSON.stringify({ pixel_id: workspace.pixel_id, survey_id: survey.id, transaction_id: `S-${i}`, answers: [{ question: 0, value: i % 2 ? 'Podcast' : 'Instagram' }] }),
    });
    return response.status;
  };
  const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => post(i)));
  await kill();
  assert.deepEqual(statuses, Array(40).fill(202));

  const restarted = await startServer(port);
  const { responses } = await tool(restarted, workspace, 'surveys.get-responses', { survey_id: survey.id, limit: 100 });
  assert.deepEqual(
    responses.map((r: { transaction_id: string; answers: unknown }) => [r.transaction_id, r.answers]).sort(),
    Array.from({ length: 40 }, (_, i) => [`S-${i}`, [{ question: 0, value: i % 2 ? 'Podcast' : 'Instagram' }]]).sort(),
  );
  live = { port, base: restarted };
});

test('every form submission answered 202 is counted after the server is killed and restarted', async () => {
  const port = live?.port ?? (await freePort());
  const base = live?.base ?? (await startServer(port));
  const workspace = cli(port, 'workspace', 'create', '--name', 'Form shop');
  const fields = JSON.stringify([{ label: 'E-mail', type: 'email', required: true }]);
  const { form } = cli(port, 'form', 'create', '--workspace', String(workspace.workspace_id), '--name', 'Newsletter', '--fields', fields);
  cli(port, 'form', 'publish', '--workspace', String(workspace.workspace_id), '--form', form.id);

  const post = async (i: number) => {
    const response = await fetch(`${base}/collect/form`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'user-agent': DESKTOP_UA },
      body: JSON.stringify({ pixel_id: workspace.pixel_id, form_id: form.id, values: [{ field: 0, value: `lead${i}@example.com` }] }),
    });
    return response.status;
  };
  const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => post(i)));
  await kill();
  assert.deepEqual(statuses, Array(40).fill(202));

  const restarted = await startServer(port);
  const { forms } = await tool(restarted, workspace, 'forms.get-forms', {});
  assert.deepEqual(forms.map((f: { name: string; submissions: number }) => [f.name, f.submissions]), [['Newsletter', 40]]);
  live = { port, base: restarted };
});

test('the CLI shows the webhook secret, creates it once, and rotation retires the old one', async () => {
  const port = live?.port ?? (await freePort());
  const base = live?.base ?? (await startServer(port));
  const { workspace_id: id } = cli(port, 'workspace', 'create', '--name', 'Webhook shop');
  const shown = cli(port, 'webhook', 'secret', '--workspace', String(id));
  assert.match(shown.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  assert.deepEqual({ ...shown, secret: '' }, { workspace_id: id, url: `http://localhost:${port}/webhooks/orders?workspace=${id}`, secret: '' });
  const rotated = cli(port, 'webhook', 'rotate', '--workspace', String(id)).secret;
  assert.notEqual(rotated, shown.secret);

  const deliver = async (key: string, deliveryId: string) => {
    const body = JSON.stringify({ delivery_id: deliveryId, type: 'order.created', order: { transaction_id: 'A-1', dt: '2026-11-20 10:00:00' } });
    const at = String(Math.floor(Date.now() / 1000));
    const response = await fetch(`${base}/webhooks/orders?workspace=${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-storelens-timestamp': at, 'x-storelens-signature': signWebhook(key, at, body) },
      body,
    });
    return [response.status, await response.json()];
  };
  assert.deepEqual(await deliver(shown.secret, 'w-1'), [401, { message: 'Invalid webhook signature' }]);
  assert.deepEqual(await deliver(rotated, 'w-2'), [202, { status: 'accepted' }]);
});
