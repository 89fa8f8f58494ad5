/**
 * Imports of append-only kinds insert each batch with a deduplication token derived from its
 * content (docs/integrations.md, "Importing the same file twice"); events and conversions keep a
 * deduplication window since 0001, expenses gets the same window here, so a batch repeated after a
 * crash between the insert and the import ledger's record is dropped by ClickHouse.
 */
export const statements = [`ALTER TABLE expenses MODIFY SETTING non_replicated_deduplication_window = 10000`];
