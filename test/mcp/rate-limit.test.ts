/**
 * tools/call counts against the same per-key limits as the data API (docs/mcp.md).
 * Fixture: one workspace with an admin key; the daily quota is set to 3 and the bucket is off.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { callTool, postMcp } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

before(async () => {
  t = await startTestApp({ rate: { perSecond: 0, burst: 0, daily: 3 } });
  ws = await createTestWorkspace(t.stores);
});
after(() => t.close());

test('tools/call shares the daily quota with the data API and answers 429 when it is spent', async () => {
  const data = await t.app.inject({ method: 'GET', url: '/v3/events', headers: ws.headers });
  assert.equal(data.statusCode, 200);
  // initialize, ping and tools/list do not count
  await postMcp(t.app, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
  await postMcp(t.app, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, ws.headers);
  assert.equal((await callTool(t.app, ws.headers, 'notes.get-notes')).result?.isError, false);
  assert.equal((await callTool(t.app, ws.headers, 'notes.get-notes')).result?.isError, false);
  const refused = await postMcp(t.app, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'notes.get-notes', arguments: {} } }, ws.headers);
  assert.equal(refused.status, 429);
  assert.deepEqual(refused.body, { message: 'Rate limit exceeded' });
  assert.ok(Number(refused.headers['retry-after']) > 0);
  assert.match(String(refused.headers.ratelimit), /^"daily";r=0;t=\d+$/);
  const dataAfter = await t.app.inject({ method: 'GET', url: '/v3/events', headers: ws.headers });
  assert.equal(dataAfter.statusCode, 429);
});

test('a call refused for bad arguments is not counted', async () => {
  const other = await ws.keyHeaders(['admin:admin']);
  for (let i = 0; i < 5; i++) assert.equal((await callTool(t.app, other, 'notes.save-note', {})).error?.code, -32602);
  assert.equal((await callTool(t.app, other, 'notes.get-notes')).result?.isError, false);
});
