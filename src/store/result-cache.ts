import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { connectRedis } from '../kit/redis-link.ts';
import { createResultCache, type ResultCache } from '../kit/result-cache.ts';
import { sharedResults } from '../kit/shared-results.ts';

/** Answers stay shared this long; a raised data version stops them being read sooner. */
const SHARED_ANSWER_TTL_MS = 10 * 60_000;
/** Larger answers (report pages of thousands of rows) are computed by each process. */
const SHARED_ANSWER_MAX_CHARS = 1024 * 1024;

/**
 * The result cache of this process (`STORELENS_RESULT_CACHE_MB`, 0 turns it off) and, with
 * `REDIS_URL`, the answers shared by every process under `<STORELENS_REDIS_PREFIX>:result:`.
 */
export async function openResultCache(config: Config, logger: Logger): Promise<{ results: ResultCache; close(): void }> {
  const bytes = config.resultCacheMb * 1024 * 1024;
  if (bytes <= 0 || !config.redisUrl) return { results: createResultCache(bytes), close() {} };
  const redis = await connectRedis(config.redisUrl, logger, {
    down: 'Redis unreachable: each process computes its own report answers until it is back',
    up: 'Redis reachable again: report answers are shared through Redis',
  });
  const shared = sharedResults(redis, {
    prefix: `${config.rate.redisPrefix ?? 'storelens'}:result`,
    ttlMs: SHARED_ANSWER_TTL_MS,
    // Each query of the holder's computation runs under this limit; most answers come far sooner.
    lockMs: config.queries.timeoutMs,
    pollMs: 20,
    maxChars: SHARED_ANSWER_MAX_CHARS,
  });
  return { results: createResultCache(bytes, shared), close: () => redis.close() };
}
