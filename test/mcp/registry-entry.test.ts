/**
 * server.json for the MCP registry (docs/mcp.md, "Registry entry"): served at
 * /.well-known/mcp/server.json, valid against the registry's schema 2025-12-11
 * (test/fixtures/server.schema.json), naming both tool URLs under the public URL.
 * Fixture: no workspace; the app's public URL is https://analytics.shop.example.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { startTestApp, type TestApp } from '../helper.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const schema = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../fixtures/server.schema.json'), 'utf8'));
const validate = addFormats(new Ajv({ allErrors: true })).compile(schema);

let t: TestApp;

before(async () => {
  t = await startTestApp({ publicUrl: 'https://analytics.shop.example' });
});
after(() => t.close());

async function entry() {
  const r = await t.app.inject({ method: 'GET', url: '/.well-known/mcp/server.json', headers: { origin: 'https://registry.example' } });
  assert.equal(r.statusCode, 200);
  assert.equal(r.headers['access-control-allow-origin'], '*');
  return r.json();
}

test('server.json validates against the registry schema 2025-12-11', async () => {
  const body = await entry();
  assert.equal(validate(body), true, JSON.stringify(validate.errors));
  assert.equal(body.$schema, 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
});

test('it names the server in the public host\'s reverse-DNS namespace and both tool URLs as streamable-http remotes', async () => {
  const body = await entry();
  assert.equal(body.name, 'example.shop.analytics/storelens');
  assert.equal(body.version, '0.1.0');
  assert.deepEqual(body.remotes.map((remote: { type: string; url: string }) => [remote.type, remote.url]), [
    ['streamable-http', 'https://analytics.shop.example/mcp'],
    ['streamable-http', 'https://analytics.shop.example/mcp/oauth'],
  ]);
  assert.deepEqual(body.remotes[0].headers.map((header: { name: string; isSecret: boolean }) => [header.name, header.isSecret]), [['x-api-key', true], ['client-secret', true]]);
  assert.equal(body.remotes[1].headers, undefined);
});

test('it is made from the tool registry: the tools, their count and the protocol revisions', async () => {
  const body = await entry();
  const provided = body._meta['io.modelcontextprotocol.registry/publisher-provided'];
  assert.deepEqual(provided.tools, TOOLS.map((tool) => tool.name));
  assert.deepEqual(provided.protocolVersions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
  assert.match(body.description, new RegExp(`: ${TOOLS.length} tools `));
});

test('the schema check refuses what the registry refuses: a long description, a name without a namespace, a remote without a URL', async () => {
  const body = await entry();
  for (const broken of [
    { ...body, description: 'x'.repeat(101) },
    { ...body, name: 'storelens' },
    { ...body, remotes: [{ type: 'streamable-http' }] },
  ]) {
    assert.equal(validate(broken), false);
  }
});
