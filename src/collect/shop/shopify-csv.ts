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
import { OrderRejected, type PlatformLine, type PlatformOrder } from './order.ts';
import { shopifyPlace, shopifyStatus } from './shopify.ts';

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
  'Financial Status': z.string().optional(),
  'Discount Code': z.string().optional(),
  'Shipping City': z.string().optional(),
  'Shipping Country': z.string().optional(),
  'Billing City': z.string().optional(),
  'Billing Country': z.string().optional(),
});

/** The line item columns, on every row of an order. */
const lineColumns = z.object({
  'Lineitem quantity': z.coerce.number({ error: 'expected a whole number' }).int('expected a whole number').nonnegative('expected a whole number'),
  'Lineitem name': z.string().optional(),
  'Lineitem price': moneyAmount,
  'Lineitem sku': z.string().optional(),
});

/** A row without line item columns (an export of order fields only) has no line. */
function exportLine(row: Record<string, unknown>, line: number): PlatformLine | null {
  if (row['Lineitem quantity'] === undefined && row['Lineitem name'] === undefined) return null;
  const parsed = lineColumns.safeParse(row);
  if (!parsed.success) throw new OrderRejected(`line ${line}: ${describeIssues(parsed.error)}`);
  const l = parsed.data;
  return { productId: '', variantId: '', sku: l['Lineitem sku'] ?? '', title: l['Lineitem name'] ?? '', quantity: l['Lineitem quantity'], unitPrice: l['Lineitem price'] };
}

/**
 * One order of the export: its first row carries the order fields, every row one line item;
 * `lines` are the rows' line numbers in the file, for error messages.
 */
export function mapShopifyExport(rows: Record<string, unknown>[], lines: number[] = []): PlatformOrder {
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
    // The export says nothing of test orders.
    status: shopifyStatus({ cancelledAt: o['Cancelled at'], financialStatus: o['Financial Status'] }),
    platformStatus: o['Financial Status'] ?? '',
    // Several codes are listed with commas: the first one.
    couponCode: (o['Discount Code'] ?? '').split(',')[0]!.trim(),
    ...shopifyPlace(
      { city: o['Shipping City'], country_code: o['Shipping Country'] },
      { city: o['Billing City'], country_code: o['Billing Country'] },
    ),
    lines: rows.flatMap((row, i) => exportLine(row, lines[i] ?? i + 1) ?? []),
  };
}

type Group = { line: number; rows: Record<string, unknown>[]; lines: number[] } | { line: number; error: string };

/** The export's rows grouped by order (consecutive rows with the same `Name`). */
async function* orderGroups(file: string): AsyncGenerator<Group> {
  let current: { line: number; name: unknown; rows: Record<string, unknown>[]; lines: number[] } | null = null;
  for await (const record of readRecords({ file }, { format: 'csv' })) {
    if ('error' in record) {
      yield record;
      continue;
    }
    if (current && record.value.Name === current.name) {
      current.rows.push(record.value);
      current.lines.push(record.line);
      continue;
    }
    if (current) yield current;
    current = { line: record.line, name: record.value.Name, rows: [record.value], lines: [record.line] };
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
      return await orderRecord(ch, options.workspace, mapShopifyExport(group.rows, group.lines));
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
