import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import type { RedisLink } from './redis-link.ts';
import type { ResultCache } from './result-cache.ts';

export interface SharedResultsOptions {
  /** Every key starts with it and a colon (`storelens:result`). */
  prefix: string;
  /** How long an answer stays in Redis. */
  ttlMs: number;
  /** How long one process may hold the others waiting for the answer it computes. */
  lockMs: number;
  /** How often a waiting process looks for that answer. */
  pollMs: number;
  /** Answers whose JSON text is longer are computed by each process instead of shared. */
  maxChars: number;
}

/**
 * The kept answer (`{1, text}`), or else the lock taken (`{2}`) or held by another process (`{3}`),
 * in one step: no process can store and release between the look and the lock.
 */
const CLAIM_SCRIPT = `
local answer = redis.call('GET', KEYS[1])
if answer then return {1, answer} end
if redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2], 'NX') then return {2} end
return {3}`;

/** Stores an answer, then releases its lock if the caller still holds it. */
const SHARE_SCRIPT = `
if ARGV[1] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
if redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
return 1`;

/**
 * Answers shared by every process of a deployment through Redis, below each process's own cache.
 * An answer missing from Redis is computed by the one process that takes its lock (SET NX PX);
 * the others look for the answer until the lock is released or expires, then compute it
 * themselves. A failed computation releases the lock and stores nothing. Only answers that come
 * back from JSON exactly as they went in are shared. While Redis fails, every answer is computed
 * here, as without Redis.
 */
export function sharedResults(link: RedisLink, options: SharedResultsOptions): ResultCache {
  const { client } = link;

  /** The Redis reply, or undefined when Redis failed (the link notes it). */
  async function ask<R>(command: () => Promise<R>): Promise<R | undefined> {
    try {
      const reply = await command();
      link.answered();
      return reply;
    } catch (error) {
      link.failed(error);
      return undefined;
    }
  }

  /** JSON text that parses back to exactly `value` and fits the size cap, else ''. */
  function shareable(value: unknown): string {
    const text = JSON.stringify(value);
    if (text === undefined || text.length > options.maxChars) return '';
    return isDeepStrictEqual(JSON.parse(text), value) ? text : '';
  }

  async function computeAndShare<T>(answerKey: string, lockKey: string, token: string, compute: () => Promise<T>): Promise<T> {
    let value: T;
    try {
      value = await compute();
    } catch (error) {
      await ask(() => client.eval(SHARE_SCRIPT, 2, answerKey, lockKey, '', 0, token));
      throw error;
    }
    await ask(() => client.eval(SHARE_SCRIPT, 2, answerKey, lockKey, shareable(value), options.ttlMs, token));
    return value;
  }

  /** The answer another process is computing, or null once its lock is gone, Redis fails or the wait exceeds the lock's life. */
  async function awaitHolder(answerKey: string, lockKey: string): Promise<{ value: unknown } | null> {
    const deadline = Date.now() + options.lockMs;
    while (Date.now() < deadline) {
      await sleep(options.pollMs);
      const replies = await ask(() => client.mget(answerKey, lockKey));
      if (!replies) return null;
      const [answer, lock] = replies;
      if (answer != null) return { value: JSON.parse(answer) };
      if (lock == null) return null;
    }
    return null;
  }

  return {
    async get<T>(key: string, compute: () => Promise<T>): Promise<T> {
      if (!link.shouldTry()) return compute();
      const answerKey = `${options.prefix}:answer:${key}`;
      const lockKey = `${options.prefix}:lock:${key}`;
      const token = randomUUID();
      const claim = await ask(() => client.eval(CLAIM_SCRIPT, 2, answerKey, lockKey, token, options.lockMs) as Promise<[number, string?]>);
      if (claim === undefined) return compute();
      if (claim[0] === 1) return JSON.parse(claim[1]!) as T;
      if (claim[0] === 2) return computeAndShare(answerKey, lockKey, token, compute);
      const held = await awaitHolder(answerKey, lockKey);
      return held ? (held.value as T) : compute();
    },
  };
}
