import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { openAppDb, migrateAppDb, type AppDatabase } from './app-db.ts';
import { openClickhouse, type Clickhouse } from './clickhouse.ts';
import { migrateAnalytics } from './analytics-schema.ts';
import path from 'node:path';

export interface Stores {
  ch: Clickhouse;
  db: AppDatabase;
  close(): Promise<void>;
}

/** Opens and migrates both stores. The embedded ones live under the data dir. */
export async function openStores(config: Config, logger: Logger): Promise<Stores> {
  const db = await openAppDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateAppDb(db);
  const ch = await openClickhouse({ url: config.clickhouseUrl, dataDir: path.join(config.dataDir, 'chdb') }, logger);
  await migrateAnalytics(ch);
  return {
    ch,
    db,
    async close() {
      await ch.close();
      await db.destroy();
    },
  };
}
