/** docs/tools.md is generated from the registry; this fails when it was not regenerated (no fixture). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { renderToolsMarkdown } from '../../src/mcp/docs.ts';
import { TOOLS, toolList } from '../../src/mcp/tools/index.ts';
import { workspacesListTool } from '../../src/mcp/tools/families/workspaces.ts';
import { appOfTool } from '../../src/mcp/apps/index.ts';

test('the committed docs/tools.md matches the tool registry (run npm run docs:tools)', () => {
  const committed = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/tools.md'), 'utf8');
  assert.equal(committed, renderToolsMarkdown());
});

test('docs/tools.md documents every tool', () => {
  const doc = renderToolsMarkdown();
  for (const tool of TOOLS) assert.ok(doc.includes(`### \`${tool.name}\``), tool.name);
});

test('every tool says where its data come from, in docs/tools.md and not in tools/list', () => {
  const doc = renderToolsMarkdown();
  for (const tool of [workspacesListTool, ...TOOLS]) {
    assert.match(tool.dataSource, /^[A-Z`].{10,}\.$/, tool.name);
    const section = doc.slice(doc.indexOf(`### \`${tool.name}\``)).split('\n### ')[0]!;
    assert.ok(section.includes(`\n\nData: ${tool.dataSource}\n`), tool.name);
  }
  for (const listed of toolList(true)) {
    // `_meta` only links a tool's app (test/mcp/apps.test.ts).
    assert.deepEqual(Object.keys(listed), ['name', 'description', 'inputSchema', 'outputSchema', 'annotations', ...(appOfTool(listed.name) ? ['_meta'] : [])]);
  }
});
