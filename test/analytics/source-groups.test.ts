/** Source groups (src/analytics/sources.ts) and their expansion for a key (src/analytics/permissions.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AD_PLATFORMS, SOURCE_GROUPS, channelsOfAll } from '../../src/analytics/sources.ts';
import { expandSourceGroups, visibilityOf } from '../../src/analytics/permissions.ts';

test('paid covers every ad platform channel, and nothing else', () => {
  assert.deepEqual(channelsOfAll(SOURCE_GROUPS.paid).sort(), channelsOfAll(AD_PLATFORMS).sort());
});

test('a group becomes the members the key reads; single sources stay; none readable keeps every member', () => {
  const admin = visibilityOf(['admin:admin']);
  assert.deepEqual(expandSourceGroups(['paid_social', 'meta', 'email'], admin), ['meta', 'tiktok', 'pinterest', 'snapchat', 'email']);
  assert.deepEqual(expandSourceGroups(['paid_social'], visibilityOf(['read:meta', 'read:google'])), ['meta']);
  assert.deepEqual(expandSourceGroups(['native_ads'], visibilityOf(['read:meta'])), ['outbrain', 'taboola']);
});
