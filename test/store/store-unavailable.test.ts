/**
 * The analytics server going away under a running service (server transport, the ClickHouse
 * stand-in killed as a crashed server goes): reads answer 503 on the data API and a tool error on
 * /mcp, never a 500 and never a wrong answer, and /healthz says the service cannot answer.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { startClickhouseStandin, type ClickhouseStandin } from '../support/standin.ts';
import { callTool } from '../mcp/rpc.ts';

let t: TestApp;
let ws: TestWorkspace;
let standin: ClickhouseStandin;

before(async () => {
  standin = await startClickhouseStandin();
  t = await startTestApp({ clickhouseUrl: standin.url });
  ws = await createTestWorkspace(t.stores);
  const today = new Date().toISOString().slice(0, 10);
  await insertRows(t.stores, 'events', [{ store_id: ws.id, dt: `${today} 00:00:01.000`, name: 'pageview', session_id: 1, visitor_id: 1 }]);
});

after(async () => {
  await t?.close();
  await standin?.stop();
});

test('reads answer 503 and a tool error while the analytics server is gone', async () => {
  assert.equal((await injectGet(t, '/v3/events', ws.headers)).body.data.length, 1);
  standin.kill();
  for (const url of ['/v3/events', '/v3/sessions', '/v3/report', '/v3/ads']) {
    assert.deepEqual(await injectGet(t, url, ws.headers), { status: 503, body: { message: 'Analytics store unavailable' } }, url);
  }
  const reply = await callTool(t.app, ws.headers, 'analytics.query', {});
  assert.equal(reply.result?.isError, true);
  assert.deepEqual(reply.result?.structuredContent, { error: { code: 'unavailable', message: 'Analytics store unavailable' } });
  const health = await t.app.inject({ method: 'GET', url: '/healthz' });
  assert.equal(health.statusCode, 503);
});
