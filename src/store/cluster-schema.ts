/**
 * The analytics schema for a sharded and replicated ClickHouse cluster, derived from the schema
 * the migrations build (docs/scaling.md). Input: `create_table_query` of every table and view in
 * the analytics database as ClickHouse prints it (one normal form, names qualified with the
 * database). Output, per table T: a replicated `T_local` on every node, and `T`, a Distributed
 * table over them keyed by `store_id`, so one workspace lives on one shard and every join of a
 * report stays on that shard. Views read and write the local tables of their own shard.
 * `schema_migrations` is replicated to every node instead (one copy, no shard key).
 */
import { ANALYTICS_DATABASE } from './clickhouse.ts';

export interface TableDefinition {
  name: string;
  engine: string;
  create_table_query: string;
}

/** The cluster name as written in the generated file: the server's `{cluster}` macro. */
export const CLUSTER_MACRO = "'{cluster}'";
const MIGRATIONS_TABLE = 'schema_migrations';
const db = ANALYTICS_DATABASE;

function localTable(table: TableDefinition): string {
  const engine = /ENGINE = (\w*MergeTree)(?:\(([^)]*)\))?/.exec(table.create_table_query);
  if (!engine) throw new Error(`${table.name}: no MergeTree engine in ${table.create_table_query}`);
  const shared = table.name === MIGRATIONS_TABLE;
  const name = shared ? table.name : `${table.name}_local`;
  const zooPath = shared ? `/clickhouse/tables/${db}/${name}` : `/clickhouse/tables/{shard}/${db}/${name}`;
  const args = [`'${zooPath}'`, "'{replica}'", ...(engine[2] ? [engine[2]] : [])].join(', ');
  return table.create_table_query
    .replace(`CREATE TABLE ${db}.${table.name} (`, `CREATE TABLE IF NOT EXISTS ${db}.${name} ON CLUSTER ${CLUSTER_MACRO} (`)
    .replace(engine[0], `ENGINE = Replicated${engine[1]}(${args})`)
    // Replicated tables deduplicate retried inserts on their own.
    .replace(/(, )?non_replicated_deduplication_window = \d+(, )?/, (_, before, after) => (before && after ? ', ' : ''));
}

const distributedTable = (table: TableDefinition) =>
  `CREATE TABLE IF NOT EXISTS ${db}.${table.name} ON CLUSTER ${CLUSTER_MACRO} AS ${db}.${table.name}_local ` +
  `ENGINE = Distributed(${CLUSTER_MACRO}, ${db}, ${table.name}_local, store_id)`;

function localView(view: TableDefinition, tables: Set<string>): string {
  let sql = view.create_table_query.replace(
    `CREATE MATERIALIZED VIEW ${db}.${view.name} `,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.${view.name} ON CLUSTER ${CLUSTER_MACRO} `,
  );
  for (const table of tables) sql = sql.replaceAll(new RegExp(`\\b${db}\\.${table}\\b(?!_)`, 'g'), `${db}.${table}_local`);
  return sql;
}

/** Every statement of the cluster schema, tables before the views that read them. */
export function clusterStatements(definitions: TableDefinition[]): string[] {
  const tables = definitions.filter((d) => d.engine.endsWith('MergeTree'));
  const views = definitions.filter((d) => d.engine === 'MaterializedView');
  const other = definitions.filter((d) => !tables.includes(d) && !views.includes(d));
  if (other.length) throw new Error(`no cluster form for ${other.map((d) => `${d.name} (${d.engine})`).join(', ')}`);
  const sharded = new Set(tables.map((t) => t.name).filter((name) => name !== MIGRATIONS_TABLE));
  return [
    ...tables.map(localTable),
    ...tables.filter((t) => sharded.has(t.name)).map(distributedTable),
    ...views.map((v) => localView(v, sharded)),
  ];
}

/** The definitions of the analytics database, as `clusterStatements` takes them. */
export const TABLE_DEFINITIONS_SQL = `SELECT name, engine, create_table_query FROM system.tables
  WHERE database = {database:String} ORDER BY name`;
