/**
 * What counts as a sale (docs/books.md): a stored platform order counts when its newest version's
 * status is `sale`; a cancelled, voided, test or pending order counts in no number, and neither
 * does a pixel conversion that names it (by the order's id or its name). A conversion that names
 * no stored order counts: the pixel is then all we know. An order changed back to a live status
 * is a sale again (its newer version decides).
 */

/**
 * The identifiers an order answers to: its id and its name (Shopify `#1001`, WooCommerce's
 * number; docs/integrations.md), one joinable row each. Costs about a quarter more join time than
 * the id alone when every order has a name (bench/suites/order-names.ts, docs/performance.md).
 */
export const ORDER_IDS = "arrayFilter(id -> id != '', arrayDistinct([transaction_id, order_name]))";

/**
 * Conditions on a row of `orders` read `FINAL` (its newest version, which decides): the order is
 * a sale, or it is none. Every query that counts orders says "sale" through these.
 */
export const SALE_ORDER = 'sale = 1';
export const NO_SALE_ORDER = 'sale = 0';

/**
 * The ids (id and name) of the workspace's stored orders that are no sale, as a subquery. `FINAL`
 * first, then the filter: the newest version decides (ClickHouse does not move a WHERE on a
 * column outside the sorting key before FINAL's merge).
 */
const NOT_SALE_IDS = `SELECT arrayJoin(${ORDER_IDS}) FROM orders FINAL WHERE store_id = {store_id:UInt64} AND ${NO_SALE_ORDER}`;

/** A condition on a conversion's transaction id column: it names no stored order that is no sale. */
export const soldSql = (transactionId: string) => `${transactionId} NOT IN (${NOT_SALE_IDS})`;
