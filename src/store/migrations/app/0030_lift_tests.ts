import type { Kysely } from 'kysely';
import { createTableWithId } from './columns.ts';

/**
 * `lift_tests`: experiments an owner entered (`lift-test add`): the share of a source's conversions
 * a holdout measured as incremental, over the test's days. The data-driven model takes it instead
 * of its fitted lift (docs/attribution.md, "Experiments win").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'lift_tests')
    .addColumn('workspace_id', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('incremental_share', 'double precision', (c) => c.notNull())
    .addColumn('interval_low', 'double precision')
    .addColumn('interval_high', 'double precision')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lift_tests_workspace').on('lift_tests').column('workspace_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('lift_tests').execute();
}
