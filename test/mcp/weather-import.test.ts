/**
 * Weather observations come in through the CLI (`import --kind weather`, CSV) and weather.get-data
 * joins them with sales. Fixture: a fresh data dir with one workspace made by the CLI, a CSV of
 * three Berlin days (one row invalid) and one conversion from Berlin on the second day.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli, tempDataDir } from '../cli/run-cli.ts';
import { insertRows, startTestApp, type TestApp } from '../helper.ts';
import { toolOk } from './rpc.ts';

let dir: string;
let t: TestApp;
let headers: Record<string, string>;
let imported: any;

before(async () => {
  dir = tempDataDir();
  const created = await runCli(dir, ['workspace', 'create', '--name', 'Weather shop'], { STORELENS_DEMO: '0' });
  assert.equal(created.code, 0, created.stderr);
  headers = { 'x-api-key': created.json.api_key, 'client-secret': created.json.client_secret };
  const csv = path.join(dir, 'weather.csv');
  fs.writeFileSync(csv, [
    'dt,country_code,city,temperature_c,precipitation_mm,condition',
    '2026-11-10,de,Berlin,3.5,0,Clear',
    '2026-11-11,DE,Berlin,1,4.2,rain',
    '2026-11-12,DE,Berlin,warm,0,clear',
  ].join('\n'));
  const result = await runCli(dir, ['import', '--workspace', String(created.json.workspace_id), '--kind', 'weather', '--file', csv]);
  // One row is rejected: the JSON summary still comes on stdout, with exit code 2.
  assert.equal(result.code, 2, result.stderr);
  imported = result.json;
  t = await startTestApp({ dataDir: dir });
  await insertRows(t.stores, 'conversions', [{
    store_id: created.json.workspace_id, dt: '2026-11-11 12:00:00', name: 'purchase', session_id: 1, visitor_id: 1,
    transaction_id: 'w1', transaction_gross_revenue: 4200, transaction_country_code: 'DE', transaction_city: 'Berlin',
  }]);
});
after(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('import --kind weather reports the invalid row by line and imports the others', () => {
  assert.equal(imported.kind, 'weather');
  assert.equal(imported.rows_imported, 2);
  assert.equal(imported.rows_rejected, 1);
  assert.equal(imported.errors[0].line, 4);
  assert.match(imported.errors[0].message, /temperature_c/);
});

test('weather.get-data shows the imported days with that day\'s Berlin sales', async () => {
  const { weather } = await toolOk(t.app, headers, 'weather.get-data', { date_from: '2026-11-10', date_to: '2026-11-12', city: 'Berlin' });
  assert.deepEqual(weather.days, [
    { date: '2026-11-10', country_code: 'DE', city: 'Berlin', temperature_c: 3.5, precipitation_mm: 0, condition: 'clear', conversions: 0, revenue: 0 },
    { date: '2026-11-11', country_code: 'DE', city: 'Berlin', temperature_c: 1, precipitation_mm: 4.2, condition: 'rain', conversions: 1, revenue: 42 },
  ]);
});
