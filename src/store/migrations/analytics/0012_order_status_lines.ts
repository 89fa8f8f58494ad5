/**
 * What an order is, beyond its money (docs/integrations.md, "What counts as a sale"):
 *
 * - `status` names why an order is or is not a sale: `sale`, `pending` (payment never completed),
 *   `cancelled`, `voided` or `test`; `sale` (1 when status is `sale`) is what every report filters
 *   on. It replaces `cancelled`: rows stored before keep their meaning (`cancelled = 1` becomes
 *   `cancelled`, every other row `sale`), written into their parts before the old column goes.
 * - `platform_status` is the platform's own word (Shopify `financial_status`, WooCommerce `status`).
 * - `coupon_code` (the first discount code), `city` and `country_code` (shipping address, else
 *   billing) carry the order into the coupon and city breakdowns.
 * - `line_items` on orders and on conversions (the pixel's purchase items): one tuple per line,
 *   stored in the row they belong to, so a newer version of an order replaces its lines with it.
 */
const LINE_ITEMS = `Array(Tuple(product_id String, variant_id String, sku String, title String, quantity UInt32, unit_price Int64))`;

export const statements = [
  `ALTER TABLE orders ADD COLUMN IF NOT EXISTS status LowCardinality(String) DEFAULT if(cancelled = 1, 'cancelled', 'sale') AFTER payment_fee`,
  // Synchronous, so the old column can go once every part holds the status.
  `ALTER TABLE orders MATERIALIZE COLUMN status SETTINGS mutations_sync = 2`,
  `ALTER TABLE orders MODIFY COLUMN status LowCardinality(String) DEFAULT 'sale'`,
  `ALTER TABLE orders DROP COLUMN IF EXISTS cancelled`,
  `ALTER TABLE orders ADD COLUMN IF NOT EXISTS sale UInt8 ALIAS status = 'sale' AFTER status`,
  `ALTER TABLE orders ADD COLUMN IF NOT EXISTS platform_status LowCardinality(String) DEFAULT '' AFTER sale`,
  `ALTER TABLE orders ADD COLUMN IF NOT EXISTS coupon_code String DEFAULT '' AFTER platform_status`,
  `ALTER TABLE orders ADD COLUMN IF NOT EXISTS city String DEFAULT '' AFTER coupon_code`,
  `ALTER TABLE orders ADD COLUMN IF NOT EXISTS country_code LowCardinality(String) DEFAULT '' AFTER city`,
  `ALTER TABLE orders ADD COLUMN IF NOT EXISTS line_items ${LINE_ITEMS} DEFAULT [] AFTER country_code`,
  `ALTER TABLE conversions ADD COLUMN IF NOT EXISTS line_items ${LINE_ITEMS} DEFAULT [] AFTER coupon_code`,
];
