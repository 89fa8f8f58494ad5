/**
 * Attribution, one home for every model: the names a request chooses from (`names.ts`), the gate
 * that turns a request into a plan (`plan.ts`), the buyer identity paths are grouped by
 * (`identity.ts`), the touchpoint tuple (`touchpoint.ts`), and one file per model, each declaring
 * itself (`model.ts`); the data-driven model learns its Markov chain (`chain.ts`, `markov.ts`). The report, a conversion's path, the dashboard and the tools read models
 * only through this module.
 */
import { anyClick } from './any-click.ts';
import { dataDriven } from './data-driven.ts';
import { firstClick } from './first-click.ts';
import { lastClick } from './last-click.ts';
import { linear } from './linear.ts';
import { totalImpact } from './total-impact.ts';
import { uShaped } from './u-shaped.ts';
import type { AttributionModel } from './model.ts';
import type { ModelName } from './names.ts';

export { BASE_TOUCH_FIELDS, TOUCH_FIELDS, touchSql, touchType, type TouchField } from './touchpoint.ts';
export { ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS, type AttributionDate, type AttributionWindow, type ModelName } from './names.ts';
export { planAttribution, type AttributionPlan, type AttributionRequest } from './plan.ts';
export { IDS_CTE, conversionIdentitySql, sessionIdentitySql } from './identity.ts';
export type { AttributionModel, ModelContext } from './model.ts';
export { learnedChain } from './chain.ts';

export const MODELS: Record<ModelName, AttributionModel> = {
  last_click: lastClick,
  first_click: firstClick,
  linear,
  u_shaped: uShaped,
  total_impact: totalImpact,
  any_click: anyClick,
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
   */
  credits: string;
}

/**
 * The columns that attribute a conversion: `path` is an `Array(Touch)` of the buyer's sessions in
 * any order, `convTs` the conversion time, `fallback` the organic touch (it may read columns of
 * the level above `eligible`). Two levels, not one per step: each query level costs ClickHouse
 * analysis time, and a column is cheaper to reference than an alias, which is analysed again at
 * every use (`touches` is an alias, but a cheap one over the column `eligible`). The query binds
 * `window_days` and `excluded_channels` (raw channels removed from every path before the model),
 * and whatever the model's `bind` returns.
 */
export function attributionColumns(model: ModelName, input: { path: string; convTs: string; fallback: string }): AttributionColumns {
  const { path, convTs, fallback } = input;
  const keep = [
    `t.channel != ''`,
    `t.ts <= ${convTs}`,
    `t.ts >= ${convTs} - toIntervalDay({window_days:UInt16})`,
    `t.channel NOT IN {excluded_channels:Array(String)}`,
  ].join(' AND ');
  return {
    eligible: `arraySort(t -> (t.ts, t.session_id), arrayFilter(t -> ${keep}, ${path}))`,
    credits: `arrayZip(${creditedTouchesSql(fallback)} AS touches, ${MODELS[model].weights('touches')})`,
  };
}

/** The touches a conversion credits: `eligible` (a column), or `[fallback]` when nothing is eligible. */
export const creditedTouchesSql = (fallback: string): string => `if(empty(eligible), [${fallback}], eligible)`;

/**
 * `credits` of attributionColumns over a column `touches` (creditedTouchesSql) computed one level
 * below: what several models side by side use, so the touches are analysed once, not per model.
 */
export const modelCreditsSql = (model: ModelName, touches: string): string => `arrayZip(${touches}, ${MODELS[model].weights(touches)})`;

/**
 * `credits` (an `Array(Tuple(Touch, Float64))`) as the report books them. Under an overlapping
 * model each credit gets a third member, its share: the weight scaled so that a conversion's
 * shares sum to at most 1, which the totals sum instead of the weights.
 */
export function bookedCredits(model: ModelName, credits: string): string {
  if (!MODELS[model].overlapping) return credits;
  return `arrayMap((c, s) -> (c.1, c.2, c.2 * least(1., s) / s), ${credits} AS kept, arrayWithConstant(length(kept), arraySum(k -> k.2, kept)))`;
}

/** Whether the report's credits carry a share beside the weight (bookedCredits). */
export const hasShares = (model: ModelName): boolean => MODELS[model].overlapping === true;
