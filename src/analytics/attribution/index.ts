import { anyClick } from './any-click.ts';
import { firstClick } from './first-click.ts';
import { lastClick } from './last-click.ts';
import { linear } from './linear.ts';
import { totalImpact } from './total-impact.ts';
import { uShaped } from './u-shaped.ts';
import type { AttributionModel } from './touchpoint.ts';
import { ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS } from '../../store/app/settings.ts';

export { BASE_TOUCH_FIELDS, TOUCH_FIELDS, touchSql, touchType, type AttributionModel, type TouchField } from './touchpoint.ts';

export type ModelName = (typeof ATTRIBUTION_MODELS)[number];
export type AttributionWindow = (typeof ATTRIBUTION_WINDOWS)[number];
export type AttributionDate = (typeof ATTRIBUTION_DATES)[number];
export { ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS };

export const MODELS: Record<ModelName, AttributionModel> = {
  last_click: lastClick,
  first_click: firstClick,
  linear,
  u_shaped: uShaped,
  total_impact: totalImpact,
  any_click: anyClick,
};

/** Bound parameters the attribution columns read. */
export interface AttributionParams {
  window_days: number;
  /** Raw channels removed from every path before the model runs. */
  excluded_channels: string[];
}

/**
 * Attributes every conversion of `source`, a relation with the columns named by `path` (an
 * `Array(Touch)` of the buyer's sessions in any order), `convTs` (the conversion time) and those
 * `fallback` reads. Adds, in two nesting levels (each level costs ClickHouse analysis time):
 * - `eligible`: the touchpoints of `path` that carry a channel, started no later than the
 *   conversion and no earlier than `window_days` before it (both edges inclusive), and are not
 *   excluded; ordered by time, ties by session id;
 * - `touches`: `eligible`, or `[fallback]` (the organic touch) when nothing is eligible;
 * - `credits`: `Array(Tuple(Touch, Float64))`, each touch with its weight under `model`.
 */
export function attributionSql(model: ModelName, input: { source: string; path: string; convTs: string; fallback: string }): string {
  const { source, path, convTs, fallback } = input;
  const keep = [
    `t.channel != ''`,
    `t.ts <= ${convTs}`,
    `t.ts >= ${convTs} - toIntervalDay({window_days:UInt16})`,
    `t.channel NOT IN {excluded_channels:Array(String)}`,
  ].join(' AND ');
  return `SELECT *, arrayZip(touches, ${MODELS[model].weights('touches')}) AS credits FROM (
    SELECT *, arraySort(t -> (t.ts, t.session_id), arrayFilter(t -> ${keep}, ${path})) AS eligible,
      if(empty(eligible), [${fallback}], eligible) AS touches
    FROM (
      ${source}
    )
  )`;
}
