/**
 * Large imports stream in batches. Fixture: a generated NDJSON file of 110,002 lines: valid
 * pageviews, except lines 7 and 100,000, which lack a session_id. The store's insert is observed
 * (rows per insert call) and the table is counted afterwards. The last test repeats small
 * expenses and conversions files with a ledger that forgot the first import.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestApp, createTestWorkspace, type TestApp } from '../helper.ts';
import type { Clickhouse } from '../../src/store/clickhouse.ts';
import { findImportKind } from '../../src/collect/import/kinds.ts';
import { BATCH_ROWS, type BatchLedger } from '../../src/collect/import/writer.ts';
import { importFile } from '../../src/collect/import/run.ts';

const LINES = 110_002;
const INVALID = new Set([7, 100_000]);

let t: TestApp;
let file: string;

before(async () => {
  t = await startTestApp();
  file = path.join(t.config.dataDir, 'big.ndjson');
  const out = fs.openSync(file, 'w');
  let chunk = '';
  for (let line = 1; line <= LINES; line++) {
    const session = INVALID.has(line) ? '' : `,"session_id":${line}`;
    chunk += `{"dt":"2026-04-01 ${String(line % 24).padStart(2, '0')}:00:00","name":"pageview","visitor_id":${line}${session}}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(out, chunk);
      chunk = '';
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
});

after(() => t.close());

/** The real store, with each insert's row count recorded. */
function observed(ch: Clickhouse, batches: number[]): Clickhouse {
  return {
    ...ch,
    query: ch.query.bind(ch),
    exec: ch.exec.bind(ch),
    close: ch.close.bind(ch),
    async insertNdjson(table, rows, options) {
      batches.push(String(rows).split('\n').length);
      return ch.insertNdjson(table, rows, options);
    },
  };
}

const countEvents = async (workspaceId: number) =>
  Number((await t.stores.ch.query<{ n: string }>('test-count', 'SELECT count() AS n FROM events WHERE store_id = {s:UInt64}', { s: workspaceId }))[0]!.n);

test('imports a large file in batches of 50,000 rows, reporting progress and the rejected lines', async () => {
  const shop = await createTestWorkspace(t.stores);
  const batches: number[] = [];
  const progress: string[] = [];
  const result = await importFile(observed(t.stores.ch, batches), {
    kind: findImportKind('events')!,
    workspaceId: shop.id,
    input: { file },
    currency: 'USD',
    progress: (message) => progress.push(message),
  });
  assert.equal(BATCH_ROWS, 50_000);
  assert.deepEqual(result, {
    kind: 'events',
    format: 'ndjson',
    rows_imported: 110_000,
    rows_already_imported: 0,
    rows_rejected: 2,
    errors: [
      { line: 7, message: 'session_id: is required' },
      { line: 100_000, message: 'session_id: is required' },
    ],
  });
  assert.deepEqual(batches, [50_000, 50_000, 10_000]);
  assert.equal(await countEvents(shop.id), 110_000);
  assert.match(progress[0]!, /^events: imported 100,000 rows \([\d,]+ rows\/s\)$/);
  // Then the merge that ends the load (merge-parts.ts), unless the engine merged every part first.
  for (const line of progress.slice(1)) assert.match(line, /^merged (sessions \(\d+,'2026-04-01'\)|visitor_customers): \d+ parts into one \(\d+\.\ds\)$/);
});

test('--strict validates the whole file first and inserts nothing when a line is invalid', async () => {
  const shop = await createTestWorkspace(t.stores, 'Strict');
  const batches: number[] = [];
  const result = await importFile(observed(t.stores.ch, batches), { kind: findImportKind('events')!, workspaceId: shop.id, input: { file }, currency: 'USD', strict: true });
  assert.deepEqual([result.rows_imported, result.rows_rejected, result.errors.length], [0, 2, 2]);
  assert.deepEqual(batches, []);
  assert.equal(await countEvents(shop.id), 0);
});

test('lists the first 100 errors but counts every rejected row', async () => {
  const shop = await createTestWorkspace(t.stores, 'Errors');
  const bad = path.join(t.config.dataDir, 'bad.ndjson');
  fs.writeFileSync(bad, Array.from({ length: 150 }, (_, i) => `{"line":${i}}`).join('\n'));
  const result = await importFile(t.stores.ch, { kind: findImportKind('expenses')!, workspaceId: shop.id, input: { file: bad }, currency: 'USD' });
  assert.deepEqual([result.rows_imported, result.rows_rejected, result.errors.length], [0, 150, 100]);
  assert.deepEqual(result.errors[99], { line: 100, message: 'dt: is required; name: is required; amount: is required' });
});

test('a batch written but never recorded in the ledger (a crash in between) is dropped by ClickHouse when imported again', async () => {
  const shop = await createTestWorkspace(t.stores, 'Crash');
  const files = {
    expenses: ['{"dt":"2026-04-01","name":"Rent","amount":100000}', '{"dt":"2026-04-02","name":"Ads agency","amount":50000}'],
    conversions: ['{"dt":"2026-04-01 10:00:00","name":"purchase","session_id":1,"visitor_id":1,"transaction_id":"c1","transaction_gross_revenue":4200}'],
  };
  for (const [kind, lines] of Object.entries(files)) {
    const source = path.join(t.config.dataDir, `${kind}.ndjson`);
    fs.writeFileSync(source, lines.join('\n'));
    const recorded: string[] = [];
    const forgetful: BatchLedger = { has: async () => false, record: async () => undefined };
    const remembering: BatchLedger = { has: async (d) => recorded.includes(d), record: async (d) => void recorded.push(d) };
    const run = (ledger: BatchLedger) => importFile(t.stores.ch, { kind: findImportKind(kind)!, workspaceId: shop.id, input: { file: source }, currency: 'USD', ledger });
    // The first import "crashes" before its ledger record; the second finds no record and inserts again.
    await run(forgetful);
    const again = await run(remembering);
    assert.deepEqual([again.rows_imported, again.rows_already_imported], [lines.length, 0], kind);
    const [{ n }] = await t.stores.ch.query<{ n: string }>('test-count', `SELECT count() AS n FROM ${kind} WHERE store_id = {s:UInt64}`, { s: shop.id });
    assert.equal(Number(n), lines.length, `${kind}: ClickHouse dropped the repeated batch`);
    // Now recorded: a third import skips the batch without writing.
    const third = await run(remembering);
    assert.deepEqual([third.rows_imported, third.rows_already_imported], [0, lines.length], kind);
  }
});
