/**
 * Generated bad arguments for every tool of the registry (src/mcp/tools/index.ts), read from each
 * tool's own input schema: every argument, nested ones included, gets garbage, prototype names,
 * unicode with lone surrogates, huge and negative numbers, empty strings and arrays or objects
 * where scalars are expected, mixed with valid values so that the tool body runs too; arguments
 * objects also get members named after prototype members. Every answer must be JSON-RPC's -32602
 * with its reasons, or a tool result (an error result carrying one of the documented codes); never
 * -32603 and never another code.
 * Afterwards, whatever the write tools stored must be within their bounds.
 * Fixture: one workspace with a facebook session that converts and a meta ad row today, a note
 * and a list; an admin key and a read:meta + write:drafts key.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { TOOLS, jsonSchemaOf } from '../../src/mcp/tools/index.ts';
import { formatDay, formatTimestamp } from '../../src/kit/calendar/days.ts';
import { PROTOTYPE_NAMES, garbage, hostileArgs, validArgs } from './arbitraries.ts';
import { MAX_OBJECTS_PER_KIND } from '../../src/mcp/tools/kit/objects.ts';
import { postMcp, toolOk } from './rpc.ts';

let t: TestApp;
let shop: TestWorkspace;
let limited: Record<string, string>;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  limited = await shop.keyHeaders(['read:meta', 'write:drafts']);
  const now = Date.now() - 3_600_000;
  await insertRows(t.stores, 'events', [
    { store_id: shop.id, dt: formatTimestamp(now), name: 'pageview', session_id: 1, visitor_id: 1, adv_source: 'facebook', adv_ad_id: 'a1', pathname: '/' },
  ]);
  await insertRows(t.stores, 'conversions', [
    { store_id: shop.id, dt: formatTimestamp(now + 60_000), name: 'purchase', session_id: 1, visitor_id: 1, transaction_id: 'T1', transaction_gross_revenue: 100 },
  ]);
  await insertRows(t.stores, 'ads', [{ store_id: shop.id, dt: formatDay(now), source: 'meta', ad_id: 'a1', spend: 5, impressions: 10, clicks: 1, version: 1 }]);
  await toolOk(t.app, shop.headers, 'notes.save-note', { title: 'n', content: '' });
  await toolOk(t.app, shop.headers, 'lists.create', { name: 'l', kind: 'list' });
});
after(() => t.close());

const TOOL_ERROR_CODES = ['permission_denied', 'not_found', 'invalid_request', 'conflict'];
let id = 1;

async function expectContractAnswer(name: string, args: unknown, headers: Record<string, string>) {
  const reply = await postMcp(t.app, { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } }, headers);
  const where = `${name} ${reply.text.slice(0, 300)}`;
  assert.equal(reply.status, 200, where);
  const { body } = reply;
  if (body.error) {
    assert.equal(body.error.code, -32602, where);
    assert.equal(typeof body.error.message, 'string', where);
    return;
  }
  const result = body.result;
  assert.ok(result && typeof result.structuredContent === 'object', where);
  assert.deepEqual(result.content, [{ type: 'text', text: JSON.stringify(result.structuredContent) }], where);
  if (result.isError) {
    assert.ok(TOOL_ERROR_CODES.includes(result.structuredContent.error.code), where);
    assert.equal(typeof result.structuredContent.error.message, 'string', where);
  }
}

/** Valid arguments with one named member (top level) replaced by garbage. */
function oneSpoiled(tool: (typeof TOOLS)[number]) {
  const names = Object.keys(jsonSchemaOf(tool.input).properties ?? {});
  if (names.length === 0) return validArgs(tool);
  return fc.tuple(validArgs(tool), fc.constantFrom(...names, ...PROTOTYPE_NAMES), garbage).map(([args, name, bad]) => {
    Object.defineProperty(args, name, { value: bad, enumerable: true, writable: true, configurable: true });
    return args;
  });
}

/**
 * What the write tools stored while being fuzzed stays within their bounds: no kind past
 * MAX_OBJECTS_PER_KIND, no list in a stored object longer than the longest a tool takes (200), no
 * text longer than the longest (20,000 characters), no key named after a prototype member.
 */
function expectWithinBounds(value: unknown, where: string): void {
  if (typeof value === 'string') assert.ok(value.length <= 20_000, `${where}: text of ${value.length}`);
  else if (Array.isArray(value)) {
    assert.ok(value.length <= 200, `${where}: list of ${value.length}`);
    value.forEach((item, i) => expectWithinBounds(item, `${where}[${i}]`));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      assert.ok(!['__proto__', 'constructor', 'prototype'].includes(key) || typeof item !== 'object', `${where}.${key}`);
      expectWithinBounds(item, `${where}.${key}`);
    }
  }
}

describe('generated bad arguments on every tool', () => {
  assert.ok(TOOLS.length >= 50);
  for (const tool of TOOLS) {
    test(`${tool.name}: garbage in any argument gets -32602 or a tool result, never -32603`, async () => {
      const properties = Object.keys(jsonSchemaOf(tool.input).properties ?? {}).length;
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(hostileArgs(tool), oneSpoiled(tool), validArgs(tool)),
          fc.boolean(),
          async (args, admin) => expectContractAnswer(tool.name, args, admin ? shop.headers : limited),
        ),
        { numRuns: Math.min(40, 10 + properties * 4) },
      );
    });
  }
});

test('nothing the write tools stored while fuzzed is beyond a bound', async () => {
  const rows = await t.stores.db.selectFrom('tool_objects').select(['kind', 'data']).where('workspace_id', '=', shop.id).execute();
  assert.ok(rows.length > 10, 'the fuzzed writes stored objects');
  const perKind = new Map<string, number>();
  for (const row of rows) {
    perKind.set(row.kind, (perKind.get(row.kind) ?? 0) + 1);
    expectWithinBounds(JSON.parse(row.data), row.kind);
  }
  assert.ok([...perKind.values()].every((n) => n <= MAX_OBJECTS_PER_KIND));
});
