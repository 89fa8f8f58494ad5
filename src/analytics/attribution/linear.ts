import { perElement, type AttributionModel } from './model.ts';

/** Every touchpoint gets an equal share: 1/n. */
export const linear: AttributionModel = {
  name: 'linear',
  summary: 'every eligible touchpoint gets 1/n',
  weights: (path) => perElement(path, `1. / length(${path})`),
};
