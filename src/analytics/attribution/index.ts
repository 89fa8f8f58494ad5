/**
 * Attribution, one home for every model: the names a request chooses from (re-exported from `kit/vocabulary.ts`), the gate
 * that turns a request into a plan (`plan.ts`), the buyer identity paths are grouped by
 * (`identity.ts`), the touchpoint tuple (`touchpoint.ts`), and one file per model, each declaring
 * itself (`model.ts`); the markov model learns its chain (`chain.ts`, `markov.ts`), the data-driven
 * model its lifts (`incremental-fit.ts`, `incremental.ts`, `nnls.ts`), both kept per scope
 * (`learning-scope.ts`). The report, a conversion's path, the dashboard and the tools read models
 * only through this module.
 */
import { anyClick } from './any-click.ts';
import { dataDriven } from './data-driven.ts';
import { markov } from './markov-model.ts';
import { firstClick } from './first-click.ts';
import { lastClick } from './last-click.ts';
import { linear } from './linear.ts';
import { totalImpact } from './total-impact.ts';
import { uShaped } from './u-shaped.ts';
import { letSql, type AttributionModel } from './model.ts';
import type { ModelName } from '../../kit/vocabulary.ts';
import type { QueryParams } from '../../store/clickhouse.ts';

export { BASE_TOUCH_FIELDS, TOUCH_FIELDS, touchSql, touchType, type TouchField } from './touchpoint.ts';
export { ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS, type AttributionDate, type AttributionWindow, type ModelName } from '../../kit/vocabulary.ts';
export { planAttribution, type AttributionPlan, type AttributionRequest } from './plan.ts';
export { IDS_CTE, conversionIdentitySql, sessionIdentitySql } from './identity.ts';
export type { AttributionModel, ModelContext } from './model.ts';
export { learnedChain } from './chain.ts';
export { learnedIncremental, liftsAt } from './incremental-fit.ts';

export const MODELS: Record<ModelName, AttributionModel> = {
  last_click: lastClick,
  first_click: firstClick,
  linear,
  u_shaped: uShaped,
  total_impact: totalImpact,
  any_click: anyClick,
  markov,
  data_driven: dataDriven,
};

/** The attribution of one conversion as two expressions, on two query levels. */
export interface AttributionColumns {
  /**
   * The touchpoints of the path that carry a channel, started no later than the conversion and
   * no earlier than `window_days` before it (both edges inclusive) and are not excluded, ordered
   * by time, ties by session id. Select it `AS eligible` beside the path and the conversion time.
   */
  eligible: string;
  /**
   * `Array(Tuple(Touch, Float64))`, one level above `eligible`: each of `touches` (`eligible`, or
   * `[fallback]`, the organic touch, when nothing is eligible) with its weight under the model.
   * Under a model with a remainder the organic touch follows with what the weights leave of 1.
   */
  credits: string;
}

/**
 * The columns that attribute a conversion: `path` is an `Array(Touch)` of the buyer's sessions in
 * any order, `convTs` the conversion time (readable on both levels), `fallback` the organic touch
 * (it may read columns of the level above `eligible`). Two levels, not one per step: each query level costs ClickHouse
 * analysis time, and a column is cheaper to reference than an alias, which is analysed again at
 * every use (`touches` is an alias, but a cheap one over the column `eligible`). The query binds
 * `window_days` and `excluded_channels` (raw channels removed from every path before the model),
 * and whatever the model's `bind` returned, `bound` (AttributionModel.weights).
 */
export function attributionColumns(model: ModelName, input: { path: string; convTs: string; fallback: string; bound: QueryParams }): AttributionColumns {
  const { path, convTs, fallback, bound } = input;
  const keep = [
    `t.channel != ''`,
    `t.ts <= ${convTs}`,
    `t.ts >= ${convTs} - toIntervalDay({window_days:UInt16})`,
    `t.channel NOT IN {excluded_channels:Array(String)}`,
  ].join(' AND ');
  return {
    eligible: `arraySort(t -> (t.ts, t.session_id), arrayFilter(t -> ${keep}, ${path}))`,
    credits: modelCreditsSql(model, { touches: 'touches', definedAs: `${creditedTouchesSql(fallback)} AS touches`, convTs, fallback, bound }),
  };
}

/** The touches a conversion credits: `eligible` (a column), or `[fallback]` when nothing is eligible. */
export const creditedTouchesSql = (fallback: string): string => `if(empty(eligible), [${fallback}], eligible)`;

/**
 * A conversion's credits under `model` (`Array(Tuple(Touch, Float64))`) over the touches named
 * `touches`: a column computed one level below when several models stand side by side (so the
 * touches are analysed once, not per model), or the alias `definedAs` gives them in place. Under a
 * model with a remainder the organic touch `fallback` follows with what the weights leave of 1.
 */
export function modelCreditsSql(model: ModelName, input: { touches: string; definedAs?: string; convTs: string; fallback: string; bound: QueryParams }): string {
  const { touches, definedAs = touches, convTs, fallback, bound } = input;
  const weights = MODELS[model].weights(touches, convTs, bound);
  if (!MODELS[model].remainder) return `arrayZip(${definedAs}, ${weights})`;
  // What the weights leave of 1, to the organic touch; a rounding crumb is no credit.
  const rest = 'if(arraySum(kept_weights) > 1. - 1e-9, 0., 1. - arraySum(kept_weights))';
  return `arrayZip(arrayPushBack(${definedAs}, ${fallback}), ${letSql('kept_weights', weights, `arrayPushBack(kept_weights, ${rest})`)})`;
}

/**
 * `credits` (an `Array(Tuple(Touch, Float64))`) as the report books them. Under an overlapping
 * model each credit gets a third member, its share: the weight scaled so that a conversion's
 * shares sum to at most 1, which the totals sum instead of the weights. Computed on whole arrays
 * (no lambda per credit) over `credits` analysed once (letSql): as an alias used three times, the
 * model's expression was analysed three times, 2-3 ms of an any_click statement (docs/performance.md, "Pass 5").
 */
export function bookedCredits(model: ModelName, credits: string): string {
  if (!MODELS[model].overlapping) return credits;
  return letSql('kept', credits, 'arrayZip(kept.1, kept.2, kept.2 * least(1., arraySum(kept.2)) / arraySum(kept.2))');
}

/** Whether the report's credits carry a share beside the weight (bookedCredits). */
export const hasShares = (model: ModelName): boolean => MODELS[model].overlapping === true;
