/**
 * Dashboard users and sessions through the public surface: `user create` (the CLI command), then
 * sign-in, session cookies, CSRF and sign-in limits over HTTP. Personas: ada (owner of two
 * workspaces), ben (viewer), and people who guess. The shared-limit test runs two more apps over
 * the same stores with counters on the local Redis (a prefix unique to this run, removed after).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { PASSWORD, cli, createUser, signIn } from './helpers.ts';
import { routeTable } from '../support/route-table.ts';

let t: TestApp;
let shop: TestWorkspace;
let second: TestWorkspace;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop one');
  second = await createTestWorkspace(t.stores, 'Shop two');
  await createUser(t, 'ada@example.com', shop.id);
  await createUser(t, 'ADA@example.com', second.id);
  await createUser(t, 'ben@example.com', shop.id, ['--role', 'viewer']);
});
after(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

test('user create prints the membership; a second workspace needs the current password; bad input is refused', async () => {
  assert.deepEqual(await cli(t, ['user', 'create', '--email', 'cy@example.com', '--password', PASSWORD, '--workspace', String(shop.id), '--role', 'viewer', '--scopes', 'read:meta,read:profit']), {
    result: { email: 'cy@example.com', workspace_id: shop.id, role: 'viewer', scopes: ['read:meta', 'read:profit'] },
  });
  const cases: [string[], string][] = [
    [['--email', 'cy@example.com', '--password', 'another password', '--workspace', String(second.id)], 'A user cy@example.com exists; give their current password to add a workspace'],
    [['--email', 'not-an-email', '--password', PASSWORD, '--workspace', String(shop.id)], '--email must be an email address'],
    [['--email', 'dee@example.com', '--password', 'short', '--workspace', String(shop.id)], '--password must be 10 to 256 characters'],
    [['--email', 'dee@example.com', '--password', PASSWORD, '--workspace', '999'], 'Workspace 999 not found'],
    [['--email', 'dee@example.com', '--password', PASSWORD, '--workspace', String(shop.id), '--role', 'admin'], '--role must be owner or viewer'],
    [['--email', 'dee@example.com', '--password', PASSWORD, '--workspace', String(shop.id), '--role', 'viewer', '--scopes', 'read:everything'], 'Invalid scopes: read:everything'],
    [['--email', 'dee@example.com', '--password', PASSWORD, '--workspace', String(shop.id), '--scopes', 'read:meta'], '--scopes applies to viewers; an owner sees everything'],
  ];
  for (const [args, message] of cases) assert.deepEqual(await cli(t, ['user', 'create', ...args]), { error: { message } }, args.join(' '));
});

test('signing in sets an HttpOnly SameSite=Lax session cookie and answers the workspaces with roles', async () => {
  const response = await post('/dashboard/api/sign-in', { email: ' Ada@Example.com ', password: PASSWORD });
  assert.equal(response.statusCode, 200);
  const cookie = String(response.headers['set-cookie']);
  assert.match(cookie, /^storelens_session=[\w-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
  const body = response.json();
  assert.equal(typeof body.csrf_token, 'string');
  assert.deepEqual(body, {
    email: 'ada@example.com',
    csrf_token: body.csrf_token,
    workspaces: [
      { id: shop.id, name: 'Shop one', currency: 'USD', timezone: 'UTC', role: 'owner', profit: true },
      { id: second.id, name: 'Shop two', currency: 'USD', timezone: 'UTC', role: 'owner', profit: true },
    ],
  });
  const me = await t.app.inject({ method: 'GET', url: '/dashboard/api/me', headers: { cookie: cookie.split(';')[0]! } });
  assert.deepEqual(me.json(), body);
});

test('a wrong password and an unknown email get the same answer, with no hint which part was wrong', async () => {
  const wrongPassword = await post('/dashboard/api/sign-in', { email: 'ben@example.com', password: 'not the password' });
  const unknownEmail = await post('/dashboard/api/sign-in', { email: 'nobody@example.com', password: PASSWORD });
  for (const response of [wrongPassword, unknownEmail]) {
    assert.equal(response.statusCode, 401);
    assert.deepEqual(response.json(), { message: 'Wrong email or password' });
    assert.equal(response.headers['set-cookie'], undefined);
  }
  for (const payload of [{}, { email: 'a' }, { email: 1, password: 2 }, [], { email: 'a', password: 'b'.repeat(300) }]) {
    const response = await post('/dashboard/api/sign-in', payload);
    assert.deepEqual([response.statusCode, response.json()], [400, { message: 'Send {"email","password"} as JSON' }], JSON.stringify(payload));
  }
});

test('without a session, with a forged or an expired cookie, every dashboard endpoint answers 401', async () => {
  const ada = await signIn(t, 'ada@example.com');
  await t.stores.db.updateTable('dashboard_sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('csrf_token', '=', ada.csrf).execute();
  const cookies = [undefined, 'storelens_session=forged', 'storelens_session=' + 'A'.repeat(43), ada.cookie, `storelens_session=${'x'.repeat(5000)}`];
  for (const cookie of cookies) {
    for (const url of ['/dashboard/api/me', `/dashboard/api/overview?workspace=${shop.id}`, `/dashboard/api/report?workspace=${shop.id}`, `/dashboard/api/keys?workspace=${shop.id}`]) {
      const response = await t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
      assert.deepEqual([response.statusCode, response.json()], [401, { message: 'Not signed in' }], `${url} ${cookie?.slice(0, 40)}`);
    }
  }
});

test('every JSON endpoint of the route table but sign-in answers 401 without a session, whatever its method', async () => {
  const endpoints = routeTable(t.app, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).filter(({ url }) => url.startsWith('/dashboard/api/'));
  assert.ok(endpoints.length > 40, `only ${endpoints.length} dashboard endpoints found in the route table`);
  const open: string[] = [];
  for (const { method, url } of endpoints) {
    const response = await t.app.inject({ method: method as 'GET', url: `${url}?workspace=${shop.id}`, ...(method === 'GET' ? {} : { payload: {} }) });
    if (response.statusCode !== 401 || response.json().message !== 'Not signed in') open.push(`${method} ${url}: ${response.statusCode}`);
  }
  assert.deepEqual(open, ['POST /dashboard/api/sign-in: 400']);
});

test('writes need the session CSRF token: none or a wrong one is 403 and changes nothing; signing out ends the session', async () => {
  const ada = await signIn(t, 'ada@example.com');
  for (const headers of [{ cookie: ada.cookie }, { cookie: ada.cookie, 'x-csrf-token': 'guess' }, { cookie: ada.cookie, 'x-csrf-token': '' }]) {
    const keys = await t.app.inject({ method: 'POST', url: `/dashboard/api/keys?workspace=${shop.id}`, headers, payload: { scopes: ['read:meta'] } });
    assert.deepEqual([keys.statusCode, keys.json()], [403, { message: 'Missing or wrong CSRF token' }]);
    const out = await t.app.inject({ method: 'POST', url: '/dashboard/api/sign-out', headers });
    assert.equal(out.statusCode, 403);
  }
  assert.equal((await ada.get('/dashboard/api/me')).status, 200);
  const other = await signIn(t, 'ada@example.com');
  const crossToken = await t.app.inject({ method: 'POST', url: '/dashboard/api/sign-out', headers: { cookie: ada.cookie, 'x-csrf-token': other.csrf } });
  assert.equal(crossToken.statusCode, 403, "another session's token does not do");

  const out = await ada.send('POST', '/dashboard/api/sign-out');
  assert.deepEqual(out, { status: 200, body: { signed_out: true } });
  assert.equal((await ada.get('/dashboard/api/me')).status, 401);
  assert.equal((await other.get('/dashboard/api/me')).status, 200, 'other sessions of the user live on');
});

test('sign-in is limited per account: after 5 failures even the right password waits, other accounts do not', async () => {
  await createUser(t, 'eve@example.com', shop.id);
  for (let i = 0; i < 5; i++) {
    assert.equal((await post('/dashboard/api/sign-in', { email: 'eve@example.com', password: `guess number ${i}` })).statusCode, 401);
  }
  const locked = await post('/dashboard/api/sign-in', { email: 'eve@example.com', password: PASSWORD });
  assert.deepEqual([locked.statusCode, locked.json()], [429, { message: 'Too many sign-in attempts; try again later' }]);
  assert.ok(Number(locked.headers['retry-after']) > 0);
  assert.equal((await post('/dashboard/api/sign-in', { email: 'ben@example.com', password: PASSWORD })).statusCode, 200);
});

test('sign-in is limited per client address across accounts', async () => {
  const from = { 'x-forwarded-for': '203.0.113.9' };
  let last = 0;
  for (let i = 0; i < 21; i++) {
    const response = await t.app.inject({ method: 'POST', url: '/dashboard/api/sign-in', payload: { email: `guess${i}@example.com`, password: 'x' }, remoteAddress: '203.0.113.9', headers: from });
    last = response.statusCode;
  }
  assert.equal(last, 429);
  const elsewhere = await t.app.inject({ method: 'POST', url: '/dashboard/api/sign-in', payload: { email: 'ben@example.com', password: PASSWORD }, remoteAddress: '198.51.100.7' });
  assert.equal(elsewhere.statusCode, 200);
});

test('with REDIS_URL two API processes share one failed sign-in count per account', async () => {
  const redisUrl = 'redis://127.0.0.1:6379';
  const rate = { perSecond: 0, burst: 0, daily: 0, redisPrefix: `storelens-test-${randomUUID()}` };
  const nodes = await Promise.all([0, 1].map(async () => {
    const limits = await createRateLimits(rate, redisUrl);
    const app = await buildApp({ config: { ...t.config, rate, redisUrl }, stores: t.stores, limits, logger: createLogger('silent') });
    return { app, limits };
  }));
  const redis = new Redis(redisUrl);
  try {
    await createUser(t, 'fay@example.com', shop.id);
    const signInOn = (node: number, password: string) =>
      nodes[node]!.app.inject({ method: 'POST', url: '/dashboard/api/sign-in', payload: { email: 'fay@example.com', password } });
    for (let i = 0; i < 5; i++) assert.equal((await signInOn(i % 2, `guess number ${i}`)).statusCode, 401, `guess ${i}`);
    for (const node of [0, 1]) {
      const locked = await signInOn(node, PASSWORD);
      assert.deepEqual([locked.statusCode, locked.json()], [429, { message: 'Too many sign-in attempts; try again later' }], `node ${node}`);
    }
    assert.deepEqual((await redis.keys(`${rate.redisPrefix}:signin-account:*`)).length, 1, 'the count lives in Redis');
    assert.equal((await post('/dashboard/api/sign-in', { email: 'fay@example.com', password: PASSWORD })).statusCode, 200,
      'an app on in-memory counters kept its own count');
  } finally {
    const keys = await redis.keys(`${rate.redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    for (const { app, limits } of nodes) {
      await app.close();
      await limits.close();
    }
  }
});
