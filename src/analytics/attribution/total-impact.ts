import { perElement, type AttributionModel } from './model.ts';
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
    return `if(${others} = 0, ${perElement(path, `1. / length(${path})`)}, arrayMap((t, o) -> if(t.source NOT IN ${LOW}, 1. / o, 0.), ${path}, ${perElement(path, others)}))`;
  },
};
