/**
 * Daily weather observations per workspace and place, imported with `import --kind weather`. The
 * newest import wins per (workspace, day, country, city); read with FINAL.
 */
export const statements = [
  `CREATE TABLE IF NOT EXISTS weather_daily (
    store_id UInt64,
    dt Date,
    country_code LowCardinality(String),
    city String DEFAULT '',
    temperature_c Float32,
    precipitation_mm Float32 DEFAULT 0,
    condition LowCardinality(String) DEFAULT '',
    version UInt64
  ) ENGINE = ReplacingMergeTree(version)
  ORDER BY (store_id, dt, country_code, city)`,
];
