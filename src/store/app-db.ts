import path from 'node:path';
import fs from 'node:fs';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
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
    // Numbers are handed out per feature and land in any order: a data dir that already ran a
    // later number must still take an earlier one that lands after it.
    allowUnorderedMigrations: true,
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}

/** Key of the advisory lock that nodes sharing one PostgreSQL database take around start-up work. */
const STARTUP_LOCK = 7_240_315_001;

/**
 * Runs `job` while holding a lock every node sharing this PostgreSQL database takes at start-up,
 * so that nodes starting at once apply each analytics migration exactly once (Kysely locks its own
 * app-state migrations). SQLite serves a single node: the job just runs.
 */
export async function withStartupLock<T>(db: AppDatabase, postgres: boolean, job: () => Promise<T>): Promise<T> {
  if (!postgres) return job();
  return db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${STARTUP_LOCK})`.execute(connection);
    try {
      return await job();
    } finally {
      await sql`SELECT pg_advisory_unlock(${STARTUP_LOCK})`.execute(connection);
    }
  });
}
