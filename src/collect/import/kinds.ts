/**
 * What `import --kind K` accepts: one entry per kind, naming the row schema (src/collect/row-schemas.ts),
 * the analytics table and how a valid row becomes a table row. A new kind is one entry here.
 */
import type { z } from 'zod';
import { orderVersion } from '../fields.ts';
import { adRow, conversionRow, eventRow, expenseRow, orderRow, productRow, weatherRow } from '../row-schemas.ts';

export interface ImportTarget {
  /** The workspace from `--workspace`; a `store_id` in the row is ignored. */
  workspaceId: number;
  /**
   * One value per import run, larger than any earlier run's: the newest import wins on replacing
   * tables. Microseconds since the epoch, the unit of order versions, so an order row without
   * `updated_at` is as new as the moment it was imported.
   */
  version: number;
}

export interface ImportKind<S extends z.ZodType = z.ZodType> {
  kind: string;
  table: string;
  schema: S;
  toRow(row: z.output<S>, target: ImportTarget): Record<string, unknown>;
  /**
   * Rows are appended, not versioned: a repeated import would count them twice, so imports of
   * these kinds skip batches they already wrote (writer.ts, BatchLedger).
   */
  appendOnly?: boolean;
  /**
   * Tables read with FINAL that this kind's rows reach (through the materialized views of
   * `events` and `conversions`), and the partition a row lands in there; absent `partitionOf`: the
   * table has one partition. A bulk load merges what it touched when it ends (merge-parts.ts).
   */
  foldedInto?: FoldedTable[];
}

export interface FoldedTable {
  table: string;
  /** The partition value as system.parts spells it. */
  partitionOf?: (row: Record<string, unknown>) => string;
}

/**
 * `sessions` is partitioned by workspace and the UTC month of its events; a table row's `dt` is
 * 'YYYY-MM-DD hh:mm:ss...' in UTC.
 */
const sessionPartition = (row: Record<string, unknown>) => `(${String(row.store_id)},'${String(row.dt).slice(0, 7)}-01')`;
const BUYER_LINKS: FoldedTable = { table: 'visitor_customers' };

/** Keeps each entry's `toRow` typed by its own schema. */
export function defineKind<S extends z.ZodType>(kind: ImportKind<S>): ImportKind {
  return kind as unknown as ImportKind;
}

export const importKinds: ImportKind[] = [
  defineKind({
    kind: 'events',
    table: 'events',
    schema: eventRow,
    toRow: (row, t) => ({ store_id: t.workspaceId, ...row }),
    appendOnly: true,
    foldedInto: [{ table: 'sessions', partitionOf: sessionPartition }, BUYER_LINKS],
  }),
  defineKind({
    kind: 'conversions',
    table: 'conversions',
    schema: conversionRow,
    toRow: (row, t) => ({ store_id: t.workspaceId, ...row }),
    appendOnly: true,
    foldedInto: [BUYER_LINKS],
  }),
  defineKind({
    kind: 'orders',
    table: 'orders',
    schema: orderRow,
    // A row with the platform's updated_at is that version of the order, so a later webhook still wins.
    toRow: ({ updated_at: updatedAt, ...row }, t) => ({ store_id: t.workspaceId, ...row, version: updatedAt ? orderVersion(updatedAt) : t.version }),
  }),
  defineKind({ kind: 'ads', table: 'ads', schema: adRow, toRow: (row, t) => ({ store_id: t.workspaceId, ...row, version: t.version }) }),
  defineKind({
    kind: 'products',
    table: 'products',
    schema: productRow,
    toRow: (row, t) => ({ store_id: t.workspaceId, ...row, version: t.version }),
  }),
  defineKind({
    kind: 'expenses',
    table: 'expenses',
    schema: expenseRow,
    toRow: (row, t) => ({ store_id: t.workspaceId, ...row }),
    appendOnly: true,
  }),
  defineKind({
    kind: 'weather',
    table: 'weather_daily',
    schema: weatherRow,
    toRow: (row, t) => ({ store_id: t.workspaceId, ...row, version: t.version }),
  }),
];

export function findImportKind(kind: string): ImportKind | undefined {
  return importKinds.find((k) => k.kind === kind);
}

let lastVersion = 0;

/** Microseconds since the epoch, strictly increasing within the process (fits a double exactly). */
export function newImportVersion(): number {
  lastVersion = Math.max(Date.now() * 1000, lastVersion + 1);
  return lastVersion;
}
