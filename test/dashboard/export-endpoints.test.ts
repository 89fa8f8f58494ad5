/**
 * The dashboard's downloads: /dashboard/api/export/<kind> sends what the data API's export sends,
 * with the signed-in member's permissions.
 * Fixture (UTC): workspace "Shop" with a facebook and a google session on 2026-03-01, a purchase in
 * each and ad rows of both; ada owns it, vic views it with read:meta; workspace "Other" has no member.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { insertTwoChannelDay } from '../support/export-day.ts';
import { createUser, signIn, type Signed } from './helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let other: TestWorkspace;
let ada: Signed;
let vic: Signed;
const DAY = 'start_date=2026-03-01&end_date=2026-03-01';

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  other = await createTestWorkspace(t.stores, 'Other');
  await insertTwoChannelDay(t.stores, shop.id);
  await createUser(t, 'ada@example.com', shop.id);
  await createUser(t, 'vic@example.com', shop.id, ['--role', 'viewer', '--scopes', 'read:meta']);
  ada = await signIn(t, 'ada@example.com');
  vic = await signIn(t, 'vic@example.com');
});
after(() => t.close());

const download = (who: Signed | null, path: string) => t.app.inject({ method: 'GET', url: `/dashboard/api/export/${path}`, headers: who ? { cookie: who.cookie } : {} });
const api = (path: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `/v3/export/${path}`, headers });

describe('/dashboard/api/export/<kind>', () => {
  test('an owner downloads exactly what an admin key exports: rows in every format, and the MMM file', async () => {
    for (const path of [`conversions?${DAY}&format=csv`, `conversions?${DAY}&format=ndjson&source=google`, `events?${DAY}`, `ads?${DAY}&format=csv`, `mmm?${DAY}`, `mmm?${DAY}&granularity=week`]) {
      const mine = await download(ada, `${path}&workspace=${shop.id}`);
      const direct = await api(path, shop.headers);
      assert.equal(mine.statusCode, 200, `${path}: ${mine.body}`);
      assert.equal(mine.headers['content-type'], direct.headers['content-type'], path);
      assert.equal(mine.headers['content-disposition'], direct.headers['content-disposition'], path);
      assert.equal(mine.body, direct.body, path);
    }
  });

  test('a viewer limited to meta downloads meta\'s rows only, as a read:meta key would', async () => {
    const rows = (await download(vic, `conversions?${DAY}`)).body.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    assert.deepEqual(rows.map((row) => [row.transaction_id, row.adv_source]), [['T1', 'facebook']]);
    const mmm = await download(vic, `mmm?${DAY}`);
    assert.equal(mmm.body, (await api(`mmm?${DAY}`, await shop.keyHeaders(['read:meta']))).body);
  });

  test('refusals: not signed in, another workspace, an unknown kind, a parameter the export does not take', async () => {
    const cases: [Signed | null, string, number, string][] = [
      [null, `conversions?${DAY}`, 401, 'Not signed in'],
      [ada, `conversions?${DAY}&workspace=${other.id}`, 403, 'You do not have access to this workspace'],
      [ada, `orders?${DAY}`, 404, 'Not found'],
      [ada, `conversions?${DAY}&limit=5`, 400, 'Unknown parameter: limit'],
      [vic, `conversions?${DAY}&source=google`, 403, 'You do not have access to the requested sources'],
    ];
    for (const [who, path, status, message] of cases) {
      const r = await download(who, path);
      assert.deepEqual([r.statusCode, r.json()], [status, { message }], path);
    }
  });
});
