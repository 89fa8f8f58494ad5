/**
 * Tokens that really end (OAuth 2.1, RFC 6819, RFC 7009): a refresh rotates the pair and ends the
 * previous access token; a code or refresh token presented again revokes its whole grant (every
 * token issued from that consent); revoking a refresh token ends its access tokens; revoking an
 * access token leaves the refresh token. Each test makes its own connections by hand
 * (oauth-by-hand.ts), so a revoked grant never touches another test.
 * Fixture: one workspace with an admin key; requests go to a listening server.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { oauthByHand } from './oauth-by-hand.ts';

let t: TestApp;
let ws: TestWorkspace;
let base: string;
let hand: ReturnType<typeof oauthByHand>;
const CALLBACK = 'http://127.0.0.1:9/callback';
const CODE_REUSED = 'This authorization code was used before: every token issued from it is revoked';
const REFRESH_REUSED = 'This refresh token was used or revoked before: every token of its grant is revoked';

before(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  hand = oauthByHand(base);
  ws = await createTestWorkspace(t.stores);
});
after(() => t.close());

const connect = () => hand.connect(CALLBACK, `${base}/mcp/oauth`, ws.headers);

/** The status of tools/list on the connector URL with this access token. */
async function listStatus(accessToken: string): Promise<number> {
  const r = await fetch(`${base}/mcp/oauth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  });
  await r.arrayBuffer();
  return r.status;
}

async function refresh(clientId: string, refreshToken: string) {
  const r = await hand.form('/token', { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
  return { status: r.status, body: await r.json() };
}

const revoke = (clientId: string, token: string) => hand.form('/revoke', { token, client_id: clientId });

describe('refresh rotation', () => {
  test('a refresh issues a new pair and ends the previous access token at once', async () => {
    const first = await connect();
    assert.equal(await listStatus(first.access_token), 200);
    const rotated = await refresh(first.clientId, first.refresh_token);
    assert.equal(rotated.status, 200);
    assert.deepEqual(Object.keys(rotated.body).sort(), ['access_token', 'expires_in', 'refresh_token', 'token_type']);
    assert.equal(await listStatus(first.access_token), 401);
    assert.equal(await listStatus(rotated.body.access_token), 200);
  });

  test('the previous refresh token presented again revokes the whole grant, and only that grant', async () => {
    const first = await connect();
    const other = await connect();
    const rotated = await refresh(first.clientId, first.refresh_token);
    const reuse = await refresh(first.clientId, first.refresh_token);
    assert.deepEqual(reuse, { status: 400, body: { error: 'invalid_grant', error_description: REFRESH_REUSED } });
    assert.equal(await listStatus(rotated.body.access_token), 401);
    assert.deepEqual(await refresh(first.clientId, rotated.body.refresh_token), { status: 400, body: { error: 'invalid_grant', error_description: REFRESH_REUSED } });
    assert.equal(await listStatus(other.access_token), 200);
    assert.equal((await refresh(other.clientId, other.refresh_token)).status, 200);
  });

  test('of two refreshes with one token at the same time, one gets the pair and the other is a reuse', async () => {
    const first = await connect();
    const answers = await Promise.all([refresh(first.clientId, first.refresh_token), refresh(first.clientId, first.refresh_token)]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400]);
    assert.deepEqual(answers.find((a) => a.status === 400)!.body, { error: 'invalid_grant', error_description: REFRESH_REUSED });
  });

  test('a refresh token of another client is refused and its grant stays', async () => {
    const first = await connect();
    const stranger = await connect();
    assert.deepEqual(await refresh(stranger.clientId, first.refresh_token), { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid or expired refresh token' } });
    assert.equal(await listStatus(first.access_token), 200);
  });
});

describe('authorization codes', () => {
  test('a code exchanged twice revokes every token issued from it', async () => {
    const { clientId, exchange } = await hand.authorize(CALLBACK, `${base}/mcp/oauth`, ws.headers);
    const tokens = await (await exchange()).json();
    assert.equal(await listStatus(tokens.access_token), 200);
    const again = await exchange();
    assert.equal(again.status, 400);
    assert.deepEqual(await again.json(), { error: 'invalid_grant', error_description: CODE_REUSED });
    assert.equal(await listStatus(tokens.access_token), 401);
    assert.deepEqual(await refresh(clientId, tokens.refresh_token), { status: 400, body: { error: 'invalid_grant', error_description: REFRESH_REUSED } });
  });

  test('tokens refreshed from a code are revoked too when the code comes back', async () => {
    const { clientId, exchange } = await hand.authorize(CALLBACK, `${base}/mcp/oauth`, ws.headers);
    const tokens = await (await exchange()).json();
    const rotated = await refresh(clientId, tokens.refresh_token);
    assert.equal((await exchange()).status, 400);
    assert.equal(await listStatus(rotated.body.access_token), 401);
  });
});

describe('revocation (RFC 7009)', () => {
  test('revoking a refresh token ends the access tokens of its grant', async () => {
    const first = await connect();
    assert.equal((await revoke(first.clientId, first.refresh_token)).status, 200);
    assert.equal(await listStatus(first.access_token), 401);
    assert.equal((await refresh(first.clientId, first.refresh_token)).status, 400);
  });

  test('revoking an access token ends that token only: the refresh token still gets a new pair', async () => {
    const first = await connect();
    assert.equal((await revoke(first.clientId, first.access_token)).status, 200);
    assert.equal(await listStatus(first.access_token), 401);
    const rotated = await refresh(first.clientId, first.refresh_token);
    assert.equal(rotated.status, 200);
    assert.equal(await listStatus(rotated.body.access_token), 200);
  });

  test('another client\'s token is left alone (answered 200 all the same)', async () => {
    const first = await connect();
    const stranger = await connect();
    assert.equal((await revoke(stranger.clientId, first.refresh_token)).status, 200);
    assert.equal(await listStatus(first.access_token), 200);
  });
});
