import type { AttributionModel } from './touchpoint.ts';

/**
 * Every distinct reporting source (platform) in the path gets 100 %, booked on that platform's
 * own last touchpoint. Rows therefore do not sum to the total.
 */
export const anyClick: AttributionModel = {
  name: 'any_click',
  summary: 'every platform in the path gets 100 % through its own last touchpoint',
  weights: (path) =>
    `arrayMap((t, i) -> if(arrayLastIndex(x -> x.source = t.source, ${path}) = i, 1., 0.), ${path}, arrayEnumerate(${path}))`,
};
