import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { Range } from '../../../kit/calendar/range.ts';
import { LOCAL_DATE, timestampParam } from '../../sql.ts';
import { NO_SALE_ORDER, ORDER_IDS, SALE_ORDER } from '../../sales.ts';
import { PURCHASE } from '../../conversion-names.ts';
import { EXCLUDED_TRANSACTIONS_SQL, excludedListId } from '../settings/excluded-transactions.ts';

export const QUERY_NAME = 'books-by-day';

/** One local day of the shop's orders and the pixel's purchases, money in cents. */
export interface BooksDayRow {
  date: string;
  shop_orders: number;
  shop_revenue: number;
  cancelled_orders: number;
  cancelled_revenue: number;
  test_orders: number;
  refunds: number;
  matched_orders: number;
  matched_revenue: number;
  unmatched_orders: number;
  unmatched_revenue: number;
  excluded_orders: number;
  pixel_only_conversions: number;
  pixel_only_revenue: number;
  /** What the report should book for the day's counted orders under the settings (see booksByDay). */
  expected_order_revenue: number;
}

export interface BooksSettings {
  excludedIds: readonly string[];
  includeUnattributed: boolean;
  netMerchandise: boolean;
  refundNetting: boolean;
}

/** Ids the pixel's purchases name (an order is matched when its id or its name is among them). */
const PIXEL_IDS = `SELECT transaction_id FROM conversions WHERE store_id = {store_id:UInt64} AND name = {purchase:String} AND transaction_id != ''`;
const STORED_ORDER_IDS = `SELECT arrayJoin(${ORDER_IDS}) FROM orders FINAL WHERE store_id = {store_id:UInt64}`;

/**
 * Per local day of the range: the platform orders placed that day (newest version, by status) and
 * the pixel purchases that name no stored order. Only purchases stand beside orders: a lead or a
 * sign-up is no order, matched or not. An order is a sale when its status says so
 * (src/analytics/sales.ts); a sale order is excluded when the excluded ids name it, else matched
 * when a pixel purchase names it (by id or name), else unmatched. `expected_order_revenue` is the
 * revenue the report books for the orders it counts (the matched ones, and the unmatched ones when
 * unattributed orders are included), after the revenue settings (tax and shipping out, refunds
 * netted), taken at the shop's amount. Only days with an order or a purchase come back.
 */
export async function booksByDay(ch: Clickhouse, workspaceId: number, range: Range, settings: BooksSettings): Promise<BooksDayRow[]> {
  const excludes = settings.excludedIds.length > 0;
  const excludedOrder = excludes ? `(transaction_id IN ${EXCLUDED_TRANSACTIONS_SQL} OR order_name IN ${EXCLUDED_TRANSACTIONS_SQL})` : '0';
  const excludedConversion = excludes ? `AND transaction_id NOT IN ${EXCLUDED_TRANSACTIONS_SQL}` : '';
  const sql = `
SELECT toString(day) AS date,
  toUInt32(countIf(kind = 'order' AND status != 'test')) AS shop_orders,
  toInt64(sumIf(gross, kind = 'order' AND ${SALE_ORDER})) AS shop_revenue,
  toUInt32(countIf(kind = 'order' AND status != 'test' AND ${NO_SALE_ORDER})) AS cancelled_orders,
  toInt64(sumIf(gross, kind = 'order' AND status != 'test' AND ${NO_SALE_ORDER})) AS cancelled_revenue,
  toUInt32(countIf(kind = 'order' AND status = 'test')) AS test_orders,
  toInt64(sumIf(refunded, kind = 'order' AND ${SALE_ORDER})) AS refunds,
  toUInt32(countIf(kind = 'order' AND ${SALE_ORDER} AND NOT excluded AND matched)) AS matched_orders,
  toInt64(sumIf(gross, kind = 'order' AND ${SALE_ORDER} AND NOT excluded AND matched)) AS matched_revenue,
  toUInt32(countIf(kind = 'order' AND ${SALE_ORDER} AND NOT excluded AND NOT matched)) AS unmatched_orders,
  toInt64(sumIf(gross, kind = 'order' AND ${SALE_ORDER} AND NOT excluded AND NOT matched)) AS unmatched_revenue,
  toUInt32(countIf(kind = 'order' AND ${SALE_ORDER} AND excluded)) AS excluded_orders,
  toUInt32(countIf(kind = 'pixel')) AS pixel_only_conversions,
  toInt64(sumIf(gross, kind = 'pixel')) AS pixel_only_revenue,
  toInt64(sumIf(gross - if({net_merchandise:UInt8}, tax_shipping, 0) - if({refund_netting:UInt8}, refunded, 0),
    kind = 'order' AND ${SALE_ORDER} AND NOT excluded AND (matched OR {include_unattributed:UInt8}))) AS expected_order_revenue
FROM (
  SELECT 'order' AS kind, ${LOCAL_DATE('dt')} AS day, status, sale, gross_revenue AS gross, tax + shipping AS tax_shipping,
    arraySum(r -> r.amount, refunds) AS refunded, ${excludedOrder} AS excluded,
    transaction_id IN (${PIXEL_IDS}) OR (order_name != '' AND order_name IN (${PIXEL_IDS})) AS matched
  FROM orders FINAL
  WHERE store_id = {store_id:UInt64} AND dt BETWEEN {start:DateTime64(3, 'UTC')} AND {end:DateTime64(3, 'UTC')}
  UNION ALL
  SELECT 'pixel', ${LOCAL_DATE('dt')}, '', 1, transaction_gross_revenue, 0, 0, 0, 0
  FROM conversions
  WHERE store_id = {store_id:UInt64} AND dt BETWEEN {start:DateTime64(3, 'UTC')} AND {end:DateTime64(3, 'UTC')} AND name = {purchase:String}
    AND (transaction_id = '' OR transaction_id NOT IN (${STORED_ORDER_IDS})) ${excludedConversion}
)
GROUP BY day
ORDER BY day
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<BooksDayRow>(QUERY_NAME, sql, {
    store_id: workspaceId,
    purchase: PURCHASE,
    start: timestampParam(range.startMs),
    end: timestampParam(range.endMs),
    tz: range.timeZone,
    net_merchandise: settings.netMerchandise ? 1 : 0,
    refund_netting: settings.refundNetting ? 1 : 0,
    include_unattributed: settings.includeUnattributed ? 1 : 0,
    ...(excludes ? { excluded_list: excludedListId(settings.excludedIds) } : {}),
  });
}
