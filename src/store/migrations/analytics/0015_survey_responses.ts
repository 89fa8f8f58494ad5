/**
 * Answers to post-purchase surveys (docs/collection.md, "Post-purchase surveys"), written by the
 * collector's log like its other rows, so an answer acknowledged with 202 survives a crash. One
 * response per (survey, transaction): a newer answer replaces the older one (`version`, the
 * microsecond it was accepted), read with FINAL. They live beside the conversions they answer
 * for: the "how did you hear about us" table joins them to each order's attributed source.
 * `answers` is the JSON array the collector checked, `[{question, value}]`.
 */
export const statements = [
  `CREATE TABLE IF NOT EXISTS survey_responses (
    store_id UInt64,
    survey_id UInt64,
    transaction_id String,
    visitor_id UInt64 DEFAULT 0,
    answers String,
    dt DateTime64(3, 'UTC'),
    version UInt64
  ) ENGINE = ReplacingMergeTree(version)
  ORDER BY (store_id, survey_id, transaction_id)`,
];
