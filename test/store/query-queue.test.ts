/**
 * The engine queue's order (docs/operations.md): urgent work first, then the lane served least
 * recently, so a key with many queries waiting does not delay another key's single query.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FairQueue, runInLane } from '../../src/store/query-queue.ts';

/** Tasks that finish only when the test says so, recording the order in which they start. */
function recorder() {
  const started: string[] = [];
  const finishers: (() => void)[] = [];
  const task = (name: string) => () => new Promise<string>((resolve) => {
    started.push(name);
    finishers.push(() => resolve(name));
  });
  const finishAll = async () => {
    while (finishers.length) {
      finishers.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { started, task, finishAll };
}

test('serves the waiting lane served least recently: a newcomer goes right after the running task', async () => {
  const queue = new FairQueue(1);
  const { started, task, finishAll } = recorder();
  const done = [
    ...['a1', 'a2', 'a3', 'a4'].map((name) => runInLane('key:a', () => queue.run(task(name)))),
    runInLane('key:b', () => queue.run(task('b1'))),
    runInLane('key:c', () => queue.run(task('c1'))),
    runInLane('key:b', () => queue.run(task('b2'))),
  ];
  await finishAll();
  assert.deepEqual(await Promise.all(done), ['a1', 'a2', 'a3', 'a4', 'b1', 'c1', 'b2']);
  assert.deepEqual(started, ['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
});

test('runs urgent tasks before any waiting lane, and work outside a lane in a lane of its own', async () => {
  const queue = new FairQueue(1);
  const { started, task, finishAll } = recorder();
  const done = [
    runInLane('key:a', () => queue.run(task('a1'))),
    runInLane('key:a', () => queue.run(task('a2'))),
    queue.run(task('plain')),
    queue.run(task('dedupe'), true),
  ];
  await finishAll();
  await Promise.all(done);
  assert.deepEqual(started, ['a1', 'dedupe', 'plain', 'a2']);
});

test('passes a task\'s failure to its caller and goes on with the next', async () => {
  const queue = new FairQueue(1);
  const failed = queue.run(() => Promise.reject(new Error('boom')));
  const next = queue.run(async () => 'next');
  await assert.rejects(failed, /boom/);
  assert.equal(await next, 'next');
});
