import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { DAY_MS, formatDay, startOfUtcDay } from './dates.ts';
import { HttpError } from './errors.ts';

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
  close(): Promise<void>;
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

/** The same GCRA step, atomic in Redis. Returns {allowed (1/0), tat or retry ms}. */
const GCRA_SCRIPT = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local capacity = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local nxt = tat + interval
if nxt - now > capacity then return {0, nxt - capacity - now, tat} end
redis.call('SET', KEYS[1], nxt, 'PX', math.ceil(nxt - now) + 1000)
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

export async function createRateLimits(config: Config['rate'], redisUrl: string | null): Promise<RateLimits> {
  const { perSecond, daily } = config;
  const prefix = config.redisPrefix ?? 'storelens';
  // Never less than one second's worth of requests, so a burst of 0 means "no extra burst".
  const capacity = Math.max(config.burst, perSecond);
  const intervalMs = perSecond > 0 ? 1000 / perSecond : 0;
  const capacityMs = capacity * intervalMs;

  let client: Redis | null = null;
  if (redisUrl && (perSecond > 0 || daily > 0)) {
    const { Redis } = await import('ioredis');
    client = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    await client.connect();
  }
  const bucket = perSecond > 0
    ? client ? redisBucket(client, prefix, intervalMs, capacityMs) : memoryBucket(intervalMs, capacityMs)
    : null;
  const quotaOptions = { keyPrefix: 'daily', points: daily, duration: 2 * 86_400 };
  const quota = daily <= 0
    ? null
    : client
      ? new RateLimiterRedis({ ...quotaOptions, storeClient: client, keyPrefix: `${prefix}:daily` })
      : new RateLimiterMemory(quotaOptions);

  const policy = [
    bucket ? `"burst";q=${capacity};w=1` : null,
    quota ? `"daily";q=${daily};w=86400` : null,
  ].filter(Boolean).join(', ');

  return {
    async consume(key) {
      const now = Date.now();
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
    },
    async close() {
      client?.disconnect();
    },
  };
}
