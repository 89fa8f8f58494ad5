/**
 * The number and day readers shared by ad platform exports and API pulls (src/collect/ads/values.ts,
 * src/collect/ads/api/google.ts): pure functions, table-driven.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Invalid } from '../../src/collect/fields.ts';
import { amountToMinor, minorDigits, parseAdDay, parseCount } from '../../src/collect/ads/values.ts';
import { microsToMinor } from '../../src/collect/ads/api/google.ts';

const value = (out: unknown) => (out instanceof Invalid ? `invalid: ${out.message}` : out);

test('amounts in main units become minor units, half up, with the currency’s decimals', () => {
  const cases: [string, number, number | string][] = [
    ['1,234.56', 2, 123456],
    ['1234.56', 2, 123456],
    ['0.5', 2, 50],
    ['12', 2, 1200],
    ['0.004', 2, 0],
    ['0.005', 2, 1],
    ['1,000.995', 2, 100100],
    ['12,345', 0, 12345],
    ['12.5', 0, 13],
    ['1.2345', 3, 1235],
    ['1,23.4', 2, 'invalid: expected an amount like 1,234.56, got "1,23.4"'],
    ['-5.00', 2, 'invalid: expected an amount like 1,234.56, got "-5.00"'],
    ['$5.00', 2, 'invalid: expected an amount like 1,234.56, got "$5.00"'],
    ['5,00', 2, 'invalid: expected an amount like 1,234.56, got "5,00"'],
  ];
  for (const [text, digits, expected] of cases) assert.equal(value(amountToMinor(text, digits)), expected, `${text} (${digits})`);
  assert.deepEqual(['USD', 'EUR', 'JPY', 'KWD'].map(minorDigits), [2, 2, 0, 3]);
});

test('counts take thousands separators and nothing else', () => {
  assert.deepEqual(['12,345', '0', '1234567', '1,2', '12.0', '-1'].map((t) => value(parseCount(t))), [
    12345, 0, 1234567,
    'invalid: expected a whole number like 1,234, got "1,2"',
    'invalid: expected a whole number like 1,234, got "12.0"',
    'invalid: expected a whole number like 1,234, got "-1"',
  ]);
});

test('days in the platforms’ notations, from 2000-01-01 to tomorrow', () => {
  const now = Date.UTC(2026, 10, 23, 12);
  const cases: [string, string][] = [
    ['2026-11-01', '2026-11-01'],
    ['2026-11-01 00:00:00', '2026-11-01'],
    ['11/1/2026', '2026-11-01'],
    ['11/01/2026 12:00:00 AM', '2026-11-01'],
    ['Nov 1, 2026', '2026-11-01'],
    ['Sun, Nov 1, 2026', '2026-11-01'],
    ['2024-02-29', '2024-02-29'],
    ['2026-11-24', '2026-11-24'],
    ['2026-11-25', 'invalid: 2026-11-25 is outside 2000-01-01 to tomorrow'],
    ['1999-12-31', 'invalid: 1999-12-31 is outside 2000-01-01 to tomorrow'],
    ['2026-02-29', 'invalid: expected a day like 2026-11-01, got "2026-02-29"'],
    ['13/1/2026', 'invalid: expected a day like 2026-11-01, got "13/1/2026"'],
    ['Foo 1, 2026', 'invalid: expected a day like 2026-11-01, got "Foo 1, 2026"'],
  ];
  for (const [text, expected] of cases) assert.equal(value(parseAdDay(text, now)), expected, text);
});

test('Google cost micros become minor units exactly, half up', () => {
  assert.deepEqual([['2500000', 2], ['1234567', 2], ['1235000', 2], ['999', 2], ['5000', 2], ['1500000', 0], ['123456789012345678', 2]].map(([m, d]) => value(microsToMinor(m as string, d as number))), [
    250, 123, 124, 0, 1, 2, 12345678901235,
  ]);
  assert.equal(value(microsToMinor('1.5', 2)), 'invalid: expected cost micros as digits, got "1.5"');
});
