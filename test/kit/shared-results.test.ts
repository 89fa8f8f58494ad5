/**
 * Answers shared through Redis (the local one, under a prefix unique to this run, removed
 * afterwards). Each link stands for one process of a deployment; computations are counted, and
 * the ones that must stay running while another process waits are held open by the test.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { Redis } from 'ioredis';
import { connectRedis, type RedisLink } from '../../src/kit/redis-link.ts';
import { sharedResults, type SharedResultsOptions } from '../../src/kit/shared-results.ts';
import { createResultCache } from '../../src/kit/result-cache.ts';
import { freePort } from '../support/free-port.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const PREFIX = `storelens-test-${randomUUID()}:result`;
const MESSAGES = { down: 'answers unshared', up: 'answers shared again' };
const OPTIONS: SharedResultsOptions = { prefix: PREFIX, ttlMs: 60_000, lockMs: 10_000, pollMs: 5, maxChars: 10_000 };
const inspect = new Redis(REDIS_URL);
const links: RedisLink[] = [];

after(async () => {
  for (const link of links) link.close();
  const keys = await inspect.keys(`${PREFIX}*`);
  if (keys.length) await inspect.del(...keys);
  inspect.disconnect();
});

/** One process's shared answers, and how often it has looked for an answer another process computes. */
async function oneProcess(options: Partial<SharedResultsOptions> = {}, url = REDIS_URL, logger = pino({ level: 'silent' })) {
  const link = await connectRedis(url, logger, MESSAGES);
  links.push(link);
  let polls = 0;
  const client = new Proxy(link.client, {
    get(target, name) {
      const member = Reflect.get(target, name, target);
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        if (name === 'mget') polls++;
        return member.apply(target, args);
      };
    },
  });
  return Object.assign(sharedResults({ ...link, client }, { ...OPTIONS, ...options }), { polls: () => polls });
}

/** Waits for `condition` until the test's timeout aborts `signal`: a broken wait fails instead of hanging. */
async function until(signal: AbortSignal, condition: () => boolean): Promise<void> {
  while (!condition()) {
    signal.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** A computation the test finishes when it wants, counting how often it started. */
function held<T>() {
  let started = 0;
  let finish!: (outcome: { value: T } | { error: Error }) => void;
  const outcome = new Promise<{ value: T } | { error: Error }>((resolve) => (finish = resolve));
  const compute = async () => {
    started++;
    const done = await outcome;
    if ('error' in done) throw done.error;
    return done.value;
  };
  return { compute, finish, started: () => started };
}

const WAITS = { timeout: 60_000 };

test('ten requests over two processes, each with its own cache, run one computation; later ones run none', WAITS, async (t) => {
  const shared = [await oneProcess(), await oneProcess()];
  const [a, b] = shared.map((tier) => createResultCache(1_000_000, tier));
  const answer = { rows: [{ source: 'meta', revenue: 0.1 + 0.2, cr: null }], totals: { revenue: 1e21, sessions: 0 } };
  const source = held<typeof answer>();
  const asked = Array.from({ length: 10 }, (_, i) => (i % 2 ? a! : b!).get('ten', source.compute));
  // One process computes, the other waits for its answer in Redis.
  await until(t.signal, () => source.started() === 1 && shared.some((tier) => tier.polls() > 0));
  source.finish({ value: answer });
  const answers = await Promise.all(asked);
  assert.equal(source.started(), 1);
  for (const got of answers) assert.deepEqual(got, answer);
  const c = createResultCache(1_000_000, await oneProcess());
  assert.deepEqual(await c.get('ten', source.compute), answer, 'a third process reads it from Redis');
  assert.equal(source.started(), 1);
  const ttl = await inspect.pttl(`${PREFIX}:answer:ten`);
  assert.ok(ttl > 0 && ttl <= OPTIONS.ttlMs, String(ttl));
  assert.equal(await inspect.exists(`${PREFIX}:lock:ten`), 0, 'the lock is released once the answer is stored');
});

test('a failed computation releases its lock and stores nothing: the waiting process computes itself', WAITS, async (t) => {
  const [a, b] = [await oneProcess(), await oneProcess()];
  const failing = held<number>();
  const first = a.get('fails', failing.compute);
  await until(t.signal, () => failing.started() === 1);
  let computedByWaiter = 0;
  const waiting = b.get('fails', async () => ++computedByWaiter);
  await until(t.signal, () => b.polls() > 0);
  failing.finish({ error: new Error('engine down') });
  await assert.rejects(first, /engine down/);
  assert.equal(await waiting, 1);
  assert.equal(await inspect.exists(`${PREFIX}:answer:fails`), 0);
  assert.equal(await inspect.exists(`${PREFIX}:lock:fails`), 0);
  assert.equal(await a.get('fails', async () => 2), 2, 'the next request computes afresh');
  assert.equal(await b.get('fails', async () => 3), 2, 'and shares its answer');
  assert.equal(failing.started(), 1);
});

test('a lock whose holder is gone holds the others only until it expires', async () => {
  const waiter = await oneProcess();
  await inspect.set(`${PREFIX}:lock:orphan`, 'a process that died', 'PX', 200);
  assert.deepEqual(await waiter.get('orphan', async () => ({ n: 1 })), { n: 1 });
  assert.equal(await inspect.exists(`${PREFIX}:lock:orphan`), 0);
});

test('answers over the size cap, or that JSON would change, are computed by each process and never stored', async () => {
  const [a, b] = [await oneProcess({ maxChars: 100 }), await oneProcess({ maxChars: 100 })];
  const answers: Record<string, unknown> = {
    big: { pad: 'x'.repeat(200) },
    nan: { cr: Number.NaN },
    missing: { cr: undefined },
    negativeZero: { roas: -0 },
    date: { at: new Date(0) },
  };
  for (const [key, answer] of Object.entries(answers)) {
    let computed = 0;
    const compute = async () => (computed++, answer);
    assert.deepEqual(await a.get(key, compute), answer);
    assert.deepEqual(await b.get(key, compute), answer);
    assert.equal(computed, 2, key);
    assert.equal(await inspect.exists(`${PREFIX}:answer:${key}`), 0, key);
    assert.equal(await inspect.exists(`${PREFIX}:lock:${key}`), 0, key);
  }
});

test('with Redis unreachable every answer is computed, with one warning', async () => {
  const closed = await freePort();
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk)).msg); done(); } }));
  const down = await oneProcess({}, `redis://127.0.0.1:${closed}`, logger);
  let computed = 0;
  for (let i = 0; i < 3; i++) assert.deepEqual(await down.get('down', async () => ({ n: ++computed })), { n: i + 1 });
  assert.deepEqual(lines, [MESSAGES.down]);
});
