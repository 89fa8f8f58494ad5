/**
 * Writes what the platform webhooks and the Shopify backfill bring (docs/integrations.md): a whole
 * order, a refund added to a stored order, or a stored order marked cancelled. Rows go through
 * the collector's write-ahead log, so an answered delivery survives a crash.
 */
import type { Clickhouse } from '../../store/clickhouse.ts';
import type { BatchWriter } from '../wal.ts';
import { findProductCosts } from '../queries/find-product-costs.ts';
import { findStoredOrder, type StoredOrder } from '../queries/find-stored-order.ts';
import { decisiveStatus, orderVersion } from '../fields.ts';
import { checkHappened, costKey, OrderRejected, toOrderRow, type OrderRecord, type PlatformOrder, type PlatformRefund } from './order.ts';
import { refundsOverOrder } from '../row-schemas.ts';

export interface ShopWorkspace {
  id: number;
  currency: string;
}

/** The orders row of one platform order, with COGS from its variants' costs in the products table. */
export async function orderRecord(ch: Clickhouse, workspace: ShopWorkspace, order: PlatformOrder): Promise<OrderRecord> {
  const variantIds = [...new Set(order.lines.map(costKey).filter(Boolean))];
  const costs = await findProductCosts(ch, { workspaceId: workspace.id, variantIds });
  return toOrderRow(order, { workspaceId: workspace.id, currency: workspace.currency, costs });
}

export async function storeOrder(ch: Clickhouse, writer: BatchWriter, workspace: ShopWorkspace, order: PlatformOrder): Promise<void> {
  await writer.append({ orders: [await orderRecord(ch, workspace, order)] });
}

/** A stored order written again with changes; it must win over the stored version (`atLeast`: a version). */
function rewrite(stored: StoredOrder, changes: Partial<StoredOrder>, atLeast: number): OrderRecord {
  return { ...stored, ...changes, version: Math.max(stored.version + 1, atLeast) };
}

export type RefundOutcome = 'added' | 'known' | 'no-order';

/** Adds a refund to its stored order (once per refund id); throws OrderRejected when the refunds would exceed the order. */
export async function addRefund(
  ch: Clickhouse,
  writer: BatchWriter,
  workspace: ShopWorkspace,
  orderId: string,
  refund: PlatformRefund,
): Promise<RefundOutcome> {
  const dt = checkHappened(refund.dt, 'processed_at');
  const stored = await findStoredOrder(ch, { workspaceId: workspace.id, transactionId: orderId });
  if (!stored) return 'no-order';
  if (refund.id !== '' && stored.refund_ids.includes(refund.id)) return 'known';
  const refunded = stored.refunds.reduce((sum, r) => sum + r.amount, refund.amount);
  if (refunded > stored.gross_revenue) throw new OrderRejected(`refunds: ${refundsOverOrder(refunded, stored.gross_revenue)}`);
  const row = rewrite(
    stored,
    { refunds: [...stored.refunds, { dt, amount: refund.amount }], refund_ids: [...stored.refund_ids, refund.id] },
    orderVersion(dt),
  );
  await writer.append({ orders: [row] });
  return 'added';
}

/** Marks a stored order cancelled (a WooCommerce order deleted); false when none is stored. */
export async function cancelStoredOrder(ch: Clickhouse, writer: BatchWriter, workspace: ShopWorkspace, orderId: string): Promise<boolean> {
  const stored = await findStoredOrder(ch, { workspaceId: workspace.id, transactionId: orderId });
  if (!stored) return false;
  await writer.append({ orders: [rewrite(stored, { status: decisiveStatus(stored.status, 'cancelled') }, Date.now() * 1000)] });
  return true;
}

/** Dates of the refunds already stored for an order, by refund id. */
export async function storedRefundDates(ch: Clickhouse, workspace: ShopWorkspace, orderId: string): Promise<Map<string, string>> {
  const stored = await findStoredOrder(ch, { workspaceId: workspace.id, transactionId: orderId });
  const dates = new Map<string, string>();
  stored?.refund_ids.forEach((id, i) => {
    if (id !== '' && stored.refunds[i]) dates.set(id, stored.refunds[i].dt);
  });
  return dates;
}
