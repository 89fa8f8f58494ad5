import type { AttributionModel } from './model.ts';

/** The last touchpoint before the conversion gets 100 %. */
export const lastClick: AttributionModel = {
  name: 'last_click',
  summary: 'the last eligible touchpoint gets 100 %',
  weights: (path) => `arrayMap(i -> if(i = length(${path}), 1., 0.), arrayEnumerate(${path}))`,
};
