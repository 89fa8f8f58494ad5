/**
 * A bulk load ends merged (docs/architecture.md, "How data gets in"): an import and the demo seed
 * merge the partitions they wrote of `sessions` and `visitor_customers` (the tables reports read
 * with FINAL), so a report right after the load reads one part per partition. Run on both
 * transports (`npm run test:server`).
 *
 * Fixture: 1,200 events of 400 sessions over April and May 2026, each session's three events
 * 400 lines apart (so every batch holds partial sessions that FINAL must fold), a third of the
 * visitors logged in, and a purchase in every fifth session; imported in batches of 100 rows.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Clickhouse } from '../../src/store/clickhouse.ts';
import { findImportKind } from '../../src/collect/import/kinds.ts';
import { importFile } from '../../src/collect/import/run.ts';
import { adminToken } from '../../src/server/runtime-files.ts';
import { holdingMerges } from '../../bench/suites/live.ts';
import { createTestWorkspace, injectGet, insertRows, type TestApp, type TestWorkspace, startTestApp } from '../helper.ts';

const SESSIONS = 400;
const DAY_MS = 86_400_000;
const APRIL = Date.UTC(2026, 3, 1);
const REPORT = '/v3/report?start_date=2026-04-01&end_date=2026-05-31&breakdown=campaign&attribution_window=28&limit=500';

let t: TestApp;

before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const stamp = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
/** Session s starts on day s % 61 from April 1st (so in April or May), its events minutes apart. */
const sessionStart = (s: number) => APRIL + (s % 61) * DAY_MS + (s % 24) * 3_600_000;

function fixture(sessions = SESSIONS) {
  const events: string[] = [];
  for (let i = 0; i < sessions * 3; i++) {
    const s = i % sessions;
    const visitor = 1 + (s % 150);
    events.push(JSON.stringify({
      dt: stamp(sessionStart(s) + Math.floor(i / sessions) * 120_000),
      name: i < sessions ? 'pageview' : 'add_to_cart',
      session_id: 1 + s,
      visitor_id: visitor,
      pathname: `/p/${i % 7}`,
      customer_id: i >= sessions && visitor % 3 === 0 ? `c-${visitor}` : '',
      ...(i < sessions && s % 4 !== 3 ? { adv_source: ['google', 'facebook', 'tiktok'][s % 3], adv_campaign_id: `cmp-${s % 5}` } : {}),
    }));
  }
  const conversions = Array.from({ length: sessions / 5 }, (_, k) => {
    const s = k * 5;
    const visitor = 1 + (s % 150);
    return JSON.stringify({
      dt: stamp(sessionStart(s) + 600_000),
      name: 'purchase',
      session_id: 1 + s,
      visitor_id: visitor,
      customer_id: visitor % 3 === 0 ? `c-${visitor}` : '',
      transaction_id: `t-${s}`,
      transaction_gross_revenue: 1000 + 37 * s,
    });
  });
  return { events: events.join('\n'), conversions: conversions.join('\n') };
}

/** A partition of `sessions` (workspace and month), as system.parts names it. */
const sessionPartition = (shop: TestWorkspace, month: string) => `(${shop.id},'${month}')`;

/** Active parts per partition of `table`, as system.parts names them. */
async function partsPerPartition(ch: Clickhouse, table: string): Promise<Record<string, number>> {
  const rows = await ch.query<{ partition: string; parts: string }>('test-parts', `
SELECT partition, count() AS parts FROM system.parts
WHERE database = currentDatabase() AND table = {table:String} AND active GROUP BY partition ORDER BY partition`, { table });
  return Object.fromEntries(rows.map((r) => [r.partition, Number(r.parts)]));
}

const report = async (shop: TestWorkspace) => {
  const response = await injectGet(t, REPORT, shop.headers);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body;
};

/** Runs a command through the server's admin route; answers its progress lines and result. */
async function adminCli(argv: string[]): Promise<{ progress: string[]; result: any }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/admin/cli',
    remoteAddress: '127.0.0.1',
    headers: { authorization: `Bearer ${adminToken(t.config.dataDir)}` },
    payload: { argv },
  });
  assert.equal(response.statusCode, 200, response.body);
  const lines = response.body.trim().split('\n').map((line) => JSON.parse(line));
  const last = lines.at(-1);
  assert.ok('result' in last, response.body);
  return { progress: lines.flatMap((l) => (typeof l.progress === 'string' ? [l.progress] : [])), result: last.result };
}

test('an import merges the partitions it wrote, and only those; the report is the same before and after', async () => {
  const shop = await createTestWorkspace(t.stores);
  const { events, conversions } = fixture();
  // Merges stopped, so that the state before the load's merges stays as the import left it.
  for (const table of ['sessions', 'visitor_customers']) await t.stores.ch.exec(`SYSTEM STOP MERGES ${table}`);
  // A partition the import does not write, in two parts: not the import's to merge.
  for (const session of [1, 2]) {
    await insertRows(t.stores, 'events', [{ store_id: shop.id, dt: '2026-01-10 10:00:00', name: 'pageview', session_id: session, visitor_id: session }]);
  }
  const held: Record<string, string[]> = {};
  for (const [kind, text] of [['events', events], ['conversions', conversions]]) {
    const result = await importFile(holdingMerges(t.stores.ch, (held[kind] = [])), {
      kind: findImportKind(kind)!,
      workspaceId: shop.id,
      input: { name: `${kind}.ndjson`, text },
      currency: 'USD',
      batchRows: 100,
    });
    assert.equal(result.rows_rejected, 0);
  }
  assert.deepEqual(held, {
    events: [
      `OPTIMIZE TABLE sessions PARTITION ID '${shop.id}-20260401' FINAL`,
      `OPTIMIZE TABLE sessions PARTITION ID '${shop.id}-20260501' FINAL`,
      "OPTIMIZE TABLE visitor_customers PARTITION ID 'all' FINAL",
    ],
    conversions: ["OPTIMIZE TABLE visitor_customers PARTITION ID 'all' FINAL"],
  });
  const split = await partsPerPartition(t.stores.ch, 'sessions');
  const [january, april, may] = ['2026-01-01', '2026-04-01', '2026-05-01'].map((month) => sessionPartition(shop, month));
  assert.ok(split[january] === 2 && split[april]! > 1 && split[may]! > 1, JSON.stringify(split));
  const unmerged = await report(shop);
  assert.ok(unmerged.data.length >= 5, JSON.stringify(unmerged));
  assert.ok(unmerged.data.some((row: { revenue: number }) => row.revenue > 0), JSON.stringify(unmerged.data));

  for (const table of ['sessions', 'visitor_customers']) await t.stores.ch.exec(`SYSTEM START MERGES ${table}`);
  for (const sql of Object.values(held).flat()) await t.stores.ch.exec(sql);
  const merged = await partsPerPartition(t.stores.ch, 'sessions');
  assert.deepEqual([merged[april], merged[may]], [1, 1]);
  assert.deepEqual(await partsPerPartition(t.stores.ch, 'visitor_customers'), { 'tuple()': 1 });
  assert.deepEqual(await report(shop), unmerged);
});

test('`import` through the admin route ends with each partition of sessions it wrote in one part', async () => {
  const shop = await createTestWorkspace(t.stores);
  // 40,000 sessions: 120,000 events, three batches of the import's 50,000 rows.
  const file = path.join(t.config.dataDir, 'events.ndjson');
  fs.writeFileSync(file, fixture(40_000).events);
  const { progress, result } = await adminCli(['import', '--workspace', String(shop.id), '--kind', 'events', '--file', file]);
  assert.equal(result.rows_imported, 120_000);
  const [april, may] = ['2026-04-01', '2026-05-01'].map((month) => sessionPartition(shop, month));
  assert.ok(progress.some((line) => line.startsWith(`merged sessions ${april}: `)), progress.join('\n'));
  const parts = await partsPerPartition(t.stores.ch, 'sessions');
  assert.deepEqual([parts[april], parts[may]], [1, 1]);
  assert.equal((await report(shop)).data.length > 0, true);
});

test('the demo seed ends with sessions and buyer links in one part per partition', async () => {
  const shop = await createTestWorkspace(t.stores);
  const { progress, result } = await adminCli(['demo', '--workspace', String(shop.id), '--days', '20']);
  assert.ok(result.rows.events > 100_000, JSON.stringify(result));
  assert.ok(progress.some((line) => line.startsWith('merged sessions ')), progress.join('\n'));
  // Twenty days reach into at most two months: the first day's and the last day's.
  const months = [...new Set([result.start_date, result.end_date].map((day: string) => sessionPartition(shop, `${day.slice(0, 7)}-01`)))];
  const sessions = await partsPerPartition(t.stores.ch, 'sessions');
  assert.deepEqual(months.map((month) => sessions[month]), months.map(() => 1), JSON.stringify(sessions));
  assert.deepEqual(await partsPerPartition(t.stores.ch, 'visitor_customers'), { 'tuple()': 1 });
});

test('a merge that fails fails no import: the rows are stored and the progress says why', async () => {
  const shop = await createTestWorkspace(t.stores);
  const progress: string[] = [];
  const refusing: Clickhouse = {
    ...holdingMerges(t.stores.ch, []),
    async exec(sql, params) {
      if (sql.startsWith('OPTIMIZE')) throw new Error('Timeout error.');
      await t.stores.ch.exec(sql, params);
    },
  };
  const result = await importFile(refusing, {
    kind: findImportKind('events')!,
    workspaceId: shop.id,
    input: { name: 'events.ndjson', text: fixture().events },
    currency: 'USD',
    batchRows: 100,
    progress: (message) => progress.push(message),
  });
  assert.deepEqual([result.rows_imported, result.rows_rejected], [SESSIONS * 3, 0]);
  assert.ok(progress.some((line) => /^could not merge sessions \(\d+,'2026-0[45]-01'\) \(\d+ parts; the engine merges them later\): Timeout error\.$/.test(line)), progress.join('\n'));
});
