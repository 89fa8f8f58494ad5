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
 * `value`, an expression of the conversion (the path's length, a sum over it), once per element of
 * `array`: a lambda takes it as an argument. ClickHouse evaluates a lambda's body per element, with
 * every column it reads copied per element, so an expression over the path written inside the
 * body would copy the path and compute again for every touch: a cost that grows with the square of
 * the path's length, which the report pays per conversion and per model.
 */
export const perElement = (array: string, value: string): string => `arrayWithConstant(length(${array}), ${value})`;

/**
 * `body` with the lambda argument `name` standing for `value`, which ClickHouse then analyses once:
 * an expression written again, or an alias, is analysed again at every use, and a learned model's
 * arrays used three or four times made most of the 8-model statement's analysis. The lambda runs
 * over a one-element array, once per conversion.
 */
export const letSql = (name: string, value: string, body: string): string => `arrayMap(${name} -> ${body}, [${value}])[1]`;

/**
 * An attribution model, declared in one file of this folder. `weights(path)` is a ClickHouse
 * expression over a non-empty, time-ordered `Array(Touch)` named `path` that returns
 * `Array(Float64)` of the same length: the share of the conversion each touchpoint gets. `convTs`
 * is the conversion's time, readable where `path` is. No lambda in it reads the path but through its
 * arguments (perElement). `bound` holds the values `bind` returned (empty for a model that binds
 * nothing; a statement is built after binding): the expression leaves out what they make idle
 * (data_driven's lift-test lookup when no test applies), which ClickHouse would otherwise analyse,
 * at some cost, before folding it away.
 */
export interface AttributionModel {
  name: ModelName;
  summary: string;
  weights(path: string, convTs: string, bound: QueryParams): string;
  /**
   * One touch of every path gets 100 % and the others nothing: each conversion books exactly one
   * credit of weight 1, so figures that do not ask which touch got it are the conversions' own.
   */
  single?: true;
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
