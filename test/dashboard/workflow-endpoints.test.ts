/**
 * The workflows view's endpoints over HTTP. Fixture: workspace "Shop" with a daily workflow that
 * saves a note ("Morning note") drafted through the tool endpoint, and an incomplete metric
 * threshold ("Old rule", no operator or value) stored as a version before the rules could have.
 * Personas: owen (owner), vic (viewer).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { toolOk } from '../mcp/rpc.ts';
import { createObject } from '../../src/store/app/tool-objects.ts';
import { loadConfig } from '../../src/config.ts';
import { createUser, signIn, type Signed } from './helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let workflowId: string;
let oldId: number;
const as: Record<string, Signed> = {};

before(async () => {
  t = await startTestApp({ workflows: { ...loadConfig({}).workflows, checkMs: 0 } });
  shop = await createTestWorkspace(t.stores, 'Shop');
  await createUser(t, 'owen@example.com', shop.id);
  await createUser(t, 'vic@example.com', shop.id, ['--role', 'viewer']);
  for (const name of ['owen', 'vic']) as[name] = await signIn(t, `${name}@example.com`);
  workflowId = (await toolOk(t.app, shop.headers, 'workflows.create', { name: 'Morning note', trigger: { type: 'daily_schedule' }, actions: [{ type: 'save_note' }] })).workflow.id;
  oldId = (await createObject(t.stores.db, shop.id, 'workflow', { name: 'Old rule', trigger: { type: 'metric_threshold', metric: 'roas' }, actions: [{ type: 'save_note', target: '' }], enabled: false })).id;
});
after(() => t.close());

const url = (id: string | number, action: string) => `/dashboard/api/workflows/${id}/${action}?workspace=${shop.id}`;

test('owners enable, run and disable; each run is an execution every member reads, newest first', async () => {
  assert.deepEqual(await as.vic!.send('POST', url(workflowId, 'enable')), { status: 403, body: { message: 'Only owners of this workspace can do this' } });
  const enabled = await as.owen!.send('POST', url(workflowId, 'enable'));
  assert.deepEqual([enabled.status, enabled.body.workflow.enabled], [200, true]);
  const first = await as.owen!.send('POST', url(workflowId, 'run'));
  const second = await as.owen!.send('POST', url(workflowId, 'run'));
  assert.deepEqual([first.status, first.body.execution.status, second.body.execution.outcome.actions[0].status], [200, 'fired', 'done']);
  const read = await as.vic!.get(url(workflowId, 'executions'));
  assert.deepEqual([read.status, read.body.total, read.body.executions.map((e: any) => e.id)], [200, 2, [second.body.execution.id, first.body.execution.id]]);
  const listed = await as.vic!.get(`/dashboard/api/workflows?workspace=${shop.id}`);
  assert.deepEqual(listed.body.workflows.map((w: any) => [w.name, w.enabled]), [['Morning note', true], ['Old rule', false]]);
  const disabled = await as.owen!.send('POST', url(workflowId, 'disable'));
  assert.deepEqual([disabled.status, disabled.body.workflow.enabled], [200, false]);
  assert.deepEqual(await as.owen!.send('POST', url(workflowId, 'run')), { status: 409, body: { message: `Workflow ${workflowId} is disabled: enable it first` } });
  const audit = await toolOk(t.app, shop.headers, 'audit-log.get-log', { limit: 1 });
  assert.deepEqual(audit.entries.map((e: any) => [e.actor, e.action, e.target]), [['dashboard:owen@example.com', 'workflow.disable', `workflow:${workflowId}`]]);
});

test('an incomplete workflow is refused with 400 naming the field; unknown and malformed ids are 404 and 400', async () => {
  assert.deepEqual(await as.owen!.send('POST', url(oldId, 'enable')), {
    status: 400,
    body: { message: 'Workflow is incomplete: trigger.operator: operator is required for a metric_threshold trigger' },
  });
  assert.deepEqual(await as.owen!.send('POST', url(999, 'enable')), { status: 404, body: { message: 'Workflow 999 not found' } });
  assert.deepEqual(await as.vic!.get(url('x1', 'executions')), { status: 400, body: { message: 'Workflow id must be numeric' } });
});
