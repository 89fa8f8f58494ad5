/**
 * The overview's comparison period on the store's calendar (previousPeriod), where clocks change:
 * a range that holds today is compared up to the same time on the clock, not the same number of
 * hours since midnight, so a 25- or 23-hour day in either period does not move the cut.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { previousPeriod } from '../../src/kit/calendar/range.ts';
import { resolveRange } from '../../src/kit/calendar/range.ts';

const NEW_YORK = 'America/New_York';
const iso = (ms: number) => new Date(ms).toISOString();

test('the day after clocks go back is compared with the 25-hour day before up to the same clock time', () => {
  // 2026-11-01 has 25 hours in New York (02:00 EDT becomes 01:00 EST); now is 15:28:30 EST on 11-02.
  const now = Date.parse('2026-11-02T20:28:30Z');
  const range = resolveRange({ start_date: '2026-11-02', end_date: '2026-11-02', timezone: NEW_YORK }, now);
  const previous = previousPeriod(range, now);
  assert.equal(previous.partial, true);
  assert.equal(iso(previous.startMs), '2026-11-01T04:00:00.000Z', 'local midnight, still daylight time');
  assert.equal(iso(previous.endMs), '2026-11-01T20:27:59.999Z', '15:27:59.999 EST, the minute before now on the clock');
});

test('the day after clocks go forward is compared with the 23-hour day before up to the same clock time', () => {
  // 2026-03-08 has 23 hours in New York (02:00 EST becomes 03:00 EDT); now is 09:05:10 EDT on 03-09.
  const now = Date.parse('2026-03-09T13:05:10Z');
  const range = resolveRange({ start_date: '2026-03-09', end_date: '2026-03-09', timezone: NEW_YORK }, now);
  const previous = previousPeriod(range, now);
  assert.equal(iso(previous.startMs), '2026-03-08T05:00:00.000Z');
  assert.equal(iso(previous.endMs), '2026-03-08T13:04:59.999Z', '09:04:59.999 EDT');
});

test('a week holding today is compared with the week before, cut at the same clock time of its last day', () => {
  const now = Date.parse('2026-11-04T17:00:00Z'); // 12:00 EST on Wednesday 11-04
  const range = resolveRange({ start_date: '2026-10-29', end_date: '2026-11-04', timezone: NEW_YORK }, now);
  const previous = previousPeriod(range, now);
  assert.equal(iso(previous.startMs), '2026-10-22T04:00:00.000Z');
  assert.equal(iso(previous.endMs), '2026-10-28T15:59:59.999Z', '11:59:59.999 EDT on the seventh day');
});

test('a complete range is compared with as many whole days right before it', () => {
  const now = Date.parse('2026-11-10T12:00:00Z');
  const range = resolveRange({ start_date: '2026-11-01', end_date: '2026-11-02', timezone: NEW_YORK }, now);
  const previous = previousPeriod(range, now);
  assert.deepEqual([iso(previous.startMs), iso(previous.endMs), previous.partial], ['2026-10-30T04:00:00.000Z', '2026-11-01T03:59:59.999Z', false]);
});
