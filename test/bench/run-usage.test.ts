import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { SUITES } from '../../bench/suites/index.ts';

const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], { encoding: 'utf8' });

test('npm run bench -- --help lists every suite and runs none', () => {
  const result = run('--help');
  assert.equal(result.status, 0, result.stderr);
  for (const suite of SUITES) assert.match(result.stdout, new RegExp(`\\b${suite.name}\\b`));
  assert.doesNotMatch(result.stdout, /seeding|##/);
});

test('an unknown suite is refused with the known ones named', () => {
  const result = run('no-such-suite');
  assert.equal(result.status, 2);
  assert.match(result.stderr, /unknown suite\(s\): no-such-suite; known: data-api/);
});
