import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { openAppDb, migrateAppDb, withStartupLock, type AppDatabase } from './app-db.ts';
import { openClickhouse, type Clickhouse } from './clickhouse.ts';
import { migrateAnalytics } from './analytics-schema.ts';
import path from 'node:path';
import { openSecretBox, type SecretBox } from './secret-box.ts';
import { sealClearWebhookSecrets } from './app/webhooks.ts';

export interface Stores {
  ch: Clickhouse;
  db: AppDatabase;
  /** Encrypts the credentials and signing secrets kept in app state. */
  secrets: SecretBox;
  close(): Promise<void>;
}

/** Opens and migrates both stores. The embedded ones live under the data dir. */
export async function openStores(config: Config, logger: Logger): Promise<Stores> {
  const secrets = openSecretBox(config);
  const db = await openAppDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateAppDb(db);
  await sealClearWebhookSecrets(db, secrets);
  const ch = await openClickhouse({ url: config.clickhouseUrl, dataDir: path.join(config.dataDir, 'chdb'), chdbSessions: config.chdbSessions }, logger);
  await withStartupLock(db, config.databaseUrl !== null, () => migrateAnalytics(ch, { cluster: config.clickhouseCluster }));
  return {
    ch,
    db,
    secrets,
    async close() {
      await ch.close();
      await db.destroy();
    },
  };
}
