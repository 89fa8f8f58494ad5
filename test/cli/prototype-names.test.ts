/**
 * Command and setting names are looked up in tables: a name like `constructor` or `__proto__`
 * must be unknown, never a member of Object.prototype. Runs the commands in-process on a test app
 * (one workspace, no analytics rows).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { runCommand } from '../../src/cli/run-command.ts';
import { createLogger } from '../../src/log.ts';

let t: TestApp;
let shop: TestWorkspace;
before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
});
after(() => t.close());

const run = (...argv: string[]) => runCommand({ config: t.config, stores: t.stores, logger: createLogger('silent'), progress: () => {} }, argv);

describe('prototype names on the command line', () => {
  test('are unknown commands', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'key constructor']) {
      const outcome = await run(...name.split(' '));
      assert.match((outcome as { error: { message: string } }).error.message, /^Unknown command: /, name);
    }
  });

  test('are unknown settings', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const outcome = await run('settings', 'set', '--workspace', String(shop.id), `${name}=1`);
      assert.match((outcome as { error: { message: string } }).error.message, new RegExp(`^Unknown setting: ${name}\\. Known settings: `), name);
    }
  });
});
