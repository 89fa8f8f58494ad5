/**
 * A stand-in for a ClickHouse server: ClickHouse's HTTP interface served by the real engine
 * (chDB) in a process of its own, so the `server` transport (`@clickhouse/client`) is tested
 * without a server install. Run: `node --import tsx test/support/clickhouse-standin.ts <data dir>`;
 * it prints `listening <port>` on stdout.
 *
 * What it serves, as ClickHouse's HTTP interface documents it:
 * - `GET /ping` -> `Ok.`
 * - the query as the POST body, or in the `query` URL parameter; with both, the URL's query is an
 *   INSERT and the body is its data (streamed, gzip when `Content-Encoding: gzip`);
 * - `param_<name>` URL parameters for `{name:Type}` placeholders (a placeholder without one is
 *   refused with code 456, as a server does), `database`, and any other URL parameter as a setting;
 * - the `X-ClickHouse-Query-Id`, `-Format`, `-Timezone`, `-Summary` response headers, and errors as
 *   `Code: N. DB::Exception: ... (NAME)` with `X-ClickHouse-Exception-Code` and an HTTP status.
 * Each request runs on a pooled chDB session; settings a request does not name are reset to their
 * defaults first, so nothing carries over from an earlier request.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { Session } from 'chdb';
import { placeholderNames, sqlString } from '../../src/store/chdb-params.ts';
import { createSessionPool } from '../../src/store/session-pool.ts';

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('usage: clickhouse-standin.ts <data dir>');
  process.exit(2);
}

/** URL parameters of the HTTP interface that are not settings. */
const NOT_SETTINGS = new Set([
  'query', 'database', 'query_id', 'session_id', 'session_timeout', 'session_check', 'role', 'user', 'password',
  'default_format', 'compress', 'decompress', 'enable_http_compression', 'wait_end_of_query', 'buffer_size',
  'send_progress_in_http_headers', 'http_headers_progress_interval_ms', 'add_http_cors_header',
]);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** HTTP status ClickHouse answers for these error codes; anything else is 500. */
const STATUS_OF_CODE: Record<number, number> = { 60: 404, 81: 404, 62: 400, 27: 400, 26: 400, 72: 400, 115: 400, 456: 400, 457: 400, 516: 401 };

class QueryError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

interface Pooled {
  session: Session;
  settings: Set<string>;
  close(): void;
}

const pool = createSessionPool<Pooled>(4, async () => {
  const session = new Session(dataDir);
  return { session, settings: new Set(), close: () => session.close() };
});

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return (request.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body) : body).toString();
}

/** The statement to run, and its query text apart from an INSERT's data (placeholders live only there). */
function statement(url: URL, body: string): { sql: string; query: string } {
  const inUrl = url.searchParams.get('query');
  if (inUrl && body) return { sql: `${inUrl}\n${body}`, query: inUrl };
  const sql = inUrl ?? body;
  return { sql, query: sql };
}

async function run(url: URL, { sql, query }: { sql: string; query: string }): Promise<{ bytes: Buffer; rowsRead: number; bytesRead: number }> {
  const settings = new Map<string, string>();
  const params = new Map<string, string>();
  for (const [name, value] of url.searchParams) {
    if (name.startsWith('param_')) params.set(name.slice('param_'.length), value);
    else if (!NOT_SETTINGS.has(name)) settings.set(name, value);
  }
  for (const name of [...settings.keys(), ...params.keys()]) if (!NAME.test(name)) throw new QueryError(115, `Unknown setting '${name}'. (UNKNOWN_SETTING)`);
  for (const name of placeholderNames(query)) {
    if (!params.has(name)) throw new QueryError(456, `Code: 456. DB::Exception: Substitution \`${name}\` is not set. (UNKNOWN_QUERY_PARAMETER)`);
  }
  return pool.use(async ({ session, settings: applied }) => {
    const reset = [...applied].filter((name) => !settings.has(name)).map((name) => `${name} = DEFAULT`);
    const set = [
      ...reset,
      ...[...settings].map(([name, value]) => `${name} = ${sqlString(value)}`),
      ...[...params].map(([name, value]) => `param_${name} = ${sqlString(value)}`),
    ];
    await session.queryAsync(`USE ${url.searchParams.get('database') ?? 'default'}`);
    if (set.length) await session.queryAsync(`SET ${set.join(', ')}`);
    applied.clear();
    for (const name of settings.keys()) applied.add(name);
    const result = await session.queryAsync(sql, { format: url.searchParams.get('default_format') ?? 'TabSeparated' });
    // Bytes as the engine wrote them: binary formats (Parquet) are no text.
    return { bytes: Buffer.from(result.bytes()), rowsRead: Number(result.rowsRead ?? 0), bytesRead: Number(result.bytesRead ?? 0) };
  });
}

function errorOf(error: unknown): { code: number; message: string } {
  if (error instanceof QueryError) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  const code = Number(/Code: (\d+)\./.exec(message)?.[1] ?? 1002);
  return { code, message: message.startsWith('Code:') ? message : `Code: ${code}. DB::Exception: ${message}. (UNKNOWN_EXCEPTION)` };
}

const server = http.createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://standin');
  const queryId = url.searchParams.get('query_id') ?? crypto.randomUUID();
  if (url.pathname === '/ping') return response.end('Ok.\n');
  try {
    const text = statement(url, request.method === 'POST' ? await readBody(request) : '');
    const { sql } = text;
    if (!sql.trim()) throw new QueryError(62, 'Code: 62. DB::Exception: Empty query. (SYNTAX_ERROR)');
    const result = await run(url, text);
    const written = /^\s*INSERT\b/i.test(sql) ? result.rowsRead : 0;
    response.writeHead(200, {
      'Content-Type': 'text/plain; charset=UTF-8',
      'X-ClickHouse-Query-Id': queryId,
      'X-ClickHouse-Format': /\bFORMAT\s+(\w+)\s*$/i.exec(url.searchParams.get('query') ?? sql)?.[1] ?? 'TabSeparated',
      'X-ClickHouse-Timezone': 'UTC',
      'X-ClickHouse-Summary': JSON.stringify({
        read_rows: String(written ? 0 : result.rowsRead), read_bytes: String(written ? 0 : result.bytesRead),
        written_rows: String(written), written_bytes: '0', total_rows_to_read: '0', result_rows: '0', result_bytes: '0',
      }),
    });
    response.end(result.bytes);
  } catch (error) {
    const { code, message } = errorOf(error);
    response.writeHead(STATUS_OF_CODE[code] ?? 500, {
      'Content-Type': 'text/plain; charset=UTF-8',
      'X-ClickHouse-Query-Id': queryId,
      'X-ClickHouse-Exception-Code': String(code),
    });
    response.end(`${message} (version 26.7.1.1)\n`);
  }
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close();
    void pool.close().then(() => process.exit(0));
  });
}
