import type { Clickhouse, QueryOptions, QueryParams } from '../../src/store/clickhouse.ts';

/** One statement a query function sent, as the analytics store would have received it. */
export interface Statement {
  name: string;
  sql: string;
  params: QueryParams;
  settings?: QueryOptions['settings'];
}

/**
 * An analytics store that runs nothing: it keeps each read's name, SQL, parameters and settings and answers
 * with no rows (or with `rows` when a query function needs one to go on); a stream sends no chunk. Writes are refused, so a
 * query function that writes shows here rather than passing silently.
 */
export function recordingClickhouse(rows: Record<string, unknown>[] = []): Clickhouse & { statements: Statement[] } {
  const statements: Statement[] = [];
  const refuse = async () => {
    throw new Error('a query function wrote to the analytics store');
  };
  return {
    kind: 'chdb',
    statements,
    async query<T>(name: string, sql: string, params: QueryParams = {}, options: QueryOptions = {}) {
      statements.push({ name, sql, params, ...(options.settings ? { settings: options.settings } : {}) });
      return rows as T[];
    },
    async stream(name: string, sql: string, params: QueryParams) {
      statements.push({ name, sql, params });
    },
    exec: refuse,
    insertNdjson: refuse,
    async close() {},
  };
}
