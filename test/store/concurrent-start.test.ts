/**
 * Nodes of one scale-out deployment (PostgreSQL app state, one ClickHouse behind the stand-in)
 * starting at the same moment: each app-state and each analytics migration is applied exactly
 * once. Without the start-up lock both nodes read "nothing applied" and run every analytics
 * migration, backfills included, twice.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openStores, type Stores } from '../../src/store/index.ts';
import { analyticsMigrations } from '../../src/store/migrations/analytics/index.ts';
import { appMigrations } from '../../src/store/migrations/app/index.ts';
import { createThrowawayPostgres } from '../helper.ts';
import { startClickhouseStandin, type ClickhouseStandin } from '../support/standin.ts';

let postgres: Awaited<ReturnType<typeof createThrowawayPostgres>>;
let standin: ClickhouseStandin;
const dirs: string[] = [];
const nodes: Stores[] = [];

before(async () => {
  postgres = await createThrowawayPostgres('concurrent_start');
  standin = await startClickhouseStandin();
});

after(async () => {
  for (const node of nodes) await node.close();
  await standin?.stop();
  await postgres?.drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

test('three nodes starting at once apply every migration exactly once', async () => {
  const start = () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-node-'));
    dirs.push(dataDir);
    const config = loadConfig({}, { dataDir, demo: false, databaseUrl: postgres.url, clickhouseUrl: standin.url, secretKey: 'a'.repeat(64) });
    return openStores(config, createLogger('silent'));
  };
  nodes.push(...(await Promise.all([start(), start(), start()])));

  const analytics = await nodes[0].ch.query<{ id: number; times: string }>('test', 'SELECT id, toString(count()) AS times FROM schema_migrations GROUP BY id ORDER BY id');
  assert.deepEqual(analytics, analyticsMigrations.map((m) => ({ id: m.id, times: '1' })));

  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT name, count(*)::int AS times FROM kysely_migration GROUP BY name ORDER BY name');
    assert.deepEqual(rows, Object.keys(appMigrations).sort().map((name) => ({ name, times: 1 })));
  } finally {
    await client.end();
  }
});
