/**
 * Orders from shop platforms (docs/integrations.md): `order_name` is the order's second identifier
 * (Shopify's `name` such as `#1001`, WooCommerce's `number`), matched against a pixel conversion's
 * transaction id like `transaction_id` is; `refund_ids` runs parallel to `refunds` and names each
 * refund, so a refund delivered twice (in its own webhook and in the order's) is counted once and
 * keeps the date it was first seen with.
 */
export const statements = [
  `ALTER TABLE orders ADD COLUMN IF NOT EXISTS order_name String DEFAULT '' AFTER transaction_id`,
  `ALTER TABLE orders ADD COLUMN IF NOT EXISTS refund_ids Array(String) DEFAULT [] AFTER refunds`,
];
