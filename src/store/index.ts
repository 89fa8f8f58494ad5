import path from 'node:path';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { HealthCheck } from '../kit/health-check.ts';
import { openAppDb, migrateAppDb, withStartupLock, type AppDatabase } from './app-db.ts';
import { openClickhouse, type Clickhouse } from './clickhouse.ts';
import { migrateAnalytics } from './analytics-schema.ts';
import { openSecretBox, type SecretBox } from './secret-box.ts';
import { sealClearWebhookSecrets } from './app/webhooks.ts';
import { privateDir } from './private-files.ts';
import { dataDirCheck } from './data-dir-check.ts';
import type { ResultCache } from '../kit/result-cache.ts';
import { openResultCache } from './result-cache.ts';

export interface Stores {
  ch: Clickhouse;
  db: AppDatabase;
  /** Encrypts the credentials and signing secrets kept in app state. */
  secrets: SecretBox;
  /**
   * Reports kept under the data version they were computed at (`STORELENS_RESULT_CACHE_MB`), with
   * `REDIS_URL` shared by every process through Redis.
   */
  results: ResultCache;
  /**
   * `/healthz` checks `analytics` and `app_state` (a store that cannot answer makes it a 503) and
   * `data_dir` (full or read-only: degraded).
   */
  checks: HealthCheck[];
  close(): Promise<void>;
}

/** Opens and migrates both stores. The embedded ones live under the data dir. */
export async function openStores(config: Config, logger: Logger): Promise<Stores> {
  privateDir(config.dataDir);
  const secrets = openSecretBox(config);
  const db = await openAppDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateAppDb(db);
  await sealClearWebhookSecrets(db, secrets);
  const ch = await openClickhouse({
    url: config.clickhouseUrl,
    dataDir: path.join(config.dataDir, 'chdb'),
    chdbSessions: config.chdbSessions,
    timeoutMs: config.queries.timeoutMs,
    streamTimeoutMs: config.exports.timeoutMs,
    streamSlots: config.exports.concurrency,
  }, logger);
  await withStartupLock(db, config.databaseUrl !== null, () => migrateAnalytics(ch, { cluster: config.clickhouseCluster }));
  const cache = await openResultCache(config, logger);
  return {
    ch,
    db,
    secrets,
    results: cache.results,
    checks: [
      {
        name: 'analytics',
        async run() {
          await ch.query('health', 'SELECT 1', {}, { urgent: true });
          return { state: 'ok' };
        },
      },
      {
        name: 'app_state',
        async run() {
          await sql`SELECT 1`.execute(db);
          return { state: 'ok' };
        },
      },
      dataDirCheck(config.dataDir),
    ],
    async close() {
      cache.close();
      await ch.close();
      await db.destroy();
    },
  };
}
