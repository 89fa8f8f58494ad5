/**
 * The geo tests view's endpoints over HTTP: owners set a test up, every member reads the tests.
 * Fixture: workspace "Shop" without sales; owen (owner), vic (viewer).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { toolOk } from '../mcp/rpc.ts';
import { createUser, signIn, type Signed } from './helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
const as: Record<string, Signed> = {};
const TEST = { name: 'Free shipping', level: 'country', treatment: ['de', 'NL'], control: ['GB'], start_date: '2030-01-05', end_date: '2030-01-18', pre_days: 14 };

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  await createUser(t, 'owen@example.com', shop.id);
  await createUser(t, 'vic@example.com', shop.id, ['--role', 'viewer']);
  for (const name of ['owen', 'vic']) as[name] = await signIn(t, `${name}@example.com`);
});
after(() => t.close());

const url = () => `/dashboard/api/geo-tests?workspace=${shop.id}`;

test('an owner sets a geo test up; members and the tool read it, scheduled until it starts', async () => {
  const created = await as.owen!.send('POST', url(), TEST);
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const stored = { ...TEST, treatment: ['DE', 'NL'] };
  assert.deepEqual(created.body.geo_test, { id: created.body.geo_test.id, ...stored });
  const listed = await as.vic!.get(url());
  assert.deepEqual(listed.body.tests, [{ id: created.body.geo_test.id, ...stored, status: 'scheduled', results: null, note: 'Results need two complete days of the test' }]);
  const { tests } = await toolOk(t.app, shop.headers, 'geo-testing.get-tests', {});
  assert.deepEqual(tests.map((g: { name: string; status: string }) => [g.name, g.status]), [['Free shipping', 'scheduled']]);
  const { entries } = await toolOk(t.app, shop.headers, 'audit-log.get-log', { limit: 1 });
  assert.deepEqual([entries[0].action, entries[0].actor], ['geo_test.create', 'dashboard:owen@example.com']);
});

test('a test naming the channel it tests keeps it, as geo-test create --source does; a raw channel is 400', async () => {
  const created = await as.owen!.send('POST', url(), { ...TEST, name: 'Meta in DE', source: 'meta' });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.equal(created.body.geo_test.source, 'meta');
  const listed = await as.vic!.get(url());
  assert.equal(listed.body.tests.find((g: { name: string }) => g.name === 'Meta in DE').source, 'meta');
  assert.deepEqual(await as.owen!.send('POST', url(), { ...TEST, source: 'Meta Ads' }), { status: 400, body: { message: 'source: source must be a reporting source, e.g. meta' } });
});

test('viewers may not set one up; a wrong test is 400 with the reason', async () => {
  assert.deepEqual(await as.vic!.send('POST', url(), TEST), { status: 403, body: { message: 'Only owners of this workspace can do this' } });
  assert.deepEqual(await as.owen!.send('POST', url(), { ...TEST, control: ['NL'] }), { status: 400, body: { message: 'NL is in both treatment and control' } });
  assert.deepEqual(await as.owen!.send('POST', url(), { ...TEST, start_date: '2030-02-30' }), { status: 400, body: { message: 'start_date must be a calendar day YYYY-MM-DD' } });
  assert.equal((await as.owen!.send('POST', url(), { ...TEST, extra: 1 })).status, 400);
});
