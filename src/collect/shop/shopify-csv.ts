/**
 * `import --kind orders --format shopify`: the CSV of Shopify admin > Orders > Export, one row per
 * line item. Order fields fill the first row of an order; the rows of one order are consecutive
 * (as Shopify writes them) and are grouped by `Name`. Each order goes through the same mapping
 * as the webhooks (order.ts). Columns read and what the export lacks: docs/integrations.md.
 */
import { z } from 'zod';
import type { Clickhouse } from '../../store/clickhouse.ts';
import { describeIssues } from '../../kit/zod-issues.ts';
import { MAX_REPORTED_ERRORS, type ImportResult } from '../import/run.ts';
import { findImportKind, newImportVersion } from '../import/kinds.ts';
import { readRecords } from '../import/sources.ts';
import { RowWriter } from '../import/writer.ts';
import { orderRecord, type ShopWorkspace } from './ingest.ts';
import { moneyAmount } from './money.ts';
import { OrderRejected, type PlatformOrder } from './order.ts';

/** `2024-01-15 10:30:00 -0500`, the export's timestamps, as ISO 8601. */
function exportTimestamp(value: string): string {
  return value.trim().replace(/^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) ([+-]\d{2})(\d{2})$/, '$1T$2$3:$4');
}

const when = z.string().optional().transform((value) => (value ? exportTimestamp(value) : undefined));

const orderColumns = z.object({
  Id: z.string({ error: 'is required (the order id column of the export)' }).regex(/^\d{1,20}$/, 'expected a numeric order id'),
  Name: z.string(),
  'Created at': z.string({ error: 'is required' }).transform(exportTimestamp),
  'Paid at': when,
  'Cancelled at': when,
  'Fulfilled at': when,
  Currency: z.string({ error: 'is required' }),
  Total: moneyAmount,
  Taxes: moneyAmount,
  Shipping: moneyAmount,
  'Discount Amount': moneyAmount,
  'Refunded Amount': moneyAmount,
});

/** One order of the export: its first row carries the order fields. */
export function mapShopifyExport(rows: Record<string, unknown>[]): PlatformOrder {
  const parsed = orderColumns.safeParse(rows[0]);
  if (!parsed.success) throw new OrderRejected(describeIssues(parsed.error));
  const o = parsed.data;
  const changes = [o['Created at'], o['Paid at'], o['Cancelled at'], o['Fulfilled at']].filter((t): t is string => Boolean(t));
  const latest = changes.reduce((a, b) => ((Date.parse(b) || 0) > (Date.parse(a) || 0) ? b : a));
  return {
    transactionId: o.Id,
    orderName: o.Name,
    dt: o['Created at'],
    // The export has no update time: the latest event it shows, so a later webhook still wins.
    updatedAt: latest,
    customerId: '',
    isNewCustomer: 0,
    currency: o.Currency.toUpperCase(),
    grossRevenue: o.Total,
    tax: o.Taxes,
    shipping: o.Shipping,
    discount: o['Discount Amount'],
    // The export gives the refunded total without a date: it is dated when the order was placed.
    refunds: o['Refunded Amount'] > 0 ? [{ id: '', dt: o['Created at'], amount: o['Refunded Amount'] }] : [],
    cancelled: Boolean(o['Cancelled at']),
    lines: [],
  };
}

type Group = { line: number; rows: Record<string, unknown>[] } | { line: number; error: string };

/** The export's rows grouped by order (consecutive rows with the same `Name`). */
async function* orderGroups(file: string): AsyncGenerator<Group> {
  let current: { line: number; name: unknown; rows: Record<string, unknown>[] } | null = null;
  for await (const record of readRecords({ file }, { format: 'csv' })) {
    if ('error' in record) {
      yield record;
      continue;
    }
    if (current && record.value.Name === current.name) {
      current.rows.push(record.value);
      continue;
    }
    if (current) yield current;
    current = { line: record.line, name: record.value.Name, rows: [record.value] };
  }
  if (current) yield current;
}

export interface ShopifyImportOptions {
  workspace: ShopWorkspace;
  file: string;
  strict?: boolean;
}

/** Imports the export; `rows_imported` and `rows_rejected` count orders, errors name an order's first line. */
export async function importShopifyOrders(ch: Clickhouse, options: ShopifyImportOptions): Promise<ImportResult> {
  const errors: ImportResult['errors'] = [];
  let rejected = 0;
  const reject = (line: number, message: string) => {
    rejected++;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, message });
  };
  const toRecord = async (group: Group) => {
    if ('error' in group) return reject(group.line, group.error);
    try {
      return await orderRecord(ch, options.workspace, mapShopifyExport(group.rows));
    } catch (error) {
      if (error instanceof OrderRejected) return reject(group.line, error.message);
      throw error;
    }
  };
  if (options.strict) {
    for await (const group of orderGroups(options.file)) await toRecord(group);
    if (rejected > 0) return { kind: 'orders', format: 'shopify', rows_imported: 0, rows_already_imported: 0, rows_rejected: rejected, errors };
  }
  const writer = new RowWriter(ch, findImportKind('orders')!, { workspaceId: options.workspace.id, version: newImportVersion() });
  for await (const group of orderGroups(options.file)) {
    const record = await toRecord(group);
    if (record) await writer.push(record);
  }
  await writer.flush();
  return { kind: 'orders', format: 'shopify', rows_imported: writer.written, rows_already_imported: 0, rows_rejected: rejected, errors };
}
