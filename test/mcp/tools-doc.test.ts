/** docs/tools.md is generated from the registry; this fails when it was not regenerated (no fixture). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { renderToolsMarkdown } from '../../src/mcp/docs.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { DATA_SOURCES } from '../../src/mcp/tools/data-sources.ts';
import { workspacesListTool } from '../../src/mcp/tools/families/workspaces.ts';

test('the committed docs/tools.md matches the tool registry (run npm run docs:tools)', () => {
  const committed = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/tools.md'), 'utf8');
  assert.equal(committed, renderToolsMarkdown());
});

test('docs/tools.md documents every tool', () => {
  const doc = renderToolsMarkdown();
  for (const tool of TOOLS) assert.ok(doc.includes(`### \`${tool.name}\``), tool.name);
});

test('docs/tools.md says where every tool\'s data come from, and names no tool that does not exist', () => {
  const names = [workspacesListTool.name, ...TOOLS.map((t) => t.name)];
  assert.deepEqual(names.filter((name) => !DATA_SOURCES.has(name)), []);
  assert.deepEqual([...DATA_SOURCES.keys()].filter((name) => !names.includes(name)), []);
});
