import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSessionPool } from '../../src/store/session-pool.ts';

class FakeSession {
  closed = false;
  constructor(readonly id: number) {}
  close() {
    this.closed = true;
  }
}

function fakePool(size: number) {
  const made: FakeSession[] = [];
  const pool = createSessionPool(size, async () => {
    const session = new FakeSession(made.length + 1);
    made.push(session);
    return session;
  });
  return { pool, made };
}

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
};

describe('session pool', () => {
  test('opens sessions on demand up to its size, then jobs wait for a free one', async () => {
    const { pool, made } = fakePool(2);
    const g = gate();
    const running: number[] = [];
    const jobs = [1, 2, 3, 4].map((n) => pool.use(async (s) => {
      running.push(n);
      await g.opened;
      return s.id;
    }));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(running, [1, 2]);
    assert.equal(pool.open, 2);
    g.open();
    assert.deepEqual((await Promise.all(jobs)).sort(), [1, 1, 2, 2]);
    assert.equal(made.length, 2);
  });

  test('a session whose job failed is closed and replaced, never lent again', async () => {
    const { pool, made } = fakePool(1);
    await assert.rejects(pool.use(async () => { throw new Error('cut off mid-query'); }), /cut off/);
    assert.equal(made[0].closed, true);
    assert.equal(await pool.use(async (s) => s.id), 2);
    assert.equal(pool.open, 1);
  });

  test('a job waiting behind a failed one gets a fresh session', async () => {
    const { pool, made } = fakePool(1);
    const g = gate();
    const failing = pool.use(async () => {
      await g.opened;
      throw new Error('boom');
    });
    const waiting = pool.use(async (s) => s.id);
    g.open();
    await assert.rejects(failing);
    assert.equal(await waiting, 2);
    assert.deepEqual(made.map((s) => s.closed), [true, false]);
  });

  test('a session that cannot be opened fails that job only', async () => {
    let fail = true;
    const pool = createSessionPool(1, async () => {
      if (fail) throw new Error('no data dir');
      return new FakeSession(1);
    });
    await assert.rejects(pool.use(async () => 0), /no data dir/);
    assert.equal(pool.open, 0);
    fail = false;
    assert.equal(await pool.use(async (s) => s.id), 1);
  });

  test('close closes idle sessions, refuses waiting and new jobs, and closes busy ones when they return', async () => {
    const { pool, made } = fakePool(1);
    await pool.use(async () => 0);
    const g = gate();
    const busy = pool.use(async () => g.opened);
    const waiting = pool.use(async () => 0);
    await pool.close();
    await assert.rejects(waiting, /closed/);
    await assert.rejects(pool.use(async () => 0), /closed/);
    assert.equal(made[0].closed, false);
    g.open();
    await busy;
    assert.equal(made[0].closed, true);
  });

  test('refuses a size that is not a positive integer', () => {
    for (const size of [0, -1, 1.5, Number.NaN]) assert.throws(() => createSessionPool(size, async () => new FakeSession(0)), RangeError);
  });
});
