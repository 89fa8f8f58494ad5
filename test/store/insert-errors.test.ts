/**
 * Which failed inserts are refused rows (set aside by the collector) and which mean the store is
 * unavailable (retried), for both transports: chDB puts the code in the message, the server
 * client raises its own ClickHouseError with the code as a string; a dropped connection has no
 * ClickHouse code at all.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClickHouseError } from '@clickhouse/client';
import { refusedRows } from '../../src/store/insert-errors.ts';

const chdb = (code: number, name: string) => new Error(`Code: ${code}. DB::Exception: something about the data. (${name})`);
const server = (code: number, name: string) => new ClickHouseError({ message: `something about the data`, code: String(code), type: name });

describe('refusedRows', () => {
  test('takes data error codes from both transports as refused rows', () => {
    assert.deepEqual(refusedRows(chdb(72, 'CANNOT_PARSE_NUMBER')), { code: 72, message: 'Code: 72. DB::Exception: something about the data. (CANNOT_PARSE_NUMBER)' });
    assert.deepEqual(refusedRows(server(25, 'CANNOT_PARSE_ESCAPE_SEQUENCE')), { code: 25, message: 'something about the data' });
  });

  test('takes every other failure as the store being unavailable', () => {
    for (const error of [
      chdb(241, 'MEMORY_LIMIT_EXCEEDED'),
      chdb(252, 'TOO_MANY_PARTS'),
      server(242, 'TABLE_IS_READ_ONLY'),
      server(60, 'UNKNOWN_TABLE'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' }),
      new Error('socket hang up'),
      'not even an error',
    ]) {
      assert.equal(refusedRows(error), null, String(error));
    }
  });
});
