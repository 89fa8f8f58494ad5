import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { commands } from '../../src/cli/commands/index.ts';

const read = (file: string) => fs.readFileSync(file, 'utf8');
const sourceFiles = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
  const full = path.join(dir, entry.name);
  if (entry.isDirectory()) return sourceFiles(full);
  return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
});

/** Every variable name the service reads: `env.NAME`, `env['NAME']` and names handed to the env readers as strings. */
function environmentVariablesRead(): string[] {
  const names = new Set<string>();
  for (const file of sourceFiles('src')) {
    const text = read(file);
    for (const match of text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)\b|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]|['"](STORELENS_[A-Z0-9_]+)['"]/g)) {
      names.add(match[1] ?? match[2] ?? match[3]);
    }
  }
  return [...names].sort();
}

test('every environment variable the service reads is in docs/configuration.md', () => {
  const doc = read('docs/configuration.md');
  const read_ = environmentVariablesRead();
  assert.ok(read_.includes('STORELENS_DATA_DIR') && read_.length > 30, `found only ${read_.length} variables: the scan is broken`);
  const missing = read_.filter((name) => !doc.includes(`\`${name}\``));
  assert.deepEqual(missing, []);
});

/** The commands a doc names in code spans, `workflow enable\|disable ...` naming both. */
function commandsNamed(doc: string): Set<string> {
  const named = new Set<string>();
  for (const [, first, rest] of doc.matchAll(/`([a-z][a-z-]*)(?: ([a-z][a-z-]*(?:\\\|[a-z][a-z-]*)*))?/g)) {
    named.add(first);
    for (const second of rest?.split('\\|') ?? []) named.add(`${first} ${second}`);
  }
  return named;
}

test('every command of the CLI is in docs/cli.md', () => {
  const named = commandsNamed(read('docs/cli.md'));
  const missing = [...Object.keys(commands), 'start'].filter((name) => !named.has(name));
  assert.deepEqual(missing, []);
});

test('README stays a page: under 120 lines, with the two commands a newcomer needs', () => {
  const readme = read('README.md');
  assert.ok(readme.split('\n').length < 120, `README.md has ${readme.split('\n').length} lines`);
  assert.match(readme, /^npm ci && npm start/m);
  assert.match(readme, /^npm test/m);
});

test('every doc the README links to exists, and every doc is linked from the README', () => {
  const readme = read('README.md');
  const linked = [...readme.matchAll(/\]\((docs\/[a-z0-9-]+\.md)\)/g)].map((match) => match[1]);
  for (const doc of linked) assert.ok(fs.existsSync(doc), `${doc} is linked but missing`);
  const docs = fs.readdirSync('docs').filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  assert.deepEqual(docs.filter((doc) => !linked.includes(doc)), []);
});
