/** The comparison period and the buckets it pairs (src/analytics/report/compare.ts). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketDates, comparisonRange, relativeChange } from '../../src/analytics/report/compare.ts';
import { resolveRange } from '../../src/kit/calendar/range.ts';
import type { DomainError } from '../../src/kit/errors.ts';

const range = (start_date: string, end_date: string, timezone?: string) => resolveRange({ start_date, end_date, timezone });

describe('comparisonRange', () => {
  test('previous_period is as many calendar days right before', () => {
    assert.deepEqual(comparisonRange(range('2026-03-01', '2026-03-31'), 'previous_period'), range('2026-01-29', '2026-02-28'));
    assert.deepEqual(comparisonRange(range('2026-11-16', '2026-11-16'), 'previous_period'), range('2026-11-15', '2026-11-15'));
  });

  test('in a zone it counts local days, whatever their length (New York leaves summer time on 1 November 2026)', () => {
    const week = range('2026-11-02', '2026-11-08', 'America/New_York');
    assert.deepEqual(comparisonRange(week, 'previous_period'), range('2026-10-26', '2026-11-01', 'America/New_York'));
  });

  test('previous_year is the same days a year before; 29 February becomes the 28th', () => {
    assert.deepEqual(comparisonRange(range('2028-02-01', '2028-02-29'), 'previous_year'), range('2027-02-01', '2027-02-28'));
    assert.deepEqual(comparisonRange(range('2026-12-25', '2027-01-03', 'Europe/Berlin'), 'previous_year'), range('2025-12-25', '2026-01-03', 'Europe/Berlin'));
  });

  test('a range given as timestamps shifts by its own length, both ends included, or by a year', () => {
    const hours = range('2026-05-10 08:00:00', '2026-05-10 11:59:59');
    assert.deepEqual(comparisonRange(hours, 'previous_period'), range('2026-05-10 04:00:00.999', '2026-05-10 07:59:59.999'));
    assert.deepEqual(comparisonRange(hours, 'previous_year'), range('2025-05-10 08:00:00.000', '2025-05-10 11:59:59.000'));
  });

  test('a period before 1970 is refused as its start_date would be: the stores hold no earlier day', () => {
    assert.throws(() => comparisonRange(range('1970-03-01', '1970-03-31'), 'previous_year'),
      (e: DomainError) => e.message === 'Invalid start_date or end_date parameter' && e.detail === 'start_date must be in the years 1970 to 2299 (got 1969-03-01)');
    assert.deepEqual(comparisonRange(range('1970-01-08', '1970-01-14'), 'previous_period'), range('1970-01-01', '1970-01-07'));
  });
});

describe('bucketDates', () => {
  test('lists the first day of every day, week (from Monday) and month bucket the range touches', () => {
    const r = range('2026-10-29', '2026-11-03');
    assert.deepEqual(bucketDates(r, 'day'), ['2026-10-29', '2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02', '2026-11-03']);
    assert.deepEqual(bucketDates(r, 'week'), ['2026-10-26', '2026-11-02']);
    assert.deepEqual(bucketDates(r, 'month'), ['2026-10-01', '2026-11-01']);
  });
});

describe('relativeChange', () => {
  test('is a fraction of the previous value, null without a previous value or from 0', () => {
    assert.deepEqual([relativeChange(150, 100), relativeChange(50, 100), relativeChange(-50, -100), relativeChange(10, -20)], [0.5, -0.5, 0.5, 1.5]);
    assert.deepEqual([relativeChange(5, 0), relativeChange(5, null), relativeChange(null, 5), relativeChange(1, 3)], [null, null, null, -0.6667]);
  });
});
