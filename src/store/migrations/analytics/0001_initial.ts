/**
 * The analytics tables. Every table is keyed by workspace first (`store_id`), so one directory
 * (chDB) or one database (server) holds all tenants.
 */
export const statements = [
  `CREATE TABLE IF NOT EXISTS events (
    store_id UInt64,
    dt DateTime64(3, 'UTC'),
    name LowCardinality(String),
    session_id UInt64,
    visitor_id UInt64,
    visitor_timezone LowCardinality(String) DEFAULT '',
    adv_source LowCardinality(String) DEFAULT '',
    adv_campaign_id String DEFAULT '',
    adv_adgroup_id String DEFAULT '',
    adv_ad_id String DEFAULT '',
    adv_asset_group_id String DEFAULT '',
    utm_source String DEFAULT '',
    utm_medium String DEFAULT '',
    utm_campaign String DEFAULT '',
    utm_content String DEFAULT '',
    utm_term String DEFAULT '',
    device_type LowCardinality(String) DEFAULT '',
    country_code LowCardinality(String) DEFAULT '',
    hostname LowCardinality(String) DEFAULT '',
    pathname String DEFAULT '',
    referrer String DEFAULT '',
    entry_meta_keys Array(LowCardinality(String)) DEFAULT [],
    entry_meta_values Array(String) DEFAULT [],
    customer_id String DEFAULT ''
  ) ENGINE = MergeTree
  PARTITION BY toYYYYMM(dt)
  ORDER BY (store_id, dt, session_id)
  SETTINGS non_replicated_deduplication_window = 10000`,

  `CREATE TABLE IF NOT EXISTS conversions (
    store_id UInt64,
    dt DateTime64(3, 'UTC'),
    name LowCardinality(String),
    session_id UInt64,
    visitor_id UInt64,
    customer_id String DEFAULT '',
    transaction_id String DEFAULT '',
    is_new_customer UInt8 DEFAULT 0,
    transaction_gross_revenue Int64 DEFAULT 0,
    transaction_currency LowCardinality(String) DEFAULT '',
    transaction_country_code LowCardinality(String) DEFAULT '',
    transaction_city String DEFAULT '',
    hostname LowCardinality(String) DEFAULT '',
    coupon_code String DEFAULT ''
  ) ENGINE = MergeTree
  PARTITION BY toYYYYMM(dt)
  ORDER BY (store_id, dt, session_id)
  SETTINGS non_replicated_deduplication_window = 10000`,

  `CREATE TABLE IF NOT EXISTS orders (
    store_id UInt64,
    transaction_id String,
    dt DateTime64(3, 'UTC'),
    customer_id String DEFAULT '',
    is_new_customer UInt8 DEFAULT 0,
    currency LowCardinality(String) DEFAULT '',
    gross_revenue Int64 DEFAULT 0,
    tax Int64 DEFAULT 0,
    shipping Int64 DEFAULT 0,
    discount Int64 DEFAULT 0,
    refunds Array(Tuple(dt DateTime64(3, 'UTC'), amount Int64)) DEFAULT [],
    cogs Int64 DEFAULT 0,
    shipping_cost Int64 DEFAULT 0,
    payment_fee Nullable(Int64),
    cancelled UInt8 DEFAULT 0,
    version UInt64
  ) ENGINE = ReplacingMergeTree(version)
  ORDER BY (store_id, transaction_id)`,

  `CREATE TABLE IF NOT EXISTS ads (
    store_id UInt64,
    dt Date,
    source LowCardinality(String),
    ad_id String,
    adaccount_id String DEFAULT '',
    campaign_id String DEFAULT '',
    campaign_name String DEFAULT '',
    adgroup_id String DEFAULT '',
    adgroup_name String DEFAULT '',
    ad_name String DEFAULT '',
    spend Int64 DEFAULT 0,
    impressions UInt64 DEFAULT 0,
    clicks UInt64 DEFAULT 0,
    reach UInt64 DEFAULT 0,
    version UInt64
  ) ENGINE = ReplacingMergeTree(version)
  ORDER BY (store_id, dt, source, ad_id)`,

  `CREATE TABLE IF NOT EXISTS products (
    store_id UInt64,
    product_handle String,
    variant_id String,
    title String DEFAULT '',
    image_path_or_url String DEFAULT '',
    cost Int64 DEFAULT 0,
    version UInt64
  ) ENGINE = ReplacingMergeTree(version)
  ORDER BY (store_id, product_handle, variant_id)`,

  `CREATE TABLE IF NOT EXISTS expenses (
    store_id UInt64,
    dt Date,
    name String,
    amount Int64
  ) ENGINE = MergeTree
  ORDER BY (store_id, dt, name)`,
];
