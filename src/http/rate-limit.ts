import {
  BurstyRateLimiter,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
  type RateLimiterStoreAbstract,
} from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import { DAY_MS, formatDay, startOfUtcDay } from './dates.ts';
import { HttpError } from './errors.ts';

type Limiter = RateLimiterAbstract | RateLimiterStoreAbstract;

export interface RateLimitOutcome {
  headers: Record<string, string>;
}

/**
 * Per-key limits of decisions.md section 5: a token bucket (burst, refilled at a steady rate)
 * and a daily quota that resets at UTC midnight. A request refused by the bucket is not
 * counted against the daily quota.
 */
export interface RateLimits {
  /** Resolves with headers to add, or throws a 429 HttpError. */
  consume(key: string): Promise<RateLimitOutcome>;
  close(): Promise<void>;
}

interface Stores {
  make(options: { keyPrefix: string; points: number; duration: number }): Limiter;
  close(): Promise<void>;
}

async function limiterStores(redisUrl: string | null, prefix: string): Promise<Stores> {
  if (!redisUrl) {
    return { make: (o) => new RateLimiterMemory(o), close: async () => {} };
  }
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  await client.connect();
  return {
    make: (o) => new RateLimiterRedis({ ...o, storeClient: client, keyPrefix: `${prefix}:${o.keyPrefix}` }),
    close: async () => {
      client.disconnect();
    },
  };
}

function secondsUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function tooMany(retryAfterSeconds: number, headers: Record<string, string>): HttpError {
  return new HttpError(429, 'Rate limit exceeded', { ...headers, 'retry-after': String(retryAfterSeconds) });
}

export async function createRateLimits(config: Config['rate'], redisUrl: string | null): Promise<RateLimits> {
  const stores = await limiterStores(redisUrl, config.redisPrefix ?? 'storelens');
  const { perSecond, burst, daily } = config;

  // The bucket: `perSecond` points per second, plus the headroom up to `burst` that refills
  // over the time the steady rate needs to fill it.
  let bucket: BurstyRateLimiter | Limiter | null = null;
  if (perSecond > 0) {
    const steady = stores.make({ keyPrefix: 'rate', points: perSecond, duration: 1 });
    const headroom = Math.max(0, burst - perSecond);
    bucket = headroom > 0
      ? new BurstyRateLimiter(steady, stores.make({
          keyPrefix: 'burst',
          points: headroom,
          duration: Math.max(1, Math.ceil(headroom / perSecond)),
        }))
      : steady;
  }
  const quota = daily > 0 ? stores.make({ keyPrefix: 'daily', points: daily, duration: 2 * 86_400 }) : null;

  const policy = [
    perSecond > 0 ? `"burst";q=${Math.max(burst, perSecond)};w=1` : null,
    daily > 0 ? `"daily";q=${daily};w=86400` : null,
  ].filter(Boolean).join(', ');

  return {
    async consume(key) {
      const now = Date.now();
      const items: string[] = [];
      const base: Record<string, string> = policy ? { 'ratelimit-policy': policy } : {};
      if (bucket) {
        try {
          const res = await bucket.consume(key);
          items.push(`"burst";r=${Math.max(0, res.remainingPoints)};t=${secondsUntil(res.msBeforeNext)}`);
        } catch (error) {
          if (!(error instanceof RateLimiterRes)) throw error;
          const retry = secondsUntil(error.msBeforeNext);
          throw tooMany(retry, { ...base, ratelimit: `"burst";r=0;t=${retry}` });
        }
      }
      if (quota) {
        const untilMidnight = secondsUntil(startOfUtcDay(now) + DAY_MS - now);
        const dayKey = `${key}:${formatDay(now)}`;
        try {
          const res = await quota.consume(dayKey);
          items.push(`"daily";r=${Math.max(0, res.remainingPoints)};t=${untilMidnight}`);
        } catch (error) {
          if (!(error instanceof RateLimiterRes)) throw error;
          throw tooMany(untilMidnight, { ...base, ratelimit: `"daily";r=0;t=${untilMidnight}` });
        }
      }
      return { headers: items.length ? { ...base, ratelimit: items.join(', ') } : {} };
    },
    close: () => stores.close(),
  };
}
