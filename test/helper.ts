import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { openStores, type Stores } from '../src/store/index.ts';
import { openClickhouse, type Clickhouse } from '../src/store/clickhouse.ts';
import { analyticsMigrations } from '../src/store/migrations/analytics/index.ts';
import { buildApp } from '../src/server/app.ts';
import { runCommand } from '../src/cli/run-command.ts';
import { createRateLimits } from '../src/http/rate-limit.ts';
import { createWorkspace } from '../src/store/app/workspaces.ts';
import { bumpDataVersions } from '../src/store/app/data-versions.ts';
import { createApiKey } from '../src/store/app/api-keys.ts';
import { startClickhouseStandin } from './support/standin.ts';

export interface TestApp {
  app: FastifyInstance;
  stores: Stores;
  config: Config;
  close(): Promise<void>;
}

/**
 * A fresh app on a fresh temp data dir with real embedded stores (chDB + SQLite). Node's test
 * runner gives each file its own process, and chDB allows one data dir per process, so call
 * this once per file. Environment variables are ignored: tests decide their own config, except
 * `STORELENS_TEST_TRANSPORT=server` (`npm run test:server`), which puts the analytics store behind
 * the ClickHouse stand-in (test/support/clickhouse-standin.ts) and the `server` transport. Rate
 * limits and the bound on requests in flight are off unless a test sets them.
 */
export async function startTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-test-'));
  const standin = serverTransport() && overrides.clickhouseUrl === undefined ? await startClickhouseStandin() : null;
  const config = loadConfig({}, {
    dataDir,
    demo: false,
    rate: { perSecond: 0, burst: 0, daily: 0 },
    queries: { timeoutMs: 10_000, maxPerKey: 0 },
    clickhouseUrl: standin?.url ?? null,
    ...overrides,
  });
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const stores = await openStores(config, logger);
  const limits = await createRateLimits(config.rate, config.redisUrl, logger);
  const app = await buildApp({ config, stores, limits, logger, runCommand });
  await app.ready();
  return {
    app,
    stores,
    config,
    async close() {
      await app.close();
      await limits.close();
      await stores.close();
      await standin?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Whether this run puts analytics behind the ClickHouse stand-in (`npm run test:server`). */
export const serverTransport = () => process.env.STORELENS_TEST_TRANSPORT === 'server';

/** The analytics store alone (migrations not applied), on the transport of this run. */
/** Applies and records the analytics migrations before `id`, as a store built before it would be. */
export async function migrateAnalyticsBefore(ch: Clickhouse, id: number): Promise<void> {
  await ch.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id UInt32, name String, applied_at DateTime DEFAULT now()) ENGINE = MergeTree ORDER BY id');
  for (const migration of analyticsMigrations.filter((m) => m.id < id)) {
    for (const statement of migration.statements) await ch.exec(statement);
    await ch.exec('INSERT INTO schema_migrations (id, name) VALUES ({id:UInt32}, {name:String})', { id: migration.id, name: migration.name });
  }
}

export async function openTestClickhouse(): Promise<{ ch: Clickhouse; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-ch-'));
  const standin = serverTransport() ? await startClickhouseStandin() : null;
  const ch = await openClickhouse({ url: standin?.url ?? null, dataDir, chdbSessions: 2 }, createLogger('silent'));
  return {
    ch,
    async close() {
      await ch.close();
      await standin?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestWorkspace {
  id: number;
  pixelId: string;
  /** Data-API headers of an admin key. */
  headers: Record<string, string>;
  /** Data-API headers of a new key with these scopes. */
  keyHeaders(scopes: string[]): Promise<Record<string, string>>;
}

export async function createTestWorkspace(stores: Stores, name = 'Test shop', currency = 'USD'): Promise<TestWorkspace> {
  const workspace = await createWorkspace(stores.db, { name, currency, timezone: 'UTC' });
  const keyHeaders = async (scopes: string[]) => {
    const key = await createApiKey(stores.db, workspace.id, scopes);
    return { 'x-api-key': key.api_key, 'client-secret': key.client_secret };
  };
  return { id: workspace.id, pixelId: workspace.pixelId, headers: await keyHeaders(['admin:admin']), keyHeaders };
}

/** Inserts fixture rows (objects with the table's column names) into an analytics table. */
export async function insertRows(stores: Stores, table: string, rows: object[]): Promise<void> {
  await stores.ch.insertNdjson(table, rows.map((row) => JSON.stringify(row)).join('\n'));
  // As every path that stores rows does: answers kept under the old version are not read again.
  const workspaces = rows.flatMap((row) => ('store_id' in row ? [Number(row.store_id)] : []));
  await bumpDataVersions(stores.db, workspaces);
}

/**
 * A throwaway PostgreSQL database on the local server (TEST_DATABASE_URL's server, default
 * postgres://postgres@127.0.0.1:5432/test), for running app state on the PostgreSQL dialect.
 */
export async function createThrowawayPostgres(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const server = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  const onServer = async <T,>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: server.toString() });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(server);
  url.pathname = `/${name}`;
  // A closed pool has sent its goodbyes but the server may still list those connections; forcing
  // the drop then would answer them with an error the ending clients no longer listen for.
  const drop = () => onServer(async (client) => {
    for (let waited = 0; waited < 5_000; waited += 50) {
      const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      if (rows[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
  return { url: url.toString(), drop };
}

/** GET through the app; answers status and parsed body. */
export async function injectGet(
  t: TestApp,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: any }> {
  const response = await t.app.inject({ method: 'GET', url, headers });
  return { status: response.statusCode, body: response.json() };
}
