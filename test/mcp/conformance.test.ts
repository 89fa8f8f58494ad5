/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, the newest
 * published; server mode) against this server, listening on a free port: every scenario of the
 * suite, pending ones included (`--suite all`), for each revision the suite knows that the server
 * speaks (2025-06-18 and 2025-11-25; it has no server scenario for 2025-03-26 and does not know
 * 2026-07-28, which test/mcp/revision-2026.test.ts covers with the official v2 client). The suite needs Node 22; it runs with
 * the Node 22 binary of scripts/node22.ts, installed beside it on first use (not a dependency of
 * the project, which runs on Node 20 too), while the service stays on the Node that runs the
 * tests. The suite sends no auth headers, so it connects to /mcp with the key in the URL. Scenarios for
 * features this server does not have are in conformance-expected-failures.yml; the suite
 * itself fails when one of those starts passing or anything else fails.
 * Fixture: one workspace with an admin key; no analytics rows.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestWorkspace, startTestApp, type TestApp } from '../helper.ts';
import { installedDir, node22 } from '../../scripts/node22.ts';

const SUITE_PACKAGE = '@modelcontextprotocol/conformance@0.1.16';
const SUITE = path.join(installedDir(SUITE_PACKAGE), 'dist', 'index.js');
const EXPECTED_FAILURES = path.join(import.meta.dirname, 'conformance-expected-failures.yml');

let t: TestApp;
let url: string;
let outputDir: string;
let nodeBinary: string;

before(async () => {
  nodeBinary = node22([SUITE_PACKAGE]);
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const ws = await createTestWorkspace(t.stores);
  const credentials = new URLSearchParams({ api_key: ws.headers['x-api-key']!, client_secret: ws.headers['client-secret']! });
  url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/mcp?${credentials}`;
  outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-conformance-'));
});
after(async () => {
  await t.close();
  fs.rmSync(outputDir, { recursive: true, force: true });
});

/** The revisions the suite has server scenarios for, each of which the server speaks. */
const SPEC_VERSIONS = ['2025-06-18', '2025-11-25'];

function runSuite(specVersion: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const args = ['server', '--url', url, '--suite', 'all', '--spec-version', specVersion, '--expected-failures', EXPECTED_FAILURES, '-o', outputDir];
    const child = spawn(nodeBinary, [SUITE, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The scenarios that apply to a server of tools and app resources, and the revisions they belong to. */
const APPLICABLE = [
  { line: '✓ server-initialize: 1 passed, 0 failed', versions: SPEC_VERSIONS },
  { line: '✓ ping: 1 passed, 0 failed', versions: SPEC_VERSIONS },
  { line: '✓ tools-list: 1 passed, 0 failed', versions: SPEC_VERSIONS },
  { line: '✓ resources-list: 1 passed, 0 failed', versions: SPEC_VERSIONS },
  { line: '✓ dns-rebinding-protection: 2 passed, 0 failed', versions: ['2025-11-25'] },
];

for (const specVersion of SPEC_VERSIONS) {
  test(`passes every conformance scenario of ${specVersion} that applies to a server of tools and app resources`, async () => {
    const { code, output } = await runSuite(specVersion);
    assert.equal(code, 0, output);
    for (const { line } of APPLICABLE.filter((scenario) => scenario.versions.includes(specVersion))) {
      assert.ok(output.includes(line), `missing "${line}" in:\n${output}`);
    }
  });
}
