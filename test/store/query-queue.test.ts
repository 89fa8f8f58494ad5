/**
 * The engine queue's order (docs/operations.md): urgent work first, then the lane served least
 * recently, so a key with many queries waiting does not delay another key's single query; and
 * each lane's engine threads, so a key's many reports never hold more than the cores.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FairQueue, runInLane } from '../../src/store/query-queue.ts';
import { openClickhouse } from '../../src/store/clickhouse.ts';
import { createLogger } from '../../src/log.ts';

/** Tasks that finish only when the test says so, recording the order in which they start. */
function recorder() {
  const started: string[] = [];
  const finishers: (() => void)[] = [];
  const threads = new Map<string, number>();
  const task = (name: string) => (given: number) => new Promise<string>((resolve) => {
    started.push(name);
    threads.set(name, given);
    finishers.push(() => resolve(name));
  });
  const finishNext = async () => {
    finishers.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  const finishAll = async () => {
    while (finishers.length) await finishNext();
  };
  return { started, threads, task, finishNext, finishAll };
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

test('a lane holds at most its threads: eight reports of one key run one thread each, two at a time on two, and another key starts at once on threads of its own', async () => {
  const queue = new FairQueue(4, 2);
  const { started, threads, task, finishNext, finishAll } = recorder();
  const heavy = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'];
  const done = heavy.map((name) => runInLane('key:a', () => queue.run(task(name))));
  assert.deepEqual(started, ['a1'], 'alone, the first takes both threads; the others wait although slots are free');
  assert.equal(threads.get('a1'), 2);
  const light = runInLane('key:b', () => queue.run(task('b1')));
  assert.deepEqual(started, ['a1', 'b1'], 'another key does not wait for the first key\'s reports');
  assert.equal(threads.get('b1'), 2);
  await finishNext();
  assert.deepEqual(started, ['a1', 'b1', 'a2', 'a3'], 'with seven waiting, each takes one of the lane\'s two threads');
  assert.deepEqual([threads.get('a2'), threads.get('a3')], [1, 1]);
  await finishAll();
  assert.deepEqual(await Promise.all([...done, light]), [...heavy, 'b1']);
  assert.deepEqual(started.slice(4), ['a4', 'a5', 'a6', 'a7', 'a8']);
  assert.ok(heavy.slice(1).every((name) => threads.get(name) === 1), JSON.stringify([...threads]));
});

test('urgent tasks run outside the lanes\' thread budgets', async () => {
  const queue = new FairQueue(4, 2);
  const { started, threads, task, finishAll } = recorder();
  const done = [runInLane('key:a', () => queue.run(task('a1'))), runInLane('key:a', () => queue.run(task('a2'))), queue.run(task('dedupe'), true)];
  assert.deepEqual(started, ['a1', 'dedupe']);
  assert.equal(threads.get('dedupe'), 2);
  await finishAll();
  await Promise.all(done);
});

test('an export runs in its lane\'s turn but outside its thread budget: it neither waits for the lane\'s threads nor holds them', async () => {
  const queue = new FairQueue(4, 2);
  const { started, threads, task, finishAll } = recorder();
  const done = [
    runInLane('key:a', () => queue.run(task('report'))),
    runInLane('key:a', () => queue.run(task('export'), false, false)),
    runInLane('key:a', () => queue.run(task('page'))),
  ];
  assert.deepEqual(started, ['report', 'export'], 'the report holds both threads; the export starts anyway, the page waits');
  assert.deepEqual([threads.get('report'), threads.get('export')], [2, 2]);
  await finishAll();
  await Promise.all(done);
  assert.deepEqual(started, ['report', 'export', 'page']);
});

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-queue-'));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('on embedded chDB the engine runs each read with the threads the queue handed it', async () => {
  const ch = await openClickhouse({ url: null, dataDir, chdbSessions: 4 }, createLogger('silent'));
  try {
    const [alone] = await ch.query<{ threads: string }>('threads', "SELECT toString(getSetting('max_threads')) AS threads");
    assert.equal(Number(alone!.threads), os.availableParallelism());
  } finally {
    await ch.close();
  }
});
