import path from 'node:path';
import fs from 'node:fs';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import type { AppDb } from './app/schema.ts';
import { PRIVATE_FILE, privateDir } from './private-files.ts';
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
  const file = path.join(options.dataDir, 'app.sqlite');
  privateDir(options.dataDir);
  // SQLite gives new -wal and -shm files the database file's mode; older ones are tightened here.
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE));
  for (const own of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(own)) fs.chmodSync(own, PRIVATE_FILE);
  const sqlite = new Database(file);
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
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
