/**
 * `creator-program apply|unapply` through the command line (in the test process, as without a
 * server). Fixture: workspaces "Shop" and "Other shop", each with a percentage program drafted
 * through creators.create-program.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { toolOk } from '../mcp/rpc.ts';
import { cli } from '../dashboard/helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let other: TestWorkspace;
let programId: string;
let othersProgramId: string;

const COMMISSION = { type: 'percentage', rate_percent: 10 };
const run = (action: string, workspace: TestWorkspace, program: string) =>
  cli(t, ['creator-program', action, '--workspace', String(workspace.id), '--program', program]);

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores, 'Shop');
  other = await createTestWorkspace(t.stores, 'Other shop');
  programId = (await toolOk(t.app, shop.headers, 'creators.create-program', { name: 'Ten percent', commission: COMMISSION })).program.id;
  othersProgramId = (await toolOk(t.app, other.headers, 'creators.create-program', { name: 'Theirs', commission: COMMISSION })).program.id;
});
after(() => t.close());

test('apply records applied and when, again changes nothing; unapply clears both; each change is audited', async () => {
  const applied = await run('apply', shop, programId);
  assert.ok('result' in applied, JSON.stringify(applied));
  const program = (applied.result as any).program;
  assert.deepEqual({ ...program, applied_at: typeof program.applied_at }, { id: programId, name: 'Ten percent', commission: COMMISSION, applied: true, applied_at: 'string' });
  assert.ok(Math.abs(Date.parse(program.applied_at) - Date.now()) < 600_000, program.applied_at);
  assert.deepEqual(await run('apply', shop, programId), { result: { program } });
  const { programs } = await toolOk(t.app, shop.headers, 'creators.get-programs', {});
  assert.deepEqual([programs[0].applied, programs[0].applied_at], [true, program.applied_at]);

  assert.deepEqual(await run('unapply', shop, programId), { result: { program: { ...program, applied: false, applied_at: null } } });
  assert.deepEqual(await run('unapply', shop, programId), { error: { message: `Creator program ${programId} is not applied` } });

  const { entries } = await toolOk(t.app, shop.headers, 'audit-log.get-log', {});
  const changes = entries.filter((e: any) => e.action.startsWith('creator_program.'));
  assert.deepEqual(changes.map((e: any) => [e.actor, e.action, e.target]).sort(), [
    ['cli', 'creator_program.apply', `creator_program:${programId}`],
    ['cli', 'creator_program.unapply', `creator_program:${programId}`],
  ]);
});

test('an unknown program, another workspace\'s program and a malformed id are refused', async () => {
  assert.deepEqual(await run('apply', shop, '99999'), { error: { message: 'Creator program 99999 not found' } });
  assert.deepEqual(await run('apply', shop, othersProgramId), { error: { message: `Creator program ${othersProgramId} not found` } });
  assert.deepEqual(await run('unapply', shop, othersProgramId), { error: { message: `Creator program ${othersProgramId} not found` } });
  assert.deepEqual(await run('apply', shop, 'abc'), { error: { message: '--program must be a program id' } });
  const { programs } = await toolOk(t.app, other.headers, 'creators.get-programs', {});
  assert.equal(programs[0].applied, false, 'the other workspace\'s program is untouched');
});
