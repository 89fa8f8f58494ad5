/**
 * The collector's write-ahead log against the real chDB of a test app (one workspace, events
 * named per test). Segment files are written by hand to play the states a crash leaves behind:
 * a torn last line, and a segment whose insert went through but whose file was not yet deleted.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createLogger } from '../../src/log.ts';
import { openBatchWriter } from '../../src/collect/wal.ts';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';

let t: TestApp;
let shop: TestWorkspace;
let dir: string;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  dir = path.join(t.config.dataDir, 'wal-test');
});

after(() => t.close());

const event = (name: string, session: number) => ({ store_id: shop.id, dt: '2026-11-01 10:00:00.000', name, session_id: String(session), visitor_id: '1' });
const line = (table: string, row: object) => `${table}\t${JSON.stringify(row)}\n`;
const open = () => openBatchWriter({ dir, ch: t.stores.ch, logger: createLogger('silent'), flushMs: 60_000, maxRows: 5000 });

async function names(prefix: string): Promise<string[]> {
  const rows = await t.stores.ch.query<{ name: string }>(
    'test-wal', 'SELECT name FROM events WHERE store_id = {s:UInt64} AND startsWith(name, {p:String}) ORDER BY name', { s: shop.id, p: prefix },
  );
  return rows.map((r) => r.name);
}

/** Events counted per session in the sessions table (fed by a view on every events insert). */
async function sessionEvents(ids: number[]): Promise<number[]> {
  const rows = await t.stores.ch.query<{ events: string }>(
    'test-wal-sessions',
    'SELECT events FROM sessions FINAL WHERE store_id = {s:UInt64} AND session_id IN {ids:Array(UInt64)} ORDER BY session_id',
    { s: shop.id, ids },
  );
  return rows.map((r) => Number(r.events));
}

describe('write-ahead log', () => {
  test('replays a leftover segment on open, skipping a torn last line, and deletes it', async () => {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, '000000000000001-aaaaaaaaaaaa.wal');
    fs.writeFileSync(file, line('events', event('torn_a', 1)) + line('events', event('torn_b', 2)) + 'events\t{"store_id": 1, "na');
    const writer = await open();
    assert.deepEqual(await names('torn_'), ['torn_a', 'torn_b']);
    assert.equal(fs.existsSync(file), false);
    await writer.close();
  });

  test('a segment replayed after its insert went through is not written twice', async () => {
    const name = '000000000000002-bbbbbbbbbbbb';
    const content = line('events', event('twice_a', 3)) + line('events', event('twice_b', 4));
    fs.writeFileSync(path.join(dir, `${name}.wal`), content);
    await (await open()).close();
    // The crash came after the insert, before the file was deleted: the same segment again.
    fs.writeFileSync(path.join(dir, `${name}.wal`), content);
    await (await open()).close();
    assert.deepEqual(await names('twice_'), ['twice_a', 'twice_b']);
    assert.deepEqual(await sessionEvents([3, 4]), [1, 1]);
  });

  test('two segments with identical rows are both stored: deduplication is per segment, not per content', async () => {
    const content = line('events', event('same_a', 7));
    fs.writeFileSync(path.join(dir, '000000000000003-cccccccccccc.wal'), content);
    fs.writeFileSync(path.join(dir, '000000000000004-dddddddddddd.wal'), content);
    await (await open()).close();
    assert.deepEqual(await names('same_'), ['same_a', 'same_a']);
    assert.deepEqual(await sessionEvents([7]), [2]);
  });

  test('append resolves once its rows are on disk; flush makes them visible and empties the log', async () => {
    const writer = await open();
    await Promise.all([writer.append({ events: [event('append_a', 5)] }), writer.append({ events: [event('append_b', 6)] })]);
    const onDisk = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('');
    assert.deepEqual(onDisk.split('\n').filter(Boolean).map((l) => JSON.parse(l.split('\t')[1]!).name).sort(), ['append_a', 'append_b']);
    assert.deepEqual(await names('append_'), []);
    await writer.flush();
    assert.deepEqual(await names('append_'), ['append_a', 'append_b']);
    assert.deepEqual(fs.readdirSync(dir), []);
    await writer.close();
  });
});
