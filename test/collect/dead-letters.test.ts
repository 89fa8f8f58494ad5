/**
 * Fixture: a data dir with one workspace (created through the CLI) whose collector log holds a
 * poisoned segment, written the way the collector writes one: two good events, an event with a
 * negative session id and an order with the negative version the order webhook once logged for
 * `updated_at: 1970-01-01T00:00:00+05:00`, plus a good order. The real server
 * (`src/cli/main.ts start`) must start and serve on it; the CLI is run beside the server and
 * alone on the same data dir.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { encodeRows, segmentName } from '../../src/collect/wal-segment.ts';
import { getJson, runCli, startServer, tempDataDir, type Server } from '../cli/run-cli.ts';
import { todayRange, wireTime } from './helpers.ts';

const dataDir = tempDataDir();
const collectDir = path.join(dataDir, 'collect');
const deadLetterFile = path.join(collectDir, 'dead-letters.ndjson');
let server: Server | null = null;
let workspace: { workspace_id: number; api_key: string; client_secret: string };

const at = Math.floor(Date.now() / 1000) * 1000 - 120_000;
const event = (name: string, session: string) => ({ store_id: 1, dt: wireTime(at), name, session_id: session, visitor_id: '9', pathname: '/' });
const badEvent = event('poisoned', '-5');
const badOrder = { store_id: 1, transaction_id: 'T-old', dt: wireTime(at), version: -18_000_000 };

before(async () => {
  workspace = (await runCli(dataDir, ['workspace', 'create', '--name', 'Poisoned shop'])).json;
  assert.equal(workspace.workspace_id, 1);
  const { data } = encodeRows({
    events: [event('good_first', '1'), badEvent, event('good_last', '2')],
    orders: [badOrder, { store_id: 1, transaction_id: 'T-new', dt: wireTime(at), version: at }],
  });
  fs.mkdirSync(collectDir, { recursive: true });
  fs.writeFileSync(path.join(collectDir, `${segmentName()}.wal`), data);
});

after(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const headers = () => ({ 'x-api-key': workspace.api_key, 'client-secret': workspace.client_secret });
const eventNames = async () => {
  const { status, body } = await getJson(`${server!.baseUrl}/v3/events?${todayRange()}`, headers());
  assert.equal(status, 200);
  return body.data.map((e: { name: string }) => e.name).sort();
};
const readDeadLetters = () => fs.readFileSync(deadLetterFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

test('collect status without a server shows the backlog of the log', async () => {
  const { code, json } = await runCli(dataDir, ['collect', 'status']);
  assert.equal(code, 0);
  assert.equal(json.wal.segments, 1);
  assert.ok(json.wal.bytes > 0);
  assert.deepEqual([json.status, json.wal.dir, json.dead_letters], ['ok', collectDir, { rows: 0, files: [] }]);
});

test('a server starts on a poisoned log: good rows stored, refused rows in the dead-letter file', async () => {
  server = await startServer(dataDir, { STORELENS_COLLECT_FLUSH_MS: '50' });
  assert.deepEqual(await eventNames(), ['good_first', 'good_last']);
  assert.deepEqual(fs.readdirSync(collectDir), ['dead-letters.ndjson']);
  assert.equal((fs.statSync(deadLetterFile).mode & 0o777).toString(8), '600');
  const letters = readDeadLetters();
  assert.deepEqual(letters.map((l) => [l.table, l.row, l.error.code]), [
    ['events', JSON.stringify(badEvent), 72],
    ['orders', JSON.stringify(badOrder), 72],
  ]);
});

test('collect status through the server and /healthz report the dead letters', async () => {
  const { code, json } = await runCli(dataDir, ['collect', 'status']);
  assert.equal(code, 0);
  assert.deepEqual(json, {
    status: 'degraded',
    wal: { dir: collectDir, segments: 0, bytes: 0, oldest_segment_at: null },
    dead_letters: { rows: 2, files: [deadLetterFile] },
  });
  const health = await getJson(`${server!.baseUrl}/healthz`, {});
  assert.deepEqual(health, {
    status: 200,
    body: {
      status: 'degraded',
      checks: { analytics: 'ok', app_state: 'ok', data_dir: 'ok', collect: { status: 'degraded', wal: { segments: 0, bytes: 0, oldest_segment_at: null }, dead_letters: { rows: 2 } } },
    },
  });
});

test('replay-dead-letters stores a row fixed in the file and keeps the one still refused', async () => {
  const fixed = readDeadLetters().map((l) => (l.table === 'events' ? { ...l, row: l.row.replace('"session_id":"-5"', '"session_id":"5"') } : l));
  fs.writeFileSync(deadLetterFile, fixed.map((l) => JSON.stringify(l) + '\n').join(''));
  const { code, json } = await runCli(dataDir, ['collect', 'replay-dead-letters']);
  assert.equal(code, 0);
  assert.deepEqual(json, { replayed: 1, dropped: 0, refused_again: 1, dead_letters: { rows: 1, files: [deadLetterFile] } });
  assert.deepEqual(await eventNames(), ['good_first', 'good_last', 'poisoned']);
  assert.deepEqual(readDeadLetters().map((l) => [l.table, l.row, l.error.code, l.source.startsWith('replay:dead-letters.replaying-')]), [
    ['orders', JSON.stringify(badOrder), 72, true],
  ]);
});

test('without a server, replay and status work on the files directly', async () => {
  assert.equal(await server!.stop(), 0);
  server = null;
  const replay = await runCli(dataDir, ['collect', 'replay-dead-letters']);
  assert.deepEqual([replay.code, replay.json], [0, { replayed: 0, dropped: 0, refused_again: 1, dead_letters: { rows: 1, files: [deadLetterFile] } }]);
  const status = await runCli(dataDir, ['collect', 'status']);
  assert.deepEqual([status.json.status, status.json.dead_letters.rows], ['degraded', 1]);
});
