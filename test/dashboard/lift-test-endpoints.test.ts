/**
 * Lift tests in the dashboard's settings over HTTP: owners list and enter them (as `lift-test add`
 * does), viewers may do neither, bad input is 400 with the reason.
 * Fixture: workspace "Shop" without data; owen (owner), vic (viewer).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { cli, createUser, signIn, type Signed } from './helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
const as: Record<string, Signed> = {};
const TEST = { source: 'instagram', start_date: '2026-03-01', end_date: '2026-03-14', incremental_share: 0.3, interval: [0.2, 0.4] };

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  await createUser(t, 'owen@example.com', shop.id);
  await createUser(t, 'vic@example.com', shop.id, ['--role', 'viewer']);
  for (const name of ['owen', 'vic']) as[name] = await signIn(t, `${name}@example.com`);
});
after(() => t.close());

const url = () => `/dashboard/api/lift-tests?workspace=${shop.id}`;

test('an owner enters a lift test under its reporting source; the list and the CLI show it', async () => {
  const added = await as.owen!.send('POST', url(), TEST);
  assert.equal(added.status, 200, JSON.stringify(added.body));
  const expected = { ...TEST, source: 'meta', id: added.body.lift_test.id, created_at: added.body.lift_test.created_at };
  assert.deepEqual(added.body.lift_test, expected);
  assert.deepEqual((await as.owen!.get(url())).body, { lift_tests: [expected] });
  const listed = await cli(t, ['lift-test', 'list', '--workspace', String(shop.id)]);
  assert.deepEqual('result' in listed && listed.result, { lift_tests: [expected] });
});

test('viewers may not read or enter one; bad input is 400 with the reason', async () => {
  const refused = { status: 403, body: { message: 'Only owners of this workspace can do this' } };
  assert.deepEqual(await as.vic!.send('POST', url(), TEST), refused);
  assert.deepEqual(await as.vic!.get(url()), refused);
  assert.deepEqual(await as.owen!.send('POST', url(), { ...TEST, source: 'organic' }), { status: 400, body: { message: 'source must be a tracked channel, e.g. meta or google' } });
  assert.deepEqual(await as.owen!.send('POST', url(), { ...TEST, incremental_share: 2 }), { status: 400, body: { message: 'incremental_share must be a number from 0 to 1' } });
  assert.deepEqual(await as.owen!.send('POST', url(), { ...TEST, interval: [0.5, 0.6] }), { status: 400, body: { message: 'the interval must contain incremental_share' } });
  assert.equal((await as.owen!.send('POST', url(), { ...TEST, extra: 1 })).status, 400);
  assert.equal((await as.owen!.send('POST', url(), [])).status, 400);
});
