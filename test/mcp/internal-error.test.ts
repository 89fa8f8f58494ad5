/**
 * An unexpected failure below a tool is -32603 with a generic message and no detail leaked.
 * Fixture: one workspace; the analytics store is made to fail by replacing its query function.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { callTool } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores);
});
after(() => t.close());

test('a failing store gives -32603 Internal error, and the endpoint keeps serving', async () => {
  const query = t.stores.ch.query;
  t.stores.ch.query = async () => {
    throw new Error('Code: 999. secret table layout /var/lib/storelens');
  };
  try {
    assert.deepEqual((await callTool(t.app, ws.headers, 'hourly.get-data', {})).error, { code: -32603, message: 'Internal error' });
  } finally {
    t.stores.ch.query = query;
  }
  assert.equal((await callTool(t.app, ws.headers, 'hourly.get-data', {})).result?.isError, false);
});
