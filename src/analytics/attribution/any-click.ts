import type { AttributionModel } from './model.ts';

/**
 * Every distinct reporting source (platform) in the path gets 100 %, booked on that platform's
 * own last touchpoint. Rows therefore do not sum to the total. A touch is its source's last when
 * its source occurs for the first time in the reversed path (arrayEnumerateUniq counts the
 * occurrences so far): linear in the path, where a search per touch would copy the path per touch.
 */
export const anyClick: AttributionModel = {
  name: 'any_click',
  summary: 'every platform in the path gets 100 % through its own last touchpoint',
  overlapping: true,
  weights: (path) =>
    `arrayReverse(arrayMap(n -> if(n = 1, 1., 0.), arrayEnumerateUniq(arrayReverse(arrayMap(t -> t.source, ${path})))))`,
};
