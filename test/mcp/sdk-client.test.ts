/**
 * Interoperability with the official MCP TypeScript SDK client over real HTTP, configured the way
 * header-based clients are (Claude Code --header, Cursor and VS Code "headers").
 * Fixture: one workspace with an admin key and a read:meta key; no analytics rows.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';

let t: TestApp;
let ws: TestWorkspace;
let url: URL;

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'sdk-interop', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

before(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = new URL(`http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/mcp`);
  ws = await createTestWorkspace(t.stores);
});
after(() => t.close());

test('the SDK client connects with a bearer key:secret, lists every tool and calls one', async () => {
  const client = await connect({ authorization: `Bearer ${ws.headers['x-api-key']}:${ws.headers['client-secret']}` });
  try {
    assert.equal(client.getServerVersion()?.name, 'storelens');
    const { tools, nextCursor } = await client.listTools();
    assert.equal(nextCursor, undefined);
    assert.deepEqual(tools.map((x) => x.name), TOOLS.map((x) => x.name));
    const saved = await client.callTool({ name: 'notes.save-note', arguments: { title: 'From the SDK', content: 'hello' } });
    assert.equal(saved.isError, false);
    const note = (saved.structuredContent as { note: { id: string; title: string } }).note;
    assert.equal(note.title, 'From the SDK');
    assert.deepEqual(JSON.parse((saved.content as { text: string }[])[0]!.text), saved.structuredContent);
    await client.ping();
  } finally {
    await client.close();
  }
});

test('the SDK client works with the x-api-key and client-secret headers', async () => {
  const client = await connect(ws.headers);
  try {
    const { notes } = (await client.callTool({ name: 'notes.get-notes', arguments: {} })).structuredContent as { notes: { title: string }[] };
    assert.deepEqual(notes.map((n) => n.title), ['From the SDK']);
  } finally {
    await client.close();
  }
});

test('the SDK client surfaces protocol errors as McpError codes', async () => {
  const client = await connect(ws.headers);
  try {
    await assert.rejects(client.callTool({ name: 'no.such-tool', arguments: {} }), { code: -32601, message: 'MCP error -32601: Unknown tool: no.such-tool' });
    await assert.rejects(client.callTool({ name: 'topics.add', arguments: { keywords: [] } }), (error: Error & { code?: number }) => error.code === -32602);
  } finally {
    await client.close();
  }
});

test('the SDK client sees a permission failure as an isError result', async () => {
  const client = await connect(await ws.keyHeaders(['read:meta']));
  try {
    const result = await client.callTool({ name: 'analytics.profit-summary', arguments: {} });
    assert.equal(result.isError, true);
    assert.deepEqual(result.structuredContent, { error: { code: 'permission_denied', message: 'You do not have access to profit metrics' } });
  } finally {
    await client.close();
  }
});

test('the SDK client gets -32001 for wrong credentials', async () => {
  const client = await connect({ authorization: 'Bearer sl_wrong:slsec_wrong' });
  try {
    await assert.rejects(client.listTools(), { code: -32001, message: 'MCP error -32001: Invalid API key' });
  } finally {
    await client.close();
  }
});
