/**
 * Submissions of storefront forms: each one a lead (docs/collection.md, "Storefront forms"),
 * written by the collector's log like its other rows, so a submission acknowledged with 202
 * survives a crash. `submission_id` is drawn by the collector; `fields` is the JSON array it
 * checked against the form, `[{field, label, value}]`; `email` is the first email field's value.
 */
export const statements = [
  `CREATE TABLE IF NOT EXISTS form_submissions (
    store_id UInt64,
    form_id UInt64,
    submission_id String,
    visitor_id UInt64 DEFAULT 0,
    email String DEFAULT '',
    fields String,
    dt DateTime64(3, 'UTC')
  ) ENGINE = ReplacingMergeTree
  ORDER BY (store_id, form_id, submission_id)`,
];
