/**
 * Every tool's outputSchema against what the tool returns: the official SDK client validates each
 * result's structuredContent against the schema tools/list declared (and throws on a mismatch),
 * and here it calls every tool once with arguments that succeed (every-tool.ts). The result must
 * also have the fields each tool's output declares below the members, which docs/tools.md lists.
 * Fixture: one workspace with the demo shop's last 14 days (120 sessions a day), a few sessions
 * of an A/B test "hero" (variants A and B), two days of weather for Berlin, one draft form.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { seedDemo } from '../../src/cli/demo/seed.ts';
import { createObject } from '../../src/store/app/tool-objects.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { everyToolPlan } from './every-tool.ts';

const OUTPUTS = new Map(TOOLS.map((tool) => [tool.name, tool.output]));

let t: TestApp;
let ws: TestWorkspace;
let client: Client;
let range: { date_from: string; date_to: string };

before(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  ws = await createTestWorkspace(t.stores, 'Demo shop');
  const demo = await seedDemo(t.stores.ch, { workspaceId: ws.id, days: 14, sessionsPerDay: 120 });
  range = { date_from: demo.start_date, date_to: demo.end_date };
  const hero = (session_id: number, variant: string) => ({
    store_id: ws.id, session_id, visitor_id: session_id, dt: `${demo.end_date} 09:00:00.000`, name: 'pageview',
    entry_meta_keys: ['ab_test', 'ab_variant'], entry_meta_values: ['hero', variant],
  });
  await insertRows(t.stores, 'events', [hero(9_000_001, 'A'), hero(9_000_002, 'B'), hero(9_000_003, 'B')]);
  await insertRows(t.stores, 'weather_daily', [
    { store_id: ws.id, dt: demo.start_date, country_code: 'DE', city: 'Berlin', temperature_c: 3, precipitation_mm: 0, condition: 'clear', version: 1 },
    { store_id: ws.id, dt: demo.end_date, country_code: 'DE', city: 'Berlin', temperature_c: 1, precipitation_mm: 4, condition: 'rain', version: 1 },
  ]);
  await createObject(t.stores.db, ws.id, 'form', { name: 'Newsletter', status: 'draft', fields: [] });
  const url = new URL(`http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/mcp`);
  client = new Client({ name: 'output-schemas', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: ws.headers } }));
});
after(async () => {
  await client?.close();
  await t.close();
});

test('every tool declares an outputSchema', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.filter((tool) => tool.outputSchema?.type !== 'object').map((tool) => tool.name), []);
});

test('every tool\'s result satisfies its outputSchema in the SDK client', async () => {
  await client.listTools();
  const plan = everyToolPlan(range);
  assert.deepEqual(plan.map((call) => call.name).sort(), TOOLS.map((tool) => tool.name).sort());
  const ids: Record<string, string> = {};
  for (const call of plan) {
    const result = await client.callTool({ name: call.name, arguments: call.args(ids) });
    assert.equal(result.isError, false, `${call.name}: ${JSON.stringify(result.structuredContent)}`);
    const fields = OUTPUTS.get(call.name)!.safeParse(result.structuredContent);
    assert.ok(fields.success, `${call.name}: ${fields.error?.message}`);
    call.keep?.(result.structuredContent, ids);
  }
});

test('a refusal satisfies the outputSchema too', async () => {
  const result = await client.callTool({ name: 'notes.update', arguments: { id: '999999', title: 'x' } });
  assert.deepEqual(result.structuredContent, { error: { code: 'not_found', message: 'Note 999999 not found' } });
});
