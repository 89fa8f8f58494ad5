/**
 * The cluster form of the analytics schema (src/store/migrations/analytics/cluster.sql): current
 * with the migrations, every statement parsed by the engine itself (formatQuery), and the layout
 * docs/scaling.md describes. No cluster runs here, so this is as far as it can be checked.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { CLUSTER_SCHEMA_FILE, clusterSchema, migrateAnalytics } from '../../src/store/analytics-schema.ts';
import { renderClusterSchema } from '../../src/store/cluster-schema-main.ts';
import { analyticsMigrations } from '../../src/store/migrations/analytics/index.ts';
import type { Clickhouse, QueryParams } from '../../src/store/clickhouse.ts';
import { openTestClickhouse } from '../helper.ts';

let ch: Clickhouse;
let close: () => Promise<void>;

before(async () => {
  ({ ch, close } = await openTestClickhouse());
  await migrateAnalytics(ch);
});

after(() => close());

test('cluster.sql is current: `npm run schema:cluster` after every analytics migration', async () => {
  assert.equal(fs.readFileSync(CLUSTER_SCHEMA_FILE, 'utf8'), await renderClusterSchema(ch));
});

test('every statement parses, with the cluster name put in', async () => {
  const statements = clusterSchema('analytics');
  for (const statement of statements) {
    const [{ formatted }] = await ch.query<{ formatted: string }>('test', 'SELECT formatQuery({q:String}) AS formatted', { q: statement });
    assert.match(formatted, /ON CLUSTER analytics/);
    assert.doesNotMatch(formatted, /\{cluster\}/);
  }
  assert.throws(() => clusterSchema("x' OR 1"), /not a cluster name/);
});

test('replicated local tables, Distributed tables keyed by store_id, views on local tables', () => {
  const statements = clusterSchema('c');
  const locals = statements.filter((s) => /^CREATE TABLE IF NOT EXISTS storelens\.\w+_local /.test(s));
  assert.ok(locals.length >= 9);
  for (const local of locals) {
    const name = /storelens\.(\w+)_local/.exec(local)![1];
    assert.match(local, /ENGINE = Replicated\w*MergeTree\('\/clickhouse\/tables\/\{shard\}\/storelens\/\w+_local', '\{replica\}'/, name);
    assert.doesNotMatch(local, /non_replicated_deduplication_window/);
    assert.ok(statements.includes(
      `CREATE TABLE IF NOT EXISTS storelens.${name} ON CLUSTER 'c' AS storelens.${name}_local ENGINE = Distributed('c', storelens, ${name}_local, store_id)`,
    ), `${name} has its Distributed table`);
  }
  const views = statements.filter((s) => s.startsWith('CREATE MATERIALIZED VIEW'));
  assert.equal(views.length, 3);
  for (const view of views) {
    assert.match(view, / TO storelens\.\w+_local /);
    assert.match(view, / FROM storelens\.\w+_local /);
  }
  assert.match(statements.find((s) => s.includes('storelens.schema_migrations '))!, /ReplicatedMergeTree\('\/clickhouse\/tables\/storelens\/schema_migrations', '\{replica\}'\)/);
});

/** A store that records statements and answers the two questions the cluster path asks. */
function recordingStore(migrationsTable: boolean, applied: number[]) {
  const executed: { sql: string; params?: QueryParams }[] = [];
  const store = {
    kind: 'server',
    async query(_name: string, sql: string) {
      return sql.includes('system.tables') ? [{ present: migrationsTable ? 1 : 0 }] : applied.map((id) => ({ id }));
    },
    async exec(sql: string, params?: QueryParams) {
      executed.push({ sql, params });
    },
  } as unknown as Clickhouse;
  return { store, executed };
}

test('with STORELENS_CLICKHOUSE_CLUSTER a new cluster gets the whole schema and its migrations recorded', async () => {
  const { store, executed } = recordingStore(false, []);
  await migrateAnalytics(store, { cluster: 'prod' });
  const statements = clusterSchema('prod');
  assert.deepEqual(executed.slice(0, statements.length).map((e) => e.sql), statements);
  assert.deepEqual(executed.slice(statements.length).map((e) => e.params), analyticsMigrations.map((m) => ({ id: m.id, name: m.name })));
});

test('a cluster missing a later migration stops start-up with what to do', async () => {
  const { store, executed } = recordingStore(true, analyticsMigrations.slice(0, -1).map((m) => m.id));
  const last = analyticsMigrations.at(-1)!;
  await assert.rejects(migrateAnalytics(store, { cluster: 'prod' }), new RegExp(`migration\\(s\\) ${last.id} ${last.name} have no cluster form`));
  assert.deepEqual(executed, []);
  await migrateAnalytics(recordingStore(true, analyticsMigrations.map((m) => m.id)).store, { cluster: 'prod' });
});
