/**
 * The collector's two rate limits in isolation (no stores): per (pixel id, client address) per
 * minute, and per pixel id per second across all clients.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCollectLimits } from '../../src/collect/limits.ts';
import { HttpError } from '../../src/http/errors.ts';

const outcome = (p: Promise<void>) =>
  p.then(() => 'ok', (error: unknown) => (error instanceof HttpError ? `${error.statusCode} ${error.message}` : String(error)));

test('caps one pixel id across many clients per second, and leaves other pixel ids alone', async () => {
  const limits = createCollectLimits({ flushMs: 500, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 2 });
  const results = [];
  for (const client of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) results.push(await outcome(limits.consume('px_a', client)));
  results.push(await outcome(limits.consume('px_b', '10.0.0.3')));
  assert.deepEqual(results, ['ok', 'ok', '429 Rate limit exceeded', 'ok']);
});

test('caps one client of a pixel id per minute, not the same client on another pixel id', async () => {
  const limits = createCollectLimits({ flushMs: 500, maxRows: 5000, perClientPerMinute: 2, perPixelPerSecond: 0 });
  const results = [];
  for (let i = 0; i < 3; i++) results.push(await outcome(limits.consume('px_a', '10.0.0.1')));
  results.push(await outcome(limits.consume('px_a', '10.0.0.2')), await outcome(limits.consume('px_b', '10.0.0.1')));
  assert.deepEqual(results, ['ok', 'ok', '429 Rate limit exceeded', 'ok', 'ok']);
});
