/**
 * Query parameters on the embedded engine's session pool (src/store/chdb-params.ts): every
 * parameter type the queries use round-trips exactly, values never leak from one query to the
 * next on a reused session, and parallel callers never see each other's values.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { openClickhouse, type Clickhouse } from '../../src/store/clickhouse.ts';

let ch: Clickhouse;
let dir: string;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-params-'));
  ch = await openClickhouse({ url: null, dataDir: dir, chdbSessions: 3 }, pino({ level: 'silent' }));
});

after(async () => {
  await ch.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const one = async <T>(sql: string, params: Record<string, any>): Promise<T> => (await ch.query<{ v: T }>('test', sql, params))[0].v;

/** Well-formed text of any code points, control characters, quotes and backslashes included. */
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('\\', "'", '"', '\t', '\n', '\r', '\0', '\b', '\f', '{', '}', ':', ',', '[', ']', 'a', 'é', '😀') }),
);
const UINT64_MAX = 2n ** 64n - 1n;

describe('every parameter type round-trips exactly', () => {
  test('String', async () => {
    await fc.assert(fc.asyncProperty(text, async (value) => {
      assert.equal(await one('SELECT {v:String} AS v', { v: value }), value);
    }), { numRuns: 300 });
  });

  test('Array(String)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(text, { maxLength: 6 }), async (value) => {
      assert.deepEqual(await one('SELECT {v:Array(String)} AS v', { v: value }), value);
    }), { numRuns: 200 });
  });

  test('UInt64 and Int64 ids as bigint, across the whole range', async () => {
    await fc.assert(fc.asyncProperty(fc.bigInt({ min: 0n, max: UINT64_MAX }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), async (u, i) => {
      assert.equal(await one('SELECT toString({v:UInt64}) AS v', { v: u }), u.toString());
      assert.equal(await one('SELECT toString({v:Int64}) AS v', { v: i }), i.toString());
    }), { numRuns: 200 });
    assert.deepEqual(await one('SELECT arrayMap(x -> toString(x), {v:Array(UInt64)}) AS v', { v: [0n, UINT64_MAX, 17n] }), ['0', UINT64_MAX.toString(), '17']);
  });

  test('numbers: UInt8 flags, UInt32 and Float64', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x) || Number.isSafeInteger(x)), async (flag, n, x) => {
      assert.deepEqual(await ch.query('test', 'SELECT {a:UInt8} AS a, {b:UInt32} AS b, {c:Float64} AS c', { a: flag, b: n, c: x }), [{ a: flag, b: n, c: x }]);
    }), { numRuns: 200 });
    // An integer beyond 2^53 has lost digits already; ids travel as bigint.
    await assert.rejects(ch.query('test', 'SELECT {v:Int64} AS v', { v: 2 ** 60 }), /pass a bigint/);
  });

  test("DateTime64(3, 'UTC') timestamps and Date days", async () => {
    const min = Date.UTC(1970, 0, 1);
    const max = Date.UTC(2299, 11, 31, 23, 59, 59, 999);
    await fc.assert(fc.asyncProperty(fc.integer({ min, max }), async (ms) => {
      const stamp = new Date(ms).toISOString().slice(0, 23).replace('T', ' ');
      assert.equal(await one("SELECT toString({v:DateTime64(3, 'UTC')}) AS v", { v: stamp }), stamp);
      assert.equal(await one('SELECT toString({v:Date32}) AS v', { v: stamp.slice(0, 10) }), stamp.slice(0, 10));
    }), { numRuns: 200 });
  });

  test('a value never becomes SQL: injection attempts are just text', async () => {
    for (const value of ["' OR 1=1 --", "\\' , param_v = 'x", "'); DROP TABLE t; --", '{v:String}', '\\\\\'']) {
      assert.equal(await one('SELECT {v:String} AS v', { v: value }), value);
    }
  });
});

describe('sessions never share values', () => {
  test('a placeholder without a value is refused, even right after a query that set it', async () => {
    for (let i = 0; i < 6; i++) assert.equal(await one('SELECT {stale:String} AS v', { stale: 'secret of another tenant' }), 'secret of another tenant');
    await assert.rejects(ch.query('test', 'SELECT {stale:String} AS v', {}), /query parameter stale has no value/);
    assert.equal(await one('SELECT 1 AS v', {}), 1);
  });

  test('parallel callers each get their own values back', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(fc.bigInt({ min: 0n, max: UINT64_MAX }), text), { minLength: 8, maxLength: 40 }), async (jobs) => {
      const results = await Promise.all(jobs.map(([id, name]) =>
        ch.query<{ id: string; name: string }>('test', 'SELECT toString({id:UInt64}) AS id, {name:String} AS name FROM numbers(1 + {id:UInt64} % 50) LIMIT 1', { id, name })));
      results.forEach(([row], i) => assert.deepEqual(row, { id: jobs[i][0].toString(), name: jobs[i][1] }));
    }), { numRuns: 30 });
  });

  test('a failed query leaves the pool serving', async () => {
    await assert.rejects(ch.query('test', 'SELECT {v:UInt8} AS v', { v: 'not a number' }));
    await assert.rejects(ch.query('test', 'SELEKT nonsense', {}));
    const rows = await Promise.all(Array.from({ length: 10 }, (_, i) => one('SELECT {v:UInt32} AS v', { v: i })));
    assert.deepEqual(rows, Array.from({ length: 10 }, (_, i) => i));
  });
});
