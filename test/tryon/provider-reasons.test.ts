/**
 * Fixture: none; a table of provider answers (HTTP status, error code) and the safe reason a
 * storefront sees for each. The end-to-end path is in lifecycle.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reasonFor } from '../../src/tryon/generators/http-provider.ts';

test('provider errors map to the safe reason codes only', () => {
  const table: [number, string | undefined, string][] = [
    [429, undefined, 'provider_busy'],
    [503, 'overloaded', 'provider_busy'],
    [200, 'rate_limited', 'provider_busy'],
    [400, 'content_policy', 'content_rejected'],
    [200, 'safety', 'content_rejected'],
    [422, 'unreadable_input', 'input_unreadable'],
    [400, 'invalid_image', 'input_unreadable'],
    [415, undefined, 'input_unreadable'],
    [500, 'internal', 'generation_failed'],
    [400, 'Some provider text with details', 'generation_failed'],
  ];
  assert.deepEqual(table.map(([status, code]) => reasonFor(status, code)), table.map(([, , reason]) => reason));
});
