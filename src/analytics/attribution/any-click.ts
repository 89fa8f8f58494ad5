import type { AttributionModel } from './model.ts';

/**
 * Every distinct reporting source (platform) in the path gets 100 %, booked on that platform's
 * own last touchpoint. Rows therefore do not sum to the total. A touch is its source's last when
 * its source occurs for the first time in the reversed path (arrayEnumerateUniq counts the
 * occurrences so far, and intDiv(1, n) is 1 for the first and 0 after): linear in the path, where
 * a search per touch would copy the path per touch, and on whole arrays, without a lambda per
 * touch (about 1 ms less of a 90-day campaign report, docs/performance.md "Pass 5").
 */
export const anyClick: AttributionModel = {
  name: 'any_click',
  summary: 'every platform in the path gets 100 % through its own last touchpoint',
  overlapping: true,
  weights: (path) => `arrayReverse(intDiv(1, arrayEnumerateUniq(arrayReverse(tupleElement(${path}, 'source')))) * 1.)`,
};
