/**
 * `export`: a row export into a file, with and without a running server, and an interrupted
 * export that continues where it stopped.
 * Fixture: workspace 1 with 150,000 events on 2026-03-01 (half of them google sessions) (a few of the engine's chunks of about
 * 65,000 rows, so an export can be interrupted after the first one), a quarter of them with a
 * page path a spreadsheet would run as a formula and a line break in a UTM term, and two ad rows.
 * The export is interrupted in this process (the command's signal is what the admin route aborts
 * when the CLI that sent it goes away), then continued by the real command line.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openStores } from '../../src/store/index.ts';
import { createWorkspace } from '../../src/store/app/workspaces.ts';
import { createApiKey } from '../../src/store/app/api-keys.ts';
import { runCommand } from '../../src/cli/run-command.ts';
import { progressPrinter } from '../../src/cli/progress-bar.ts';
import { childEnv, runCli, startServer, tempDataDir, type Server } from './run-cli.ts';

const EVENTS = 150_000;
const DAY = ['--start-date', '2026-03-01', '--end-date', '2026-03-01'];
let dataDir: string;
let out: string;
let headers: Record<string, string>;

/** Runs `export` in this process on the data dir and aborts it after its first chunk of rows. */
async function interruptedExport(args: string[]): Promise<{ error: { message: string } }> {
  const config = loadConfig(childEnv(dataDir));
  const stores = await openStores(config, createLogger('silent'));
  const stop = new AbortController();
  try {
    const outcome = await runCommand(
      { config, stores, logger: createLogger('silent'), signal: stop.signal, progress: (_message, bar) => bar && bar.done > 0 && stop.abort() },
      args,
    );
    return outcome as { error: { message: string } };
  } finally {
    await stores.close();
  }
}

before(async () => {
  dataDir = tempDataDir();
  out = fs.mkdtempSync(path.join(dataDir, 'out-'));
  const stores = await openStores(loadConfig(childEnv(dataDir)), createLogger('silent'));
  try {
    const workspace = await createWorkspace(stores.db, { name: 'Export shop', currency: 'USD', timezone: 'UTC' });
    const key = await createApiKey(stores.db, workspace.id, ['admin:admin']);
    headers = { 'x-api-key': key.api_key, 'client-secret': key.client_secret };
    await stores.ch.exec(
      `INSERT INTO events (store_id, dt, name, session_id, visitor_id, adv_source, pathname, utm_term)
       SELECT {store_id:UInt64}, toDateTime64('2026-03-01 00:00:00', 3, 'UTC') + number / 2, 'pageview', 1 + number % 9000, 1 + number % 9000,
         if(number % 2 = 0, 'google', ''), if(number % 4 = 0, '=cmd()', concat('/p/', toString(number))), if(number % 4 = 1, 'a\nb "c"', '')
       FROM numbers({events:UInt64})`,
      { store_id: workspace.id, events: EVENTS },
    );
    await stores.ch.insertNdjson('ads', [
      JSON.stringify({ store_id: workspace.id, dt: '2026-03-01', source: 'google', ad_id: 'g1', spend: 500, version: 1 }),
      JSON.stringify({ store_id: workspace.id, dt: '2026-03-01', source: 'facebook', ad_id: 'f1', spend: 700, version: 1 }),
    ].join('\n'));
  } finally {
    await stores.close();
  }
});
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('export on the command line', () => {
  test('an interrupted NDJSON and CSV export each continue where they stopped and end as a whole export', async () => {
    for (const format of ['ndjson', 'csv']) {
      const file = path.join(out, `resumed.${format}`);
      const args = ['export', '--workspace', '1', '--kind', 'events', '--file', file, '--format', format, ...DAY];
      const stopped = await interruptedExport(args);
      assert.match(stopped.error.message, /^Export interrupted after (\d+) of 150000 rows: run the same command again to continue$/);
      const cursor = JSON.parse(fs.readFileSync(`${file}.cursor`, 'utf8'));
      assert.ok(cursor.rows > 0 && cursor.rows < EVENTS, JSON.stringify(cursor));
      assert.deepEqual([cursor.kind, cursor.format, cursor.total, cursor.request], ['events', format, EVENTS, { start_date: '2026-03-01', end_date: '2026-03-01' }]);
      // What a crash in the middle of a write leaves behind the last whole row.
      fs.appendFileSync(file, '{"store_id":"1","dt":"2026-03-');

      const continued = await runCli(dataDir, args);
      assert.equal(continued.code, 0, continued.stderr);
      assert.deepEqual(continued.json, {
        kind: 'events', format, file, rows: EVENTS, bytes: fs.statSync(file).size, continued_from_row: cursor.rows,
        start_date: '2026-03-01 00:00:00', end_date: '2026-03-01 23:59:59',
      });
      assert.equal(fs.existsSync(`${file}.cursor`), false);
      const whole = path.join(out, `whole.${format}`);
      const fresh = await runCli(dataDir, ['export', '--workspace', '1', '--kind', 'events', '--file', whole, '--format', format, ...DAY]);
      assert.equal(fresh.json.continued_from_row, 0);
      assert.ok(fs.readFileSync(file).equals(fs.readFileSync(whole)), `${format}: the continued file differs from a whole export`);
    }
  });

  test('a cursor of another export is refused until --restart', async () => {
    const file = path.join(out, 'other.ndjson');
    const stopped = await interruptedExport(['export', '--workspace', '1', '--kind', 'events', '--file', file, ...DAY]);
    assert.match(stopped.error.message, /^Export interrupted/);
    const other = await runCli(dataDir, ['export', '--workspace', '1', '--kind', 'events', '--file', file, '--start-date', '2026-03-01']);
    assert.equal(other.code, 1);
    assert.deepEqual(other.error, { error: { message: `${file}.cursor belongs to another export (events, ndjson, workspace 1): add --restart to start this one over, or choose another file` } });
    const restarted = await runCli(dataDir, ['export', '--workspace', '1', '--kind', 'ads', '--file', file, '--restart', ...DAY]);
    assert.equal(restarted.code, 0, restarted.stderr);
    assert.equal(restarted.json.rows, 2);
    assert.equal(fs.readFileSync(file, 'utf8').split('\n').length, 3);
  });

  test('usage errors are JSON on stderr', async () => {
    const cases: [string[], string][] = [
      [['--kind', 'orders'], 'Unknown kind: orders. Kinds: events, sessions, conversions, ads, mmm'],
      [['--kind', 'ads', '--format', 'xml'], 'Invalid format: xml. Accepted values: ndjson, csv, parquet'],
      [['--kind', 'ads', '--start-date', '2026-02-30'], 'Invalid start_date or end_date parameter: start_date is not a calendar day (got 2026-02-30)'],
      [['--kind', 'mmm', '--granularity', 'month'], 'Invalid granularity: month. Accepted values: day, week'],
      [['--kind', 'mmm', '--format', 'parquet'], '--kind mmm is a CSV file: leave out --format or give --format csv'],
    ];
    for (const [extra, message] of cases) {
      const r = await runCli(dataDir, ['export', '--workspace', '1', '--file', path.join(out, 'x'), ...extra]);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.deepEqual(r.error, { error: { message } });
    }
  });

  describe('beside a running server', () => {
    let server: Server;
    before(async () => {
      server = await startServer(dataDir);
    });
    after(() => server.stop());

    test('the file is byte for byte the HTTP export; stdout holds one JSON document and stderr no bar when it is not a terminal', async () => {
      for (const [kind, format] of [['events', 'csv'], ['events', 'ndjson'], ['ads', 'ndjson'], ['mmm', 'csv']] as const) {
        const file = path.join(out, `served-${kind}.${format}`);
        const r = await runCli(dataDir, ['export', '--workspace', '1', '--kind', kind, '--file', file, '--format', format, ...DAY]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stderr, '');
        assert.equal(JSON.parse(r.stdout).file, file);
        const formatted = kind === 'mmm' ? '' : `&format=${format}`;
        const http = await fetch(`${server.baseUrl}/v3/export/${kind}?start_date=2026-03-01&end_date=2026-03-01${formatted}`, { headers });
        assert.equal(http.status, 200);
        assert.ok(Buffer.from(await http.arrayBuffer()).equals(fs.readFileSync(file)), `${kind} ${format}`);
      }
    });
  });
});

describe('progress bar', () => {
  test('redraws in place on a terminal, ends its line when done, and draws nothing elsewhere', () => {
    const written: string[] = [];
    const show = progressPrinter({ isTTY: true, write: (text: string) => written.push(text) });
    show('events: 0 of 4 rows', { done: 0, total: 4 });
    show('events: 1 of 4 rows', { done: 1, total: 4 });
    show('a message');
    show('events: 4 of 4 rows', { done: 4, total: 4 });
    assert.deepEqual(written, [
      `\r[${'.'.repeat(30)}]   0% events: 0 of 4 rows\x1b[K`,
      `\r[${'#'.repeat(8)}${'.'.repeat(22)}]  25% events: 1 of 4 rows\x1b[K`,
      '\n',
      'a message\n',
      `\r[${'#'.repeat(30)}] 100% events: 4 of 4 rows\x1b[K`,
      '\n',
    ]);
    const piped: string[] = [];
    const quiet = progressPrinter({ isTTY: false, write: (text: string) => piped.push(text) });
    quiet('events: 1 of 4 rows', { done: 1, total: 4 });
    quiet('a message');
    assert.deepEqual(piped, ['a message\n']);
  });
});
