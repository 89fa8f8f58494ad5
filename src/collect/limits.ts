/**
 * Collector rate limits (docs/collection.md section 2): per (pixel id, client address) per
 * minute, and per pixel id per second. In memory, per process: the collector answers from the
 * process that holds the write-ahead log anyway.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import { HttpError } from '../http/errors.ts';

export interface CollectLimits {
  /** Throws a 429 HttpError when either limit is spent. */
  consume(pixelId: string, client: string): Promise<void>;
}

export function createCollectLimits(config: Config['collect']): CollectLimits {
  const perClient = config.perClientPerMinute > 0
    ? new RateLimiterMemory({ keyPrefix: 'collect-client', points: config.perClientPerMinute, duration: 60 })
    : null;
  const perPixel = config.perPixelPerSecond > 0
    ? new RateLimiterMemory({ keyPrefix: 'collect-pixel', points: config.perPixelPerSecond, duration: 1 })
    : null;
  return {
    async consume(pixelId, client) {
      try {
        if (perClient) await perClient.consume(`${pixelId}\t${client}`);
        if (perPixel) await perPixel.consume(pixelId);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        const retry = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        throw new HttpError(429, 'Rate limit exceeded', { 'retry-after': String(retry) });
      }
    },
  };
}
