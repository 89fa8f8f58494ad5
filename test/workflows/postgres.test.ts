/**
 * The engine's claim on PostgreSQL: two engines, each with its own connection pool to one
 * throwaway database (as two server processes would have), race for the same due times; each due
 * time is evaluated once. Fixture: workspace "Shop" (UTC) with a daily workflow that saves a note,
 * enabled on 2026-11-20.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, createThrowawayPostgres, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { bearer, toolOk } from '../mcp/rpc.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openAppDb, type AppDatabase } from '../../src/store/app-db.ts';
import { createWorkflowEngine } from '../../src/workflows/engine.ts';
import { enableWorkflow } from '../../src/workflows/manage.ts';

let t: TestApp;
let shop: TestWorkspace;
let postgres: Awaited<ReturnType<typeof createThrowawayPostgres>>;
let otherPool: AppDatabase;
const config = { ...loadConfig({}).workflows, checkMs: 0 };

before(async () => {
  postgres = await createThrowawayPostgres('workflows');
  t = await startTestApp({ databaseUrl: postgres.url, workflows: config });
  otherPool = await openAppDb({ databaseUrl: postgres.url, dataDir: t.config.dataDir });
  shop = await createTestWorkspace(t.stores, 'Shop');
});
after(async () => {
  await otherPool?.destroy();
  await t?.close();
  await postgres?.drop();
});

test('on PostgreSQL two engines with their own connections evaluate each due time once', async () => {
  const { workflow } = await toolOk(t.app, bearer(shop.headers), 'workflows.create', { name: 'Daily', trigger: { type: 'daily_schedule' }, actions: [{ type: 'save_note' }] });
  await enableWorkflow(t.stores.db, shop.id, Number(workflow.id), 'test', new Date('2026-11-20T00:00:00Z'));
  const logger = createLogger('silent');
  const one = createWorkflowEngine({ stores: t.stores, config, logger });
  const two = createWorkflowEngine({ stores: { ...t.stores, db: otherPool }, config, logger });
  const days = ['2026-11-21', '2026-11-22', '2026-11-23'];
  const recorded = [];
  for (const day of days) {
    const at = Date.parse(`${day}T09:00:00Z`);
    recorded.push(...(await Promise.all([one.evaluateDue(at), two.evaluateDue(at), one.evaluateDue(at), two.evaluateDue(at)])).flat());
  }
  assert.deepEqual(recorded.map((e) => [e.data.due, e.data.status]).sort(), days.map((d) => [`daily:${d}`, 'fired']));
  const { executions } = await toolOk(t.app, bearer(shop.headers), 'workflows.get-executions', { workflow_id: workflow.id });
  assert.deepEqual(executions.map((e: any) => e.due), days.map((d) => `daily:${d}`));
  assert.equal((await toolOk(t.app, bearer(shop.headers), 'notes.get-notes', {})).notes.length, 3);
});
