import type { AttributionModel } from './model.ts';
import { LOW_INTENT_SOURCES } from './touchpoint.ts';

const LOW = `(${LOW_INTENT_SOURCES.map((s) => `'${s}'`).join(', ')})`;

/**
 * Linear over the touchpoints, except that email and organic touches get no share when any other
 * channel is in the path; the shares always sum to 100 %.
 */
export const totalImpact: AttributionModel = {
  name: 'total_impact',
  summary: 'linear, but email and organic touches get nothing when another channel is in the path',
  weights: (path) => {
    const others = `arrayCount(x -> x.source NOT IN ${LOW}, ${path})`;
    return `arrayMap(t -> if(${others} = 0, 1. / length(${path}), if(t.source NOT IN ${LOW}, 1. / ${others}, 0.)), ${path})`;
  },
};
