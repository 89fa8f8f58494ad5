/**
 * The write tools store bounded objects: every argument has its bound in the tool's schema
 * (-32602 beyond it; test/mcp/fuzz.test.ts sends hostile values to every tool), and a workspace
 * keeps at most 10,000 objects of one kind (invalid_request, nothing stored). A list's items are
 * bounded by their list (5,000), not by their kind.
 * Fixture: workspace "Shop" with 10,000 notes and 9,999 topics, written straight into app state.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { countObjects } from '../../src/store/app/tool-objects.ts';
import { callTool, toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

async function fill(kind: string, count: number, data: (i: number) => object, key?: (i: number) => string) {
  const now = new Date().toISOString();
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, j) => start + j).map((i) => ({
      workspace_id: ws.id, kind, parent_id: null, unique_key: key?.(i) ?? null, data: JSON.stringify(data(i)), created_at: now, updated_at: now,
    }));
    await t.stores.db.insertInto('tool_objects').values(rows).execute();
  }
}

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Shop');
  await fill('note', 10_000, (i) => ({ title: `n${i}`, content: '' }));
  await fill('topic', 9_999, (i) => ({ keyword: `k${i}` }), (i) => `k${i}`);
});
after(() => t.close());

test('a full kind refuses one more object with invalid_request and stores nothing', async () => {
  const reply = await callTool(t.app, ws.headers, 'notes.save-note', { title: 'one more', content: '' });
  assert.deepEqual(reply.result?.structuredContent.error, {
    code: 'invalid_request', message: 'A workspace keeps at most 10000 objects of kind note; this one has no room for 1 more',
  });
  assert.equal(await countObjects(t.stores.db, ws.id, 'note'), 10_000);
});

test('topics.add is all or nothing at the bound; keywords already tracked need no room', async () => {
  const reply = await callTool(t.app, ws.headers, 'topics.add', { keywords: ['fresh-1', 'fresh-2', 'k1'] });
  assert.deepEqual(reply.result?.structuredContent.error, {
    code: 'invalid_request', message: 'A workspace keeps at most 10000 objects of kind topic; this one has no room for 2 more',
  });
  assert.equal(await countObjects(t.stores.db, ws.id, 'topic'), 9_999);
  const added = await toolOk(t.app, ws.headers, 'topics.add', { keywords: ['fresh-1', 'k1'] });
  assert.deepEqual([added.topics.map((x: { keyword: string }) => x.keyword), added.skipped, added.total_tracked], [['fresh-1'], ['k1'], 10_000]);
});

test('arguments past their bounds are -32602 naming the argument', async () => {
  const reply = await callTool(t.app, ws.headers, 'lists.create', { name: 'x'.repeat(201), kind: 'list' });
  assert.deepEqual(reply.error, {
    code: -32602,
    message: 'Invalid arguments for tool lists.create: name: Too big: expected string to have <=200 characters',
    data: { issues: [{ path: 'name', message: 'Too big: expected string to have <=200 characters' }] },
  });
});
