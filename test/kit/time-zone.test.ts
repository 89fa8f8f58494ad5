/**
 * Calendar days of a time zone: the instants a local day starts and ends at (23- and 25-hour days
 * where clocks change, in both hemispheres, and days whose midnight is skipped or repeated), the
 * default range, and agreement with the analytics store, which buckets rows by the same zones.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultRange, parseBound } from '../../src/kit/calendar/days.ts';
import { resolveRange } from '../../src/kit/calendar/range.ts';
import { canonicalTimeZone, localDay, timeZoneMessage, timeZoneName } from '../../src/kit/calendar/zones.ts';
import { DomainError } from '../../src/kit/errors.ts';
import { openTestClickhouse } from '../helper.ts';
import type { Clickhouse } from '../../src/store/clickhouse.ts';

const HOUR = 3_600_000;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A local day's first and last millisecond, and its length in hours. */
function day(date: string, zone: string) {
  const start = parseBound(date, 'start', zone)!;
  const end = parseBound(date, 'end', zone)!;
  return { start: iso(start), end: iso(end), hours: (end + 1 - start) / HOUR };
}

describe('local calendar days', () => {
  test('New York: the March change makes a 23-hour day, the November change a 25-hour day', () => {
    assert.deepEqual(day('2026-03-07', 'America/New_York'), { start: '2026-03-07T05:00:00.000Z', end: '2026-03-08T04:59:59.999Z', hours: 24 });
    assert.deepEqual(day('2026-03-08', 'America/New_York'), { start: '2026-03-08T05:00:00.000Z', end: '2026-03-09T03:59:59.999Z', hours: 23 });
    assert.deepEqual(day('2026-11-01', 'America/New_York'), { start: '2026-11-01T04:00:00.000Z', end: '2026-11-02T04:59:59.999Z', hours: 25 });
  });

  test('Sydney, southern hemisphere: April ends daylight time (25 hours), October starts it (23 hours)', () => {
    assert.deepEqual(day('2026-04-05', 'Australia/Sydney'), { start: '2026-04-04T13:00:00.000Z', end: '2026-04-05T13:59:59.999Z', hours: 25 });
    assert.deepEqual(day('2026-10-04', 'Australia/Sydney'), { start: '2026-10-03T14:00:00.000Z', end: '2026-10-04T12:59:59.999Z', hours: 23 });
  });

  test('a day whose midnight is skipped starts at the jump; a repeated hour before midnight belongs to the day before', () => {
    // Santiago moves its clocks at midnight: 2026-09-06 00:00 becomes 01:00, and 2026-04-05 00:00 goes back to 04-04 23:00.
    assert.deepEqual(day('2026-09-06', 'America/Santiago'), { start: '2026-09-06T04:00:00.000Z', end: '2026-09-07T02:59:59.999Z', hours: 23 });
    assert.deepEqual(day('2026-04-04', 'America/Santiago'), { start: '2026-04-04T03:00:00.000Z', end: '2026-04-05T03:59:59.999Z', hours: 25 });
  });

  test('a half-hour change (Lord Howe Island) and a zone without daylight time (Kolkata)', () => {
    assert.deepEqual(day('2026-10-04', 'Australia/Lord_Howe'), { start: '2026-10-03T13:30:00.000Z', end: '2026-10-04T12:59:59.999Z', hours: 23.5 });
    assert.deepEqual(day('2026-10-04', 'Asia/Kolkata'), { start: '2026-10-03T18:30:00.000Z', end: '2026-10-04T18:29:59.999Z', hours: 24 });
  });

  test('a full timestamp is an instant whatever the zone: UTC unless it carries an offset', () => {
    assert.equal(iso(parseBound('2026-03-08 10:00:00', 'start', 'America/New_York')), '2026-03-08T10:00:00.000Z');
    assert.equal(iso(parseBound('2026-03-08T10:00:00-05:00', 'start', 'Australia/Sydney')), '2026-03-08T15:00:00.000Z');
  });

  test('localDay reads an instant on the zone\'s calendar', () => {
    // 23:30 in New York on 8 March is already 9 March in UTC.
    assert.equal(localDay(Date.UTC(2026, 2, 9, 3, 30), 'America/New_York'), '2026-03-08');
    assert.equal(localDay(Date.UTC(2026, 2, 9, 4, 0), 'America/New_York'), '2026-03-09');
    assert.equal(localDay(Date.UTC(2026, 3, 4, 13, 0), 'Australia/Sydney'), '2026-04-05');
  });

  test('the default range is the 7 local days before today through the end of today', () => {
    // 2026-03-09 03:00 UTC is 23:00 on 8 March in New York, whose clocks changed that day.
    const range = defaultRange(Date.UTC(2026, 2, 9, 3), 'America/New_York');
    assert.deepEqual({ start: iso(range.startMs), end: iso(range.endMs) }, { start: '2026-03-01T05:00:00.000Z', end: '2026-03-09T03:59:59.999Z' });
    const utc = resolveRange({}, Date.UTC(2026, 2, 9, 3));
    assert.deepEqual({ start: iso(utc.startMs), end: iso(utc.endMs), zone: utc.timeZone }, { start: '2026-03-02T00:00:00.000Z', end: '2026-03-09T23:59:59.999Z', zone: 'UTC' });
  });

  test('resolveRange keeps the zone and refuses a bad bound with the contract\'s message', () => {
    const range = resolveRange({ start_date: '2026-11-01', end_date: '2026-11-01', timezone: 'America/New_York' });
    assert.deepEqual(range, { startMs: Date.UTC(2026, 10, 1, 4), endMs: Date.UTC(2026, 10, 2, 5) - 1, timeZone: 'America/New_York' });
    assert.throws(() => resolveRange({ start_date: '2026-02-30', timezone: 'America/New_York' }), (e: DomainError) => e.message === 'Invalid start_date or end_date parameter' && e.detail === 'start_date is not a calendar day (got 2026-02-30)');
  });
});

describe('zone names', () => {
  test('a known name comes back in its canonical spelling, also when asked again (it is remembered); anything else is no zone', () => {
    for (let round = 0; round < 2; round++) {
      assert.equal(canonicalTimeZone('Europe/Berlin'), 'Europe/Berlin');
      assert.equal(canonicalTimeZone('america/new_york'), 'America/New_York');
      assert.equal(canonicalTimeZone('UTC'), 'UTC');
      for (const name of ['Mars/Olympus', '', '+02:00', '-0500', 'Z', '../etc/passwd', 'Europe/Berlin\u0000', 'x'.repeat(65), '__proto__', 'constructor']) {
        assert.equal(canonicalTimeZone(name), null, JSON.stringify(name));
      }
    }
  });

  test('the input schema names the parameter and gives an example; too long a value is not echoed', () => {
    assert.equal(timeZoneName.parse('europe/berlin'), 'Europe/Berlin');
    const refusal = (value: unknown) => timeZoneName.safeParse(value).error?.issues[0]?.message;
    assert.equal(refusal('Mars/Olympus'), 'Invalid timezone: Mars/Olympus. Use an IANA time zone name such as Europe/Berlin');
    assert.equal(refusal(['a', 'b']), 'Invalid timezone: a,b. Use an IANA time zone name such as Europe/Berlin');
    assert.equal(refusal('Europe/'.repeat(20)), 'Invalid timezone: (too long). Use an IANA time zone name such as Europe/Berlin');
    assert.equal(timeZoneMessage('X'), 'Invalid timezone: X. Use an IANA time zone name such as Europe/Berlin');
  });
});

describe('the analytics store reads the same zones', () => {
  let store: { ch: Clickhouse; close(): Promise<void> };
  before(async () => {
    store = await openTestClickhouse();
  });
  after(() => store.close());

  test('every canonical zone name of the runtime is one the analytics store knows', async () => {
    const zones = ['UTC', ...Intl.supportedValuesOf('timeZone')];
    assert.ok(zones.every((z) => canonicalTimeZone(z) === z), 'supportedValuesOf lists canonical names');
    const columns = zones.map((_, i) => `toString(toDate(toDateTime64('2026-03-08 04:30:00', 3, 'UTC'), {z${i}:String})) AS d${i}`);
    const [row] = await store.ch.query<Record<string, string>>('zones', `SELECT ${columns.join(', ')}`, Object.fromEntries(zones.map((z, i) => [`z${i}`, z])));
    const instant = Date.UTC(2026, 2, 8, 4, 30);
    const disagreeing = zones.filter((z, i) => row![`d${i}`] !== localDay(instant, z));
    assert.deepEqual(disagreeing, []);
  });

  test('around every change of 2026 in both hemispheres, a local day starts where the store\'s day bucket does', async () => {
    const cases = [
      ['America/New_York', '2026-03-08'], ['America/New_York', '2026-03-09'], ['America/New_York', '2026-11-01'], ['America/New_York', '2026-11-02'],
      ['Australia/Sydney', '2026-04-05'], ['Australia/Sydney', '2026-04-06'], ['Australia/Sydney', '2026-10-04'], ['Australia/Sydney', '2026-10-05'],
      ['America/Santiago', '2026-09-06'], ['America/Santiago', '2026-04-05'], ['Europe/Berlin', '2026-03-29'], ['Europe/Berlin', '2026-10-25'],
    ] as const;
    // The last millisecond before each day's start belongs to the day before, the start itself to the day.
    const probes = cases.flatMap(([zone, date]) => {
      const start = parseBound(date, 'start', zone)!;
      return [{ zone, ms: start - 1, expected: localDay(start - 1, zone) }, { zone, ms: start, expected: date }];
    });
    assert.ok(probes.every((p, i) => i % 2 === 1 || p.expected < probes[i + 1]!.expected));
    const columns = probes.map((_, i) => `toString(toDate(fromUnixTimestamp64Milli({t${i}:Int64}, 'UTC'), {z${i}:String})) AS d${i}`);
    const params = Object.fromEntries(probes.flatMap((p, i) => [[`t${i}`, p.ms], [`z${i}`, p.zone]]));
    const [row] = await store.ch.query<Record<string, string>>('probes', `SELECT ${columns.join(', ')}`, params);
    assert.deepEqual(probes.map((_, i) => row![`d${i}`]), probes.map((p) => p.expected));
  });
});
