import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Session } from 'chdb';
import type { Logger } from 'pino';
import { setParamsSql, sqlString, type ParamValue } from './chdb-params.ts';
import { createSessionPool } from './session-pool.ts';
import { FairQueue } from './query-queue.ts';
import { Unavailable } from '../kit/errors.ts';

/** Values bound server-side to `{name:Type}` placeholders. */
export type QueryParams = Record<string, ParamValue>;

export interface InsertOptions {
  /** Makes a retried insert of the same batch a no-op (used by the collector's write-ahead log). */
  dedupToken?: string;
}

export interface QueryOptions {
  /**
   * Runs before queued reads: for short queries that other work waits on (the collector's
   * duplicate check, the health probe). Never for a query a client can make heavy.
   */
  urgent?: boolean;
  /**
   * Engine settings of this statement alone: fixed names and values, never a client's, and none
   * that every read has (QUERY_SETTINGS, the thread budget, the time limit; those stay the reads').
   */
  settings?: Readonly<Record<string, string | number>>;
}

/** A long read streamed in an output format of the engine (`Clickhouse.stream`). */
export interface StreamOptions {
  /** The engine's output format: JSONEachRow, CSVWithNames, CSV, Parquet. */
  format: string;
  /** Settings of that format (they are the engine's own; only fixed names and values, never a client's). */
  settings?: Record<string, string | number>;
}

/** What receives a stream: the engine makes the next chunk only when the iterator asks for it. */
export type StreamConsumer = (chunks: AsyncIterable<Uint8Array>) => Promise<void>;

/** A read went over the time limit (`STORELENS_QUERY_TIMEOUT_MS`); the engine stopped it. */
export class QueryTimeoutError extends Unavailable {
  constructor(readonly queryName: string) {
    super('timeout', 'Query timed out');
  }
}

/** The ClickHouse server could not be reached, or dropped the connection mid-answer. */
export class StoreUnreachableError extends Unavailable {
  constructor() {
    super('unavailable', 'Analytics store unavailable');
  }
}

/** Network failures of the server transport (Node's socket errors and the client's own words). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
function isUnreachable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return UNREACHABLE_CODES.has(String(code)) || /socket hang up|Timeout error/i.test(String(message));
}

/**
 * The one door to the analytics store. ClickHouse SQL runs unchanged on both transports:
 * embedded chDB (default) and a ClickHouse server (`CLICKHOUSE_URL`).
 */
export interface Clickhouse {
  readonly kind: 'chdb' | 'server';
  /** A read, with the engine's time limit; throws QueryTimeoutError over it. */
  query<T>(name: string, sql: string, params?: QueryParams, options?: QueryOptions): Promise<T[]>;
  /**
   * A read of any size streamed to `consume` in `options.format`, chunk by chunk, with
   * backpressure: the engine produces the next chunk only when `consume` asks for it. When
   * `consume` returns before the end or throws, the engine query is cancelled. It waits for one
   * of the process's export slots and then for an engine session in the caller's lane, like any
   * read, and holds them to the end; its time limit is the export limit (whole stream, waits for
   * a slow consumer included), not the per-query one. Throws QueryTimeoutError over it.
   */
  stream(name: string, sql: string, params: QueryParams, options: StreamOptions, consume: StreamConsumer): Promise<void>;
  /** Schema changes and maintenance: no time limit, never called with a client's input. */
  exec(sql: string, params?: QueryParams): Promise<void>;
  /** Inserts newline-delimited JSON rows; the source may be a buffer or a stream of chunks. */
  insertNdjson(
    table: string,
    rows: string | Buffer | AsyncIterable<Buffer | string>,
    options?: InsertOptions,
  ): Promise<void>;
  close(): Promise<void>;
}

export const ANALYTICS_DATABASE = 'storelens';

/**
 * - prefer_column_name_to_alias: output columns are named like table columns but carry wire
 *   formats (`toString(store_id) AS store_id`); WHERE and ORDER BY must still see the columns.
 * - optimize_syntax_fuse_functions off: on the report's large statement this analyzer pass alone
 *   cost about 60 ms per query (of ~175 ms analysis, measured with EXPLAIN QUERY TREE on empty
 *   tables), for no measurable gain at run time.
 * - do_not_merge_across_partitions_select_final: FINAL folds rows within a partition only. Our
 *   partitioned FINAL table (sessions) never keeps one key in two partitions, and the other FINAL
 *   tables have one partition; a month of sessions merged into one part is then read without any
 *   merging (about 16 ms instead of 40 ms for a workspace's 90 days in the report benchmark).
 *   A new partitioned ReplacingMergeTree must keep each key in one partition too.
 * - max_partitions_per_insert_block off: `sessions` is partitioned by workspace and month
 *   (analytics migration 0022), so one insert of events may feed a part to every workspace's
 *   month; a flush from 60 busy workspaces at a month's end, or a bulk load of a few years, passes
 *   the default limit of 100. The limit guards against a partition key of unbounded values; ours
 *   is bounded by workspaces times months.
 */
export const QUERY_SETTINGS = {
  prefer_column_name_to_alias: 1,
  optimize_syntax_fuse_functions: 0,
  do_not_merge_across_partitions_select_final: 1,
  max_partitions_per_insert_block: '0',
} as const;

/**
 * deduplicate_blocks_in_dependent_materialized_views: a retried insert that `events` drops as a
 * duplicate must not reach the sessions views a second time (their tables keep the same
 * deduplication window, keyed by the source block).
 * input_format_json_throw_on_bad_escape_sequence off: a `\ud83d` without its pair is kept as
 * those six characters instead of failing the whole insert (inputs are made well-formed before
 * they get here; this is the second line of defence, docs/operations.md).
 */
const INSERT_SETTINGS = {
  // The views that an insert feeds run with the insert's settings, and their SELECTs rely on these.
  ...QUERY_SETTINGS,
  date_time_input_format: 'best_effort',
  input_format_skip_unknown_fields: 1,
  deduplicate_blocks_in_dependent_materialized_views: 1,
  input_format_json_throw_on_bad_escape_sequence: 0,
} as const;

export interface ClickhouseOptions {
  url: string | null;
  dataDir: string;
  /** Embedded chDB sessions that run queries side by side (`STORELENS_CHDB_SESSIONS`). */
  chdbSessions: number;
  /** Engine time limit of each `query` in ms (`max_execution_time`); 0 or absent = none. */
  timeoutMs?: number;
  /** Engine time limit of one whole `stream` in ms; 0 or absent = none. */
  streamTimeoutMs?: number;
  /** Streams running at once; more wait in a fair queue (default 1). */
  streamSlots?: number;
}

/**
 * Settings of every stream: sorts larger than this spill to disk (an export of sessions sorts all
 * of them), so that the engine's memory stays flat whatever the size; the engine runs in this
 * process on embedded chDB. JSON text stays valid UTF-8 and keeps `/` as it is.
 */
const STREAM_SETTINGS = {
  max_bytes_before_external_sort: 64 * 1024 * 1024,
  output_format_json_validate_utf8: 1,
  output_format_json_escape_forward_slashes: 0,
} as const;

function streamSettings(options: StreamOptions, timeoutMs: number): Record<string, string | number> {
  return { ...STREAM_SETTINGS, ...(timeoutMs > 0 ? { max_execution_time: timeoutMs / 1000 } : {}), ...options.settings };
}

/** A `SETTINGS` clause of fixed names and numbers or strings (quoted as literals). */
function settingsClause(settings: Record<string, string | number>): string {
  const values = Object.entries(settings).map(([name, value]) => `${name} = ${typeof value === 'number' ? value : sqlString(value)}`);
  return `\nSETTINGS ${values.join(', ')}`;
}

/** The first line of a chunk (a `*WithNames` format's header), or null when the chunk has none. */
function headerLine(chunk: Uint8Array): Uint8Array | null {
  const end = chunk.indexOf(0x0a);
  return end === -1 ? null : chunk.subarray(0, end + 1);
}

function startsWith(chunk: Uint8Array, prefix: Uint8Array): boolean {
  return chunk.length >= prefix.length && Buffer.compare(chunk.subarray(0, prefix.length), prefix) === 0;
}

/**
 * chDB's stream formats every chunk on its own: a `*WithNames` format repeats its header at the
 * top of each chunk. The first one stays; the others are cut off.
 */
async function* withOneHeader(chunks: AsyncIterable<{ raw(): Uint8Array }>, format: string): AsyncIterable<Uint8Array> {
  let header: Uint8Array | null = null;
  for await (const chunk of chunks) {
    const bytes = chunk.raw();
    if (!/WithNames/.test(format)) yield bytes;
    else if (header === null) {
      header = headerLine(bytes);
      yield bytes;
    } else yield startsWith(bytes, header) ? bytes.subarray(header.length) : bytes;
  }
}

const FILE_CHUNK_BYTES = 1024 * 1024;

/** ClickHouse says TIMEOUT_EXCEEDED (code 159) when max_execution_time stops a query. */
function isTimeout(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return String(code) === '159' || /\bTIMEOUT_EXCEEDED\b/.test(String(message));
}

function parseEachRow<T>(text: string): T[] {
  const rows: T[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end > start) rows.push(JSON.parse(text.slice(start, end)) as T);
    start = end + 1;
  }
  return rows;
}

/** clickhouse-js wants JSON rows as objects: split the byte stream into lines and parse each. */
async function* ndjsonObjects(source: AsyncIterable<Buffer | string> | Iterable<Buffer | string>) {
  let pending = '';
  for await (const chunk of source) {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) yield JSON.parse(line);
  }
  if (pending.trim()) yield JSON.parse(pending);
}

interface NdjsonInsert {
  table: string;
  values: string | Buffer | AsyncIterable<Buffer | string>;
  format: 'JSONEachRow';
  settings: Record<string, string | number>;
}

async function openChdb(options: ClickhouseOptions, logger: Logger): Promise<Clickhouse> {
  const { dataDir, chdbSessions, timeoutMs = 0, streamTimeoutMs = 0 } = options;
  const { Session } = await import('chdb');
  const openSession = async () => {
    const session = new Session(dataDir);
    await session.queryAsync(`CREATE DATABASE IF NOT EXISTS ${ANALYTICS_DATABASE}`);
    await session.queryAsync(`USE ${ANALYTICS_DATABASE}`);
    await session.queryAsync(`SET ${Object.entries(QUERY_SETTINGS).map(([name, value]) => `${name} = ${value}`).join(', ')}`);
    return session;
  };
  const pool = createSessionPool(chdbSessions, openSession);
  // Opened now, so that a data dir chDB cannot open fails start-up rather than the first request.
  await pool.use(async () => {});
  const run = (sql: string, params: QueryParams) =>
    pool.use(async (session) => {
      const set = setParamsSql(sql, params);
      if (set) await session.queryAsync(set);
      return session.queryAsync(sql, { format: 'JSONEachRow' });
    });
  // Reads wait here for a free session in a fair order, each key's running reads holding at most
  // the machine's cores in engine threads (docs/operations.md, "One key cannot hold the analytics
  // engine"); the pool's own queue then stays short.
  const reads = new FairQueue(chdbSessions, os.availableParallelism());
  // A per-query SETTINGS clause: as a session setting it would also bind migrations and seeding.
  const readSettings = (threads: number, settings: QueryOptions['settings']) =>
    settingsClause({ ...settings, max_threads: threads, ...(timeoutMs > 0 ? { max_execution_time: timeoutMs / 1000 } : {}) });
  const streams = new FairQueue(options.streamSlots ?? 1);
  // chDB streams Parquet as one file per chunk, which do not make one file together; the engine
  // writes the whole file here instead, and it is read back in chunks (then deleted).
  const parquetDir = path.join(dataDir, 'export-files');
  fs.rmSync(parquetDir, { recursive: true, force: true });
  async function* parquetFile(session: Session, sql: string, params: QueryParams, settings: string): AsyncIterable<Uint8Array> {
    fs.mkdirSync(parquetDir, { recursive: true, mode: 0o700 });
    const file = path.join(parquetDir, `${crypto.randomUUID()}.parquet`);
    try {
      const insert = `INSERT INTO FUNCTION file({export_file:String}, 'Parquet')\n${sql}${settings}`;
      await session.queryAsync(setParamsSql(insert, { ...params, export_file: file })!);
      await session.queryAsync(insert);
      yield* fs.createReadStream(file, { highWaterMark: FILE_CHUNK_BYTES });
    } finally {
      fs.rmSync(file, { force: true });
    }
  }
  return {
    kind: 'chdb',
    async query<T>(name: string, sql: string, params: QueryParams = {}, options: QueryOptions = {}) {
      const result = await reads.run(async (threads) => {
        const started = performance.now();
        try {
          const answer = await run(sql + readSettings(threads, options.settings), params);
          logger.debug({ query: name, ms: Math.round(performance.now() - started) }, 'clickhouse query');
          return answer;
        } catch (error) {
          throw readFailure(error, name, timeoutMs, logger);
        }
      }, options.urgent);
      logger.trace({ query: name, sql }, 'clickhouse sql');
      return parseEachRow<T>(result.text());
    },
    async stream(name, sql, params, options, consume) {
      await streams.run(() =>
        reads.run((threads) =>
          pool.use(async (session) => {
            const settings = settingsClause({ max_threads: threads, ...streamSettings(options, streamTimeoutMs) });
            const started = performance.now();
            try {
              if (options.format === 'Parquet') {
                await consume(parquetFile(session, sql, params, settings));
              } else {
                const set = setParamsSql(sql, params);
                if (set) await session.queryAsync(set);
                await consume(withOneHeader(session.queryStream(sql + settings, { format: options.format }), options.format));
              }
            } catch (error) {
              throw readFailure(error, name, streamTimeoutMs, logger);
            }
            logger.debug({ query: name, ms: Math.round(performance.now() - started) }, 'clickhouse stream');
          }),
          false,
          false,
        ),
      );
    },
    async exec(sql, params = {}) {
      await run(sql, params);
    },
    async insertNdjson(table, rows, options = {}) {
      if ((typeof rows === 'string' || Buffer.isBuffer(rows)) && rows.length === 0) return;
      const settings: Record<string, string | number> = { ...INSERT_SETTINGS };
      if (options.dedupToken) settings.insert_deduplication_token = options.dedupToken;
      // chdb's insert takes bytes or a stream of chunks and dispatches at run time; its typings
      // split that into overloads, which a union argument does not fit.
      await pool.use((session) => {
        const insert = session.insert.bind(session) as (params: NdjsonInsert) => Promise<unknown>;
        return insert({ table, values: rows, format: 'JSONEachRow', settings });
      });
    },
    async close() {
      await pool.close();
    },
  };
}

async function openServer(options: ClickhouseOptions & { url: string }, logger: Logger): Promise<Clickhouse> {
  const { url, timeoutMs = 0, streamTimeoutMs = 0 } = options;
  const { createClient, ClickHouseLogLevel } = await import('@clickhouse/client');
  // The client's own console logging is off: failures reach pino through the callers (quiet by default).
  const log = { level: ClickHouseLogLevel.OFF };
  const bootstrap = createClient({ url, log });
  await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS ${ANALYTICS_DATABASE}` });
  await bootstrap.close();
  const client = createClient({ url, database: ANALYTICS_DATABASE, log });
  const readSettings = timeoutMs > 0 ? { ...QUERY_SETTINGS, max_execution_time: timeoutMs / 1000 } : QUERY_SETTINGS;
  const streams = new FairQueue(options.streamSlots ?? 1);
  return {
    kind: 'server',
    async query<T>(name: string, sql: string, params: QueryParams = {}, options: QueryOptions = {}) {
      const started = performance.now();
      let rows: T[];
      try {
        const result = await client.query({
          query: sql,
          query_params: params,
          format: 'JSONEachRow',
          clickhouse_settings: { ...options.settings, ...readSettings },
        });
        rows = await result.json<T>();
      } catch (error) {
        throw readFailure(error, name, timeoutMs, logger);
      }
      logger.debug({ query: name, ms: Math.round(performance.now() - started), rows: rows.length }, 'clickhouse query');
      return rows;
    },
    async stream(name, sql, params, options, consume) {
      await streams.run(async () => {
        // Closing the connection is how a server query is cancelled (that setting makes it so for reads).
        const cancel = new AbortController();
        try {
          const { stream } = await client.exec({
            query: `${sql}\nFORMAT ${options.format}`,
            query_params: params,
            clickhouse_settings: { ...QUERY_SETTINGS, ...streamSettings(options, streamTimeoutMs), cancel_http_readonly_queries_on_client_close: 1 },
            abort_signal: cancel.signal,
          });
          try {
            await consume(stream);
          } finally {
            cancel.abort();
            stream.destroy();
          }
        } catch (error) {
          throw readFailure(error, name, streamTimeoutMs, logger);
        }
      });
    },
    async exec(sql, params = {}) {
      await client.command({ query: sql, query_params: params, clickhouse_settings: QUERY_SETTINGS });
    },
    async insertNdjson(table, rows, options = {}) {
      const settings: Record<string, string | number> = { ...INSERT_SETTINGS };
      if (options.dedupToken) settings.insert_deduplication_token = options.dedupToken;
      const source = typeof rows === 'string' || Buffer.isBuffer(rows) ? [rows] : rows;
      await client.insert({
        table,
        values: Readable.from(ndjsonObjects(source), { objectMode: true }),
        format: 'JSONEachRow',
        clickhouse_settings: settings,
      });
    },
    async close() {
      await client.close();
    },
  };
}

/** A read's failure as the surfaces tell it apart: over its time limit, store unreachable, or as it was. */
function readFailure(error: unknown, name: string, timeoutMs: number, logger: Logger): unknown {
  if (isTimeout(error)) {
    logger.warn({ query: name, limitMs: timeoutMs }, 'analytics query stopped at its time limit');
    return new QueryTimeoutError(name);
  }
  if (isUnreachable(error)) {
    logger.warn({ query: name, err: error }, 'analytics store unreachable');
    return new StoreUnreachableError();
  }
  return error;
}

export async function openClickhouse(options: ClickhouseOptions, logger: Logger): Promise<Clickhouse> {
  return options.url ? openServer({ ...options, url: options.url }, logger) : openChdb(options, logger);
}
