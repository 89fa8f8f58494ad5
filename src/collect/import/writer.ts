/**
 * The one way rows of a kind reach their table: check a record against the kind's row format,
 * turn it into a table row, and insert rows in batches as NDJSON. Used by `import` and `demo`.
 */
import crypto from 'node:crypto';
import type { Clickhouse } from '../../store/clickhouse.ts';
import { describeIssues } from '../../kit/zod-issues.ts';
import type { ImportKind, ImportTarget } from './kinds.ts';
import { mergeTouchedPartitions, TouchedPartitions } from './merge-parts.ts';

export const BATCH_ROWS = 50_000;

export type CheckedRow = { row: Record<string, unknown> } | { error: string };

export function checkRow(kind: ImportKind, target: ImportTarget, value: unknown): CheckedRow {
  const parsed = kind.schema.safeParse(value);
  return parsed.success ? { row: kind.toRow(parsed.data, target) } : { error: describeIssues(parsed.error) };
}

/**
 * Remembers which batches were written, by a digest of their content: a batch seen before is
 * skipped. Only for append-only kinds (a versioned row differs in every import anyway).
 */
export interface BatchLedger {
  has(digest: string): Promise<boolean>;
  record(digest: string, rows: number): Promise<void>;
}

export interface RowWriterOptions {
  batchRows?: number;
  afterFlush?: (written: number) => void;
  ledger?: BatchLedger;
  /** Sees every table row the writer takes (an ads import notes the days it covers). */
  onRow?: (row: Record<string, unknown>) => void;
}

export class RowWriter {
  /** Rows inserted so far. */
  written = 0;
  /** Rows of batches the ledger had already seen, so not written again. */
  skipped = 0;
  private batch: string[] = [];
  private readonly batchRows: number;
  private readonly touched: TouchedPartitions;

  constructor(
    private readonly ch: Clickhouse,
    readonly kind: ImportKind,
    readonly target: ImportTarget,
    private readonly options: RowWriterOptions = {},
  ) {
    this.batchRows = options.batchRows ?? BATCH_ROWS;
    this.touched = new TouchedPartitions(kind.foldedInto ?? []);
  }

  /** Buffers a row that already passed `checkRow`; inserts the batch once it is full. */
  async push(row: Record<string, unknown>): Promise<void> {
    this.options.onRow?.(row);
    this.touched.add(row);
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

  /**
   * The end of a bulk load: inserts the last batch, then merges the partitions its rows reached of
   * the tables read with FINAL (merge-parts.ts).
   */
  async finish(progress?: (message: string) => void): Promise<void> {
    await this.flush();
    await mergeTouchedPartitions(this.ch, this.touched, progress);
  }

  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const rows = this.batch.length;
    const text = this.batch.join('\n');
    this.batch = [];
    const ledger = this.kind.appendOnly ? this.options.ledger : undefined;
    // The rows carry store_id, so equal digests mean equal rows of the same workspace.
    const digest = ledger ? crypto.createHash('sha256').update(`${this.kind.table}\n${text}`).digest('hex') : '';
    if (ledger && (await ledger.has(digest))) {
      this.skipped += rows;
      return;
    }
    try {
      // The token makes ClickHouse drop a repeat of this batch (a crash before the ledger's record).
      await this.ch.insertNdjson(this.kind.table, text, ledger ? { dedupToken: `import-${digest}` } : {});
    } catch (error) {
      throw new Error(`${this.kind.kind}: insert failed after ${this.written} rows: ${(error as Error).message}`);
    }
    await ledger?.record(digest, rows);
    this.written += rows;
    this.options.afterFlush?.(this.written);
  }
}
