/**
 * The collector's write-ahead log against the real chDB of a test app (one workspace, events
 * named per test). Segment files are written by hand to play the states a crash leaves behind:
 * a torn last line, a segment whose insert went through but whose file was not yet deleted, and
 * rows the store refuses (a negative UInt64, as the order webhook once logged). An unavailable
 * store is played by a wrapper of the real one whose inserts fail like a refused connection.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createLogger } from '../../src/log.ts';
import { openBatchWriter } from '../../src/collect/wal.ts';
import type { Clickhouse } from '../../src/store/clickhouse.ts';
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
const open = (ch: Clickhouse = t.stores.ch) => openBatchWriter({ dir, ch, logger: createLogger('silent'), flushMs: 60_000, maxRows: 5000 });

type DeadLetter = { at: string; table: string; source: string; error: { code: number | null; message: string }; row: string };

/** Reads and empties the dead-letter file. */
function takeDeadLetters(): DeadLetter[] {
  const file = path.join(dir, 'dead-letters.ndjson');
  if (!fs.existsSync(file)) return [];
  const letters = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as DeadLetter);
  fs.rmSync(file);
  return letters;
}

/** The real store, except that its first `failures` inserts fail as if the server were down. */
function unavailableStore(failures: number): Clickhouse & { attempts: string[] } {
  const real = t.stores.ch;
  const attempts: string[] = [];
  let left = failures;
  return {
    ...real,
    attempts,
    async insertNdjson(table, rows, options) {
      attempts.push(`${table}:${String(rows)}`);
      if (left-- > 0) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' });
      return real.insertNdjson(table, rows, options);
    },
  };
}

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

  test('a torn line that a later write followed is set aside as unreadable; the rows around it are stored', async () => {
    fs.mkdirSync(dir, { recursive: true });
    // A failed write left `events\t{"na`; a batch already in flight landed after it, led by its newline.
    const torn = 'events\t{"store_id": 1, "na';
    fs.writeFileSync(path.join(dir, '000000000000001-abababababab.wal'), `\n${line('events', event('midtorn_a', 21))}${torn}\n${line('events', event('midtorn_b', 22))}`);
    const writer = await open();
    assert.deepEqual(await names('midtorn_'), ['midtorn_a', 'midtorn_b']);
    assert.deepEqual(takeDeadLetters().map((d) => [d.table, d.error.message, d.row]), [['events', 'unreadable log line', torn]]);
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

  test('hundreds of concurrent appends are each stored exactly once', async () => {
    const writer = await open();
    const sent = Array.from({ length: 300 }, (_, i) => `burst_${String(i).padStart(3, '0')}`);
    await Promise.all(sent.map((name, i) => writer.append({ events: [event(name, 1000 + i)] })));
    await writer.flush();
    assert.deepEqual(await names('burst_'), sent);
    await writer.close();
  });

  test('rows the store refuses go to the dead-letter file, verbatim with the error; the rest of the segment is stored', async () => {
    const bad = { ...event('refused_bad', 11), session_id: '-5' };
    const order = (version: number) => ({ store_id: shop.id, transaction_id: `T-${version}`, dt: '2026-11-01 10:00:00.000', version });
    const content = [
      line('events', event('refused_a', 10)), line('events', bad), line('events', event('refused_b', 12)),
      'no tab here\n', line('orders', order(-18_000_000)), line('orders', order(5)), line('events', event('refused_c', 13)),
    ].join('');
    const file = path.join(dir, '000000000000005-eeeeeeeeeeee.wal');
    fs.writeFileSync(file, content);
    await (await open()).close();
    assert.deepEqual(await names('refused_'), ['refused_a', 'refused_b', 'refused_c']);
    assert.equal(fs.existsSync(file), false);
    const letters = takeDeadLetters();
    assert.deepEqual(letters.map((l) => [l.table, l.source, l.error.code, l.row]), [
      ['no tab here', 'wal:000000000000005-eeeeeeeeeeee', null, 'no tab here'],
      ['events', 'wal:000000000000005-eeeeeeeeeeee', 72, JSON.stringify(bad)],
      ['orders', 'wal:000000000000005-eeeeeeeeeeee', 72, JSON.stringify(order(-18_000_000))],
    ]);
    assert.match(letters[1]!.error.message, /Unsigned type must not contain '-' symbol/);
    assert.ok(letters.every((l) => Math.abs(Date.parse(l.at) - Date.now()) < 3_600_000), 'each dead letter carries the time it was set aside');
    const orders = await t.stores.ch.query<{ transaction_id: string }>('test-wal-orders', 'SELECT transaction_id FROM orders WHERE store_id = {s:UInt64}', { s: shop.id });
    assert.deepEqual(orders.map((o) => o.transaction_id), ['T-5']);
  });

  test('a segment logged before strings were made well-formed (a lone surrogate escape) is stored, not refused', async () => {
    fs.writeFileSync(path.join(dir, '000000000000006-ffffffffffff.wal'), `events\t${JSON.stringify({ ...event('escape_old', 14), referrer: '\ud83d' })}\n`);
    await (await open()).close();
    assert.deepEqual(await names('escape_'), ['escape_old']);
    assert.deepEqual(takeDeadLetters(), []);
  });

  test('appended rows are logged well-formed, and a refused row does not hold up the rows appended after it', async () => {
    const writer = await open();
    await writer.append({ events: [{ ...event('later_bad', 15), visitor_id: 'abc' }] });
    await writer.append({ events: [{ ...event('later_good', 16), referrer: 'x\udc00y' }] });
    await writer.flush();
    const stored = await t.stores.ch.query<{ name: string; referrer: string }>(
      'test-wal-later', 'SELECT name, referrer FROM events WHERE store_id = {s:UInt64} AND startsWith(name, {p:String})', { s: shop.id, p: 'later_' },
    );
    assert.deepEqual(stored, [{ name: 'later_good', referrer: 'x\ufffdy' }]);
    assert.deepEqual(takeDeadLetters().map((l) => [l.table, l.error.code, JSON.parse(l.row).name]), [['events', 27, 'later_bad']]);
    await writer.close();
  });

  test('while the store is unavailable, open still succeeds, nothing is set aside, and segments go in later in order', async () => {
    fs.writeFileSync(path.join(dir, '000000000000007-aaaaaaaaaaaa.wal'), line('events', event('down_a', 17)));
    fs.writeFileSync(path.join(dir, '000000000000008-bbbbbbbbbbbb.wal'), line('events', event('down_b', 18)));
    const ch = unavailableStore(2);
    const writer = await open(ch);
    await writer.append({ events: [event('down_c', 19)] });
    await writer.flush();
    assert.deepEqual(await names('down_'), ['down_a', 'down_b', 'down_c']);
    assert.deepEqual(ch.attempts.map((a) => JSON.parse(a.slice('events:'.length)).name), ['down_a', 'down_a', 'down_a', 'down_b', 'down_c']);
    assert.deepEqual(takeDeadLetters(), []);
    assert.deepEqual(fs.readdirSync(dir), []);
    await writer.close();
  });

  test('closing while the store is unavailable keeps the rows in the log for the next start', async () => {
    const writer = await open(unavailableStore(Infinity));
    await writer.append({ events: [event('kept_a', 20)] });
    await writer.close();
    assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith('.wal')).length, 1);
    await (await open()).close();
    assert.deepEqual(await names('kept_'), ['kept_a']);
  });
});
