import { runInLane } from '../store/query-queue.ts';
import { HttpError } from './errors.ts';

/**
 * How many data requests and tool calls one key may have running at once in this process
 * (`STORELENS_MAX_QUERIES_PER_KEY`, docs/operations.md). The analytics queries of an admitted call
 * run in the key's lane of the engine queue, so calls past the engine's parallelism wait there;
 * one over the bound is refused at once with 429.
 */
export interface InFlightLimits {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export const tooManyConcurrent = () =>
  new HttpError(429, 'Too many concurrent requests', { 'retry-after': '1' });

/**
 * The bound in force: never below the burst the rate limit lets a key send at once (its bucket's
 * capacity, as the rate limiter computes it), so a burst it admits is never refused for being in
 * flight. 0 keeps the bound off.
 */
export function inFlightBound(maxPerKey: number, rate: { perSecond: number; burst: number }): number {
  if (maxPerKey <= 0) return 0;
  const burst = rate.perSecond > 0 ? Math.max(rate.burst, rate.perSecond) : 0;
  return Math.max(maxPerKey, burst);
}

export function createInFlightLimits(maxPerKey: number): InFlightLimits {
  const running = new Map<string, number>();
  return {
    async run(key, work) {
      const now = running.get(key) ?? 0;
      if (maxPerKey > 0 && now >= maxPerKey) throw tooManyConcurrent();
      running.set(key, now + 1);
      try {
        return await runInLane(key, work);
      } finally {
        const left = (running.get(key) ?? 1) - 1;
        if (left === 0) running.delete(key);
        else running.set(key, left);
      }
    },
  };
}
