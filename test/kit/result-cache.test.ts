/** The result cache on its own: what it keeps, for how many bytes, and what it never keeps. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createResultCache } from '../../src/kit/result-cache.ts';

/** An answer whose JSON text is `chars` characters long, and a counter of computations. */
function source(chars: number) {
  let computed = 0;
  return { compute: async () => ({ n: ++computed, pad: 'x'.repeat(chars - 20) }), computed: () => computed };
}

test('memory stays within the bound: past it the least recently used answer is computed again', async () => {
  // Each answer counts 2 * (key + JSON text) = 2 * (2 + 198..199) bytes, about 400: five fit in 2,100 bytes.
  const cache = createResultCache(2_100);
  const answers = source(200);
  for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) await cache.get(key, answers.compute);
  assert.equal(answers.computed(), 5);
  await cache.get('k1', answers.compute);
  assert.equal(answers.computed(), 5, 'k1 is kept, and now the most recently used');
  await cache.get('k6', answers.compute);
  await cache.get('k2', answers.compute);
  assert.equal(answers.computed(), 7, 'k6 pushed out k2, the least recently used');
  await cache.get('k1', answers.compute);
  assert.equal(answers.computed(), 7);
});

test('an answer larger than the whole cache is computed each time and still answered', async () => {
  const cache = createResultCache(1_000);
  const answers = source(2_000);
  assert.equal((await cache.get('big', answers.compute)).n, 1);
  assert.equal((await cache.get('big', answers.compute)).n, 2);
});

test('callers at the same moment share one computation; a failure is shared, then forgotten', async () => {
  const cache = createResultCache(1_000_000);
  let runs = 0;
  let fail = true;
  const compute = async () => {
    runs++;
    await new Promise((resolve) => setImmediate(resolve));
    if (fail) throw new Error('engine down');
    return { runs };
  };
  const failed = await Promise.allSettled(Array.from({ length: 5 }, () => cache.get('k', compute)));
  assert.deepEqual(failed.map((f) => f.status), Array(5).fill('rejected'));
  assert.equal(runs, 1);
  fail = false;
  const answers = await Promise.all(Array.from({ length: 5 }, () => cache.get('k', compute)));
  assert.equal(runs, 2);
  assert.deepEqual(answers, Array(5).fill({ runs: 2 }));
});

test('every caller gets its own copy: changing one changes no other', async () => {
  const cache = createResultCache(1_000_000);
  const first = await cache.get('k', async () => ({ rows: [{ a: 1 }] }));
  first.rows[0]!.a = 99;
  assert.deepEqual(await cache.get('k', async () => ({ rows: [{ a: 2 }] })), { rows: [{ a: 1 }] });
});

test('a cache of 0 bytes keeps nothing', async () => {
  const cache = createResultCache(0);
  const answers = source(100);
  await cache.get('k', answers.compute);
  await cache.get('k', answers.compute);
  assert.equal(answers.computed(), 2);
});
