/**
 * The vocabulary is shared by the server and the browser bundles, so it must stay a module that
 * imports nothing: esbuild bundles it as it is, and no list needs a copy on either side.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { bundleBrowserCode } from '../../src/kit/browser-bundle.ts';
import { BREAKDOWNS, BREAKDOWN_PROPERTIES, NAMED_BREAKDOWNS, drillBelow } from '../../src/kit/vocabulary.ts';
import { DIMENSIONS } from '../../src/analytics/dimensions.ts';

const source = fs.readFileSync(new URL('../../src/kit/vocabulary.ts', import.meta.url), 'utf8');

test('the vocabulary module imports nothing, statically or at run time', () => {
  assert.doesNotMatch(source, /^\s*(import|export)\s[^;]*\sfrom\s/m);
  assert.doesNotMatch(source, /^\s*import\s*['"]/m);
  assert.doesNotMatch(source, /\bimport\s*\(|\brequire\s*\(/);
});

test('esbuild bundles the vocabulary for the browser as it is, with nothing beside it', async () => {
  const dir = fs.mkdtempSync('/tmp/vocabulary-');
  fs.writeFileSync(`${dir}/app.css`, '');
  const entry = new URL('../../src/kit/vocabulary.ts', import.meta.url).pathname;
  const bundle = await bundleBrowserCode({ script: entry, stylesheet: `${dir}/app.css`, format: 'esm' });
  assert.match(bundle.js, /last_click/);
  assert.doesNotMatch(bundle.js, /\bimport\b|\brequire\(/);
  fs.rmSync(dir, { recursive: true });
});

test('every drill-down level is a breakdown, the named ones drill down to the ad, and every breakdown has its SQL', () => {
  for (const b of BREAKDOWNS) {
    const next = drillBelow(b);
    if (next !== undefined) assert.ok(BREAKDOWNS.includes(next), `${b} drills down to ${next}`);
  }
  assert.deepEqual(NAMED_BREAKDOWNS, ['campaign', 'adgroup', 'ad']);
  assert.deepEqual(['source', ...NAMED_BREAKDOWNS.slice(0, -1)].map(drillBelow), NAMED_BREAKDOWNS);
  assert.equal(drillBelow('ad'), undefined);
  assert.equal(drillBelow('valueOf'), undefined);
  assert.deepEqual(Object.keys(DIMENSIONS), Object.keys(BREAKDOWN_PROPERTIES));
});
