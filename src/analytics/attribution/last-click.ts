import { perElement, type AttributionModel } from './model.ts';

/** The last touchpoint before the conversion gets 100 %. */
export const lastClick: AttributionModel = {
  name: 'last_click',
  summary: 'the last eligible touchpoint gets 100 %',
  single: true,
  weights: (path) => `arrayMap((i, n) -> if(i = n, 1., 0.), arrayEnumerate(${path}), ${perElement(path, `length(${path})`)})`,
};
