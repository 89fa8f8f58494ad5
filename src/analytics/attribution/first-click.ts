import type { AttributionModel } from './model.ts';

/** The first touchpoint inside the window gets 100 %. */
export const firstClick: AttributionModel = {
  name: 'first_click',
  summary: 'the first eligible touchpoint gets 100 %',
  single: true,
  weights: (path) => `arrayMap(i -> if(i = 1, 1., 0.), arrayEnumerate(${path}))`,
};
