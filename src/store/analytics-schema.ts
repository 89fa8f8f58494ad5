import type { Clickhouse } from './clickhouse.ts';
import { analyticsMigrations } from './migrations/analytics/index.ts';

export async function migrateAnalytics(ch: Clickhouse): Promise<void> {
  await ch.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id UInt32, name String, applied_at DateTime DEFAULT now()
  ) ENGINE = MergeTree ORDER BY id`);
  const applied = new Set(
    (await ch.query<{ id: number }>('applied-migrations', 'SELECT id FROM schema_migrations')).map((r) => r.id),
  );
  for (const migration of analyticsMigrations) {
    if (applied.has(migration.id)) continue;
    for (const statement of migration.statements) await ch.exec(statement);
    await ch.exec('INSERT INTO schema_migrations (id, name) VALUES ({id:UInt32}, {name:String})', {
      id: migration.id,
      name: migration.name,
    });
  }
}
