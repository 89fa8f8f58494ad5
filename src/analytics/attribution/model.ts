import type { Clickhouse, QueryParams } from '../../store/clickhouse.ts';
import type { AppDatabase } from '../../store/app-db.ts';
import type { QueryScope } from '../query-scope.ts';
import type { ModelName } from '../../kit/vocabulary.ts';
import type { AttributionPlan } from './plan.ts';

/**
 * What a model may read before the report runs: the stores (app state for the data version), the
 * request's scope (workspace and range; its channels are the rows asked for) and plan, the raw
 * channels the caller's key sees (null: every channel) and the workspace's excluded transactions.
 */
export interface ModelContext {
  ch: Clickhouse;
  db: AppDatabase;
  scope: QueryScope;
  attribution: AttributionPlan;
  visibleChannels: readonly string[] | null;
  excludedTransactions: readonly string[];
  /**
   * The counted conversion names (`*` wildcards; decisions 18.1): what makes a buyer for a model
   * that learns who bought, the same names the report counts.
   */
  conversionNames: readonly string[];
}

/**
 * An attribution model, declared in one file of this folder. `weights(path)` is a ClickHouse
 * expression over a non-empty, time-ordered `Array(Touch)` named `path` that returns
 * `Array(Float64)` of the same length: the share of the conversion each touchpoint gets. `convTs`
 * is the conversion's time, readable where `path` is.
 */
export interface AttributionModel {
  name: ModelName;
  summary: string;
  weights(path: string, convTs: string): string;
  /**
   * A conversion's weights may sum to less than 1: the rest goes to organic ("not caused by a
   * tracked channel"), through the conversion's organic touch (attributionColumns).
   */
  remainder?: true;
  /**
   * A conversion's weights may sum to more than 1 (any_click gives every platform 100 %). Rows then
   * do not sum to the total, and the totals count each conversion once through capped shares.
   */
  overlapping?: true;
  /**
   * Values that `weights` binds, computed from the scope's data before the query runs (a model
   * learned from the data). Models that bind nothing leave it out. Names are the model's own (a
   * prefix of its name): several models bind into one statement when they are compared.
   */
  bind?(ctx: ModelContext): Promise<QueryParams>;
  /** What an answer's settings_applied says about the values `bind` returned (a fallback, calibrations). */
  applied?(bound: QueryParams): Record<string, unknown>;
}
