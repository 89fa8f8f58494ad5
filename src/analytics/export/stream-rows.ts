import type { Clickhouse, StreamConsumer } from '../../store/clickhouse.ts';
import type { Statement } from '../sql.ts';
import { FORMATS, type ExportFormat } from './formats.ts';

export interface StreamRowsOptions {
  format: ExportFormat;
  /**
   * Continues an export begun before (the CLI's resumable file): the statement's first `rows`
   * rows are skipped and a CSV export has no header row, which the file already holds. Not for
   * Parquet, whose file cannot be continued.
   */
  resume?: { rows: number };
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A CSV cell that a spreadsheet would run as a formula (it starts with = + - @, a tab or a
 * carriage return; OWASP's list) gets a leading apostrophe, unless it is a plain number such as
 * `-1250`. Arrays become JSON text, which starts with `[`.
 */
const formulaSafe = (cell: string) =>
  `if(match(${cell}, '^[=+\\\\-@\\t\\r]') AND NOT match(${cell}, '^-?[0-9]+(\\\\.[0-9]+)?$'), concat('''', ${cell}), ${cell})`;

/** The statement's rows as CSV cells: arrays as JSON text, every cell safe from formula injection. */
async function csvStatement(ch: Clickhouse, name: string, statement: Statement): Promise<Statement> {
  const columns = await ch.query<{ name: string; type: string }>(`${name}-columns`, `DESCRIBE TABLE (${statement.sql})`, statement.params);
  const cells = columns.map(({ name: column, type }) => {
    // Our own statements' column names; anything else would be a bug, never a client's input.
    if (!IDENTIFIER.test(column)) throw new Error(`unexpected export column name ${column}`);
    return `${type.startsWith('Array(') ? `toJSONString(${column})` : formulaSafe(column)} AS ${column}`;
  });
  return { sql: `SELECT ${cells.join(', ')}\nFROM (${statement.sql})`, params: statement.params };
}

/**
 * Streams every row of a row read's statement in an export format to `consume`, in the
 * statement's order, straight from the engine (clickhouse.ts `stream`: backpressure, cancel when
 * `consume` stops early, the export time limit).
 */
export async function streamRows(ch: Clickhouse, name: string, statement: Statement, options: StreamRowsOptions, consume: StreamConsumer): Promise<void> {
  const spec = FORMATS[options.format];
  const { resume } = options;
  if (resume && options.format === 'parquet') throw new Error('a Parquet export cannot be resumed');
  let rows: Statement = resume
    ? { sql: `${statement.sql}\nOFFSET {export_skip:UInt64}`, params: { ...statement.params, export_skip: resume.rows } }
    : statement;
  if (options.format === 'csv') rows = await csvStatement(ch, name, rows);
  const engine = options.format === 'csv' && resume ? 'CSV' : spec.engine;
  await ch.stream(name, rows.sql, rows.params, { format: engine, settings: spec.settings }, consume);
}

/** How many rows the statement yields (a progress bar's total, a resumed export's check). */
export async function countRows(ch: Clickhouse, name: string, statement: Statement): Promise<number> {
  const [row] = await ch.query<{ rows: string }>(`${name}-count`, `SELECT count() AS rows FROM (${statement.sql})`, statement.params);
  return Number(row?.rows ?? 0);
}
