import path from 'node:path';
import fs from 'node:fs';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import type { AppDb } from './app/schema.ts';
import { appMigrations } from './migrations/app/index.ts';

export type AppDatabase = Kysely<AppDb>;

/** SQLite in the data dir by default, PostgreSQL when `DATABASE_URL` is set. */
export async function openAppDb(options: { databaseUrl: string | null; dataDir: string }): Promise<AppDatabase> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    return new Kysely<AppDb>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: options.databaseUrl, max: 10 }) }),
    });
  }
  const { default: Database } = await import('better-sqlite3');
  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new Database(path.join(options.dataDir, 'app.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<AppDb>({ dialect: new SqliteDialect({ database: sqlite }) });
}

export async function migrateAppDb(db: AppDatabase): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => appMigrations },
    // Numbers are handed out per feature and land in any order: a data dir that already ran a
    // later number must still take an earlier one that lands after it.
    allowUnorderedMigrations: true,
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
