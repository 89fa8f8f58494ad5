import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import type { Config } from '../config.ts';
import type { CheckResult } from '../kit/health-check.ts';
import { DAY_MS, formatDay, startOfUtcDay } from '../kit/calendar/days.ts';
import { HttpError } from './errors.ts';
import { connectRedis } from '../kit/redis-link.ts';

export interface RateLimitOutcome {
  headers: Record<string, string>;
}

/**
 * Per-key limits (docs/api.md, "Rate limits"): a token bucket (`burst` tokens, refilled at
 * `perSecond`) and a daily quota that resets at UTC midnight. A request refused by the bucket is
 * not counted against the daily quota.
 */
export interface RateLimits {
  /** Resolves with headers to add, or throws a 429 HttpError. */
  consume(key: string): Promise<RateLimitOutcome>;
  /**
   * Counters of failed attempts under `name` (dashboard sign-in): `points` failures per key within
   * `durationSeconds`, kept where the key limits are kept.
   */
  attempts(name: string, points: number, durationSeconds: number): AttemptCounter;
  /** Where the counters live right now: null without Redis, else Redis or the memory fallback. */
  health(): CheckResult | null;
  close(): Promise<void>;
}

export interface AttemptCounter {
  /** Milliseconds until `key` may try again; null when it may try now. */
  blockedFor(key: string): Promise<number | null>;
  failed(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

/**
 * The token bucket as GCRA: per key only the "theoretical arrival time" (tat) is kept. Each request
 * moves tat one emission interval later; a request that would put tat more than a full bucket
 * ahead of now is refused and changes nothing.
 */
interface Bucket {
  /** Milliseconds until the refused request would fit; null when allowed. */
  take(key: string, now: number): Promise<{ retryMs: number | null; tat: number }>;
}

function memoryBucket(intervalMs: number, capacityMs: number): Bucket {
  const tats = new Map<string, number>();
  return {
    async take(key, now) {
      if (tats.size > 10_000) for (const [k, t] of tats) if (t <= now) tats.delete(k);
      const tat = Math.max(tats.get(key) ?? now, now);
      const next = tat + intervalMs;
      if (next - now > capacityMs) return { retryMs: next - capacityMs - now, tat };
      tats.set(key, next);
      return { retryMs: null, tat: next };
    },
  };
}

/**
 * The same GCRA step, atomic in Redis. Returns {allowed (1/0), tat or retry ms}. A tat is kept a
 * minute past the moment it stops mattering, so processes whose clocks differ a little (and a
 * request that takes long between reading the clock and reaching Redis) still find it.
 */
const GCRA_SCRIPT = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local capacity = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local nxt = tat + interval
if nxt - now > capacity then return {0, nxt - capacity - now, tat} end
redis.call('SET', KEYS[1], nxt, 'PX', math.ceil(nxt - now) + 60000)
return {1, 0, nxt}`;

function redisBucket(client: Redis, prefix: string, intervalMs: number, capacityMs: number): Bucket {
  return {
    async take(key, now) {
      const [allowed, retry, tat] = (await client.eval(GCRA_SCRIPT, 1, `${prefix}:bucket:${key}`, now, intervalMs, capacityMs)) as number[];
      return { retryMs: allowed === 1 ? null : Number(retry), tat: Number(tat) };
    },
  };
}

function secondsUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function tooMany(retryAfterSeconds: number, headers: Record<string, string>): HttpError {
  return new HttpError(429, 'Rate limit exceeded', { ...headers, 'retry-after': String(retryAfterSeconds) });
}

/** One set of counters: the token bucket and the daily quota, either may be off. */
interface Counters {
  bucket: Bucket | null;
  quota: RateLimiterMemory | RateLimiterRedis | null;
}

function memoryCounters(perSecond: number, daily: number, intervalMs: number, capacityMs: number): Counters {
  return {
    bucket: perSecond > 0 ? memoryBucket(intervalMs, capacityMs) : null,
    quota: daily > 0 ? new RateLimiterMemory({ keyPrefix: 'daily', points: daily, duration: 2 * 86_400 }) : null,
  };
}

function redisCounters(client: Redis, prefix: string, perSecond: number, daily: number, intervalMs: number, capacityMs: number): Counters {
  return {
    bucket: perSecond > 0 ? redisBucket(client, prefix, intervalMs, capacityMs) : null,
    quota: daily > 0
      ? new RateLimiterRedis({ storeClient: client, keyPrefix: `${prefix}:daily`, points: daily, duration: 2 * 86_400 })
      : null,
  };
}

type Limiter = RateLimiterMemory | RateLimiterRedis;

async function blockedFor(limiter: Limiter, key: string): Promise<number | null> {
  const res = await limiter.get(key);
  return res && res.consumedPoints >= limiter.points ? res.msBeforeNext : null;
}

/**
 * With `redisUrl` the counters live in Redis, shared by every process; while Redis cannot be
 * reached each process counts in its own memory instead of failing requests.
 */
export async function createRateLimits(
  config: Config['rate'],
  redisUrl: string | null,
  logger?: Logger,
  clock: () => number = Date.now,
): Promise<RateLimits> {
  const { perSecond, daily } = config;
  const prefix = config.redisPrefix ?? 'storelens';
  // Never less than one second's worth of requests, so a burst of 0 means "no extra burst".
  const capacity = Math.max(config.burst, perSecond);
  const intervalMs = perSecond > 0 ? 1000 / perSecond : 0;
  const capacityMs = capacity * intervalMs;

  const memory = memoryCounters(perSecond, daily, intervalMs, capacityMs);
  const redis = redisUrl
    ? await connectRedis(redisUrl, logger ?? pino({ level: 'silent' }), {
      down: 'Redis unreachable: rate limits use process memory until it is back',
      up: 'Redis reachable again: rate limits use Redis',
    })
    : null;
  const shared = redis ? redisCounters(redis.client, prefix, perSecond, daily, intervalMs, capacityMs) : null;

  const policy = [
    perSecond > 0 ? `"burst";q=${capacity};w=1` : null,
    daily > 0 ? `"daily";q=${daily};w=86400` : null,
  ].filter(Boolean).join(', ');

  async function consumeWith({ bucket, quota }: Counters, key: string): Promise<RateLimitOutcome> {
    const now = clock();
    const items: string[] = [];
    const base: Record<string, string> = policy ? { 'ratelimit-policy': policy } : {};
    if (bucket) {
      const { retryMs, tat } = await bucket.take(key, now);
      if (retryMs !== null) {
        const retry = secondsUntil(retryMs);
        throw tooMany(retry, { ...base, ratelimit: `"burst";r=0;t=${retry}` });
      }
      const remaining = Math.floor((capacityMs - (tat - now)) / intervalMs);
      items.push(`"burst";r=${Math.max(0, remaining)};t=${Math.ceil((tat - now) / 1000)}`);
    }
    if (quota) {
      const untilMidnight = secondsUntil(startOfUtcDay(now) + DAY_MS - now);
      try {
        const res = await quota.consume(`${key}:${formatDay(now)}`);
        items.push(`"daily";r=${Math.max(0, res.remainingPoints)};t=${untilMidnight}`);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        throw tooMany(untilMidnight, { ...base, ratelimit: `"daily";r=0;t=${untilMidnight}` });
      }
    }
    return { headers: items.length ? { ...base, ratelimit: items.join(', ') } : {} };
  }

  /**
   * Runs `op` on the Redis side when Redis is in use, else (or when Redis fails) on the memory
   * side. A refusal (HttpError) is Redis answering, not failing.
   */
  async function withFallback<S, T>(memorySide: S, redisSide: S | null, op: (side: S) => Promise<T>): Promise<T> {
    if (!redis || !redisSide || !redis.shouldTry()) return op(memorySide);
    try {
      const result = await op(redisSide);
      redis.answered();
      return result;
    } catch (error) {
      if (error instanceof HttpError) {
        redis.answered();
        throw error;
      }
      redis.failed(error);
      return op(memorySide);
    }
  }

  return {
    attempts(name, points, durationSeconds) {
      const memoryLimiter = new RateLimiterMemory({ keyPrefix: name, points, duration: durationSeconds });
      const redisLimiter = redis
        ? new RateLimiterRedis({ storeClient: redis.client, keyPrefix: `${prefix}:${name}`, points, duration: durationSeconds })
        : null;
      const run = <T>(op: (limiter: Limiter) => Promise<T>) => withFallback<Limiter, T>(memoryLimiter, redisLimiter, op);
      return {
        blockedFor: (key) => run((limiter) => blockedFor(limiter, key)),
        failed: (key) => run(async (limiter) => void (await limiter.penalty(key))),
        reset: (key) => run(async (limiter) => void (await limiter.delete(key))),
      };
    },
    consume: (key) => withFallback(memory, shared, (counters) => consumeWith(counters, key)),
    health() {
      if (!redis) return null;
      return redis.up() ? { state: 'ok' } : { state: 'degraded', detail: 'unreachable: rate limits use process memory' };
    },
    async close() {
      redis?.close();
    },
  };
}
