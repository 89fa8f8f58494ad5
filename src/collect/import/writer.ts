/**
 * The one way rows of a kind reach their table: check a record against the kind's row format,
 * turn it into a table row, and insert rows in batches as NDJSON. Used by `import` and `demo`.
 */
import type { Clickhouse } from '../../store/clickhouse.ts';
import { describeIssues } from '../rows.ts';
import type { ImportKind, ImportTarget } from './kinds.ts';

export const BATCH_ROWS = 50_000;

export type CheckedRow = { row: Record<string, unknown> } | { error: string };

export function checkRow(kind: ImportKind, target: ImportTarget, value: unknown): CheckedRow {
  const parsed = kind.schema.safeParse(value);
  return parsed.success ? { row: kind.toRow(parsed.data, target) } : { error: describeIssues(parsed.error) };
}

export class RowWriter {
  /** Rows inserted so far. */
  written = 0;
  private batch: string[] = [];

  constructor(
    private readonly ch: Clickhouse,
    readonly kind: ImportKind,
    readonly target: ImportTarget,
    private readonly batchRows = BATCH_ROWS,
    private readonly afterFlush: (written: number) => void = () => {},
  ) {}

  /** Buffers a row that already passed `checkRow`; inserts the batch once it is full. */
  async push(row: Record<string, unknown>): Promise<void> {
    this.batch.push(JSON.stringify(row));
    if (this.batch.length >= this.batchRows) await this.flush();
  }

  /** Checks and buffers a record; returns the problem when it is invalid. */
  async add(value: unknown): Promise<string | null> {
    const checked = checkRow(this.kind, this.target, value);
    if ('error' in checked) return checked.error;
    await this.push(checked.row);
    return null;
  }

  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    try {
      await this.ch.insertNdjson(this.kind.table, this.batch.join('\n'));
    } catch (error) {
      throw new Error(`${this.kind.kind}: insert failed after ${this.written} rows: ${(error as Error).message}`);
    }
    this.written += this.batch.length;
    this.batch = [];
    this.afterFlush(this.written);
  }
}
