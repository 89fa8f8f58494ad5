import { perElement, type AttributionModel } from './model.ts';

/**
 * Position based: one touchpoint 100 %; two 50/50; three or more 40 % first, 40 % last and the
 * remaining 20 % split evenly over the middle ones.
 */
export const uShaped: AttributionModel = {
  name: 'u_shaped',
  summary: '1 touch 100 %; 2 touches 50/50; else 40 % first, 40 % last, 20 % over the middle',
  weights: (path) =>
    `arrayMap((i, n) -> multiIf(n = 1, 1., n = 2, 0.5, i = 1 OR i = n, 0.4, 0.2 / (n - 2)), arrayEnumerate(${path}), ${perElement(path, `length(${path})`)})`,
};
