/**
 * Fixture: a fresh data dir with no server running. The CLI is spawned once as a user would run
 * it (workspace create, storefront set); the remaining cases run the same command line through
 * runCommand in this process, against the same data dir's app database.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { migrateAppDb, openAppDb, type AppDatabase } from '../../src/store/app-db.ts';
import { runCommand } from '../../src/cli/run-command.ts';
import type { Stores } from '../../src/store/index.ts';

const run = promisify(execFile);
let dataDir: string;
let workspaceId: number;
let db: AppDatabase;

async function spawnCli(...args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    env: { ...process.env, STORELENS_DATA_DIR: dataDir, STORELENS_DEMO: '0' },
  });
  return JSON.parse(stdout);
}

async function inProcess(...argv: string[]) {
  const config = loadConfig({}, { dataDir, demo: false });
  const stores = { db, ch: null, close: async () => undefined } as unknown as Stores;
  return runCommand({ config, stores, logger: createLogger('silent'), progress: () => undefined }, argv);
}

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-cli-'));
  workspaceId = ((await spawnCli('workspace', 'create', '--name', 'Shop')) as { workspace_id: number }).workspace_id;
});

after(async () => {
  await db?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const defaults = { marketing_version: 'v1', session_attempts: 10, daily_attempts: 500, coverage_max_age_days: 30, experiment: null };

test('storefront set stores the verified origin with default versions and quotas, then changes only what is given', async () => {
  const created = await spawnCli('storefront', 'set', '--workspace', String(workspaceId), '--origin', 'https://shop.example/', '--consent-version', 'c2');
  assert.deepEqual(created, { workspace_id: workspaceId, origins: ['https://shop.example'], consent_version: 'c2', ...defaults });

  db = await openAppDb({ databaseUrl: null, dataDir });
  await migrateAppDb(db);
  const changed = await inProcess('storefront', 'set', '--workspace', String(workspaceId), '--marketing-version', 'm3', '--daily-attempts', '50', '--experiment', 'hero', '--experiment-variants', '3');
  assert.deepEqual(changed, {
    result: { ...defaults, workspace_id: workspaceId, origins: ['https://shop.example'], consent_version: 'c2', marketing_version: 'm3', daily_attempts: 50, experiment: { id: 'hero', variants: 3 } },
  });
});

test('storefront set refuses an origin with a path, an unknown workspace, a first storefront without origin, and anything past a bound (the dashboard\'s bounds)', async () => {
  const other = await db.insertInto('workspaces')
    .values({ name: 'Other', currency: 'USD', timezone: 'UTC', pixel_id: 'px_other', settings: '{}', created_at: new Date().toISOString() })
    .returning('id').executeTakeFirstOrThrow();
  const cases: [string[], string][] = [
    [['--workspace', String(workspaceId), '--origin', 'https://shop.example/shop'], '--origin must be an origin like https://shop.example, got: https://shop.example/shop'],
    [['--workspace', '999', '--origin', 'https://shop.example'], 'Workspace 999 not found'],
    [['--workspace', String(other.id), '--consent-version', 'c1'], '--origin is required'],
    [['--workspace', String(workspaceId), '--experiment', 'hero', '--experiment-variants', '1'], '--experiment-variants must be an integer from 2 to 10'],
    [['--workspace', String(workspaceId), '--experiment', 'hero', '--experiment-variants', '11'], '--experiment-variants must be an integer from 2 to 10'],
    [['--workspace', String(workspaceId), '--session-attempts', '1001'], '--session-attempts must be an integer from 1 to 1000'],
    [['--workspace', String(workspaceId), '--daily-attempts', '1000001'], '--daily-attempts must be an integer from 1 to 1000000'],
    [['--workspace', String(workspaceId), '--coverage-max-age-days', '3651'], '--coverage-max-age-days must be an integer from 1 to 3650'],
    [['--workspace', String(workspaceId), '--origin', Array.from({ length: 21 }, (_, i) => `https://s${i}.example`).join(',')], '--origin takes at most 20 origins'],
    [['--workspace', String(workspaceId), '--origin', `https://${'s'.repeat(200)}.example`], '--origin: an origin is at most 200 characters'],
  ];
  for (const [args, message] of cases) assert.deepEqual(await inProcess('storefront', 'set', ...args), { error: { message } });
});
