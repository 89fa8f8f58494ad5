/** Unit tests of the engine's dense parts: due times in a workspace's zone and the public-address check (no fixture). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dueOf } from '../../src/workflows/due.ts';
import { isPublicAddress } from '../../src/kit/public-address.ts';

const at = (iso: string) => Date.parse(iso);
const due = (type: Parameters<typeof dueOf>[0], iso: string, zone: string, newestConversionMs: number | null = null) => {
  const found = dueOf(type, at(iso), zone, newestConversionMs);
  return found && [found.key, new Date(found.atMs).toISOString()];
};

test('08:00 is read on the workspace clock, across the end of daylight saving time', () => {
  // New York leaves daylight saving time on 2026-11-01 at 02:00: 08:00 is 12:00 UTC the day before, 13:00 UTC that day.
  assert.deepEqual(due('daily_schedule', '2026-11-01T12:59:59Z', 'America/New_York'), ['daily:2026-10-31', '2026-10-31T12:00:00.000Z']);
  assert.deepEqual(due('daily_schedule', '2026-11-01T13:00:00Z', 'America/New_York'), ['daily:2026-11-01', '2026-11-01T13:00:00.000Z']);
  assert.deepEqual(due('ad_fatigue', '2026-11-26T00:30:00Z', 'Asia/Tokyo'), ['fatigue:2026-11-26', '2026-11-25T23:00:00.000Z']);
});

test('weekly schedules are due on the latest Monday; thresholds every quarter hour; new conversions at the newest one', () => {
  assert.deepEqual(due('weekly_schedule', '2026-11-29T23:59:00Z', 'UTC'), ['weekly:2026-11-23', '2026-11-23T08:00:00.000Z']);
  assert.deepEqual(due('weekly_schedule', '2026-11-30T07:59:00Z', 'UTC'), ['weekly:2026-11-23', '2026-11-23T08:00:00.000Z']);
  assert.deepEqual(due('weekly_schedule', '2026-11-30T08:00:00Z', 'UTC'), ['weekly:2026-11-30', '2026-11-30T08:00:00.000Z']);
  assert.deepEqual(due('metric_threshold', '2026-11-26T10:44:59Z', 'Europe/Berlin'), ['threshold:2026-11-26T10:30:00.000Z', '2026-11-26T10:30:00.000Z']);
  assert.deepEqual(due('new_conversion', '2026-11-26T10:44:59Z', 'UTC', at('2026-11-26T10:05:00Z')), ['conversions:2026-11-26T10:05:00.000Z', '2026-11-26T10:05:00.000Z']);
  assert.equal(due('new_conversion', '2026-11-26T10:44:59Z', 'UTC'), null);
});

test('loopback, private, link-local and reserved addresses are not public, in either family', () => {
  const refused = ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'fc00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-address'];
  assert.deepEqual(refused.filter(isPublicAddress), []);
  const allowed = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'];
  assert.deepEqual(allowed.filter((a) => !isPublicAddress(a)), []);
});

test('IPv4 carried in IPv6, documentation and tunnelling ranges are judged by what they reach (the audit\'s finding)', () => {
  const refused = [
    '::7f00:1', '::a00:1', '::8.8.8.8', // deprecated IPv4-compatible ::/96, whatever it carries
    '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b::10.0.0.1', '64:ff9b:1::808:808', // NAT64 to private ones; the local-use NAT64 prefix
    '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', // IPv4-mapped, both spellings
    '2001:db8::1', '2001:db8:ffff::1', // documentation
    '2002:7f00:1::1', '2001::1', '100::1', 'fec0::1', // 6to4, Teredo, discard, site-local
    '192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', // IPv4 documentation and benchmarking
  ];
  assert.deepEqual(refused.filter(isPublicAddress), []);
  assert.deepEqual(['64:ff9b::8.8.8.8', '64:ff9b::808:808', '::ffff:1.1.1.1'].filter((a) => !isPublicAddress(a)), []);
});
