/**
 * Property: no output of a stored object is shown beyond its reader's channels. fast-check
 * generates stored outputs (notes, list rows, workflow executions) with any recorded scope (none,
 * as before scopes were recorded; the whole store; any set of channels; with or without a profit
 * figure), writers (keys of any scopes that type a note and a list row and draft a scheduled
 * workflow a person enables and runs) and readers (keys of any scopes through POST /mcp, dashboard
 * members of any role and scopes through /dashboard/api/workflows/:id/executions). Every reader
 * must be shown exactly the outputs the oracle below allows, counted alike.
 *
 * The oracle is written here on its own, from docs/security.md ("Outputs of stored objects"), over
 * the channel model of test/permission-model.ts: a reader that reads no data sees no output; an
 * output without a recorded scope is the whole store with profit; a whole-store output needs a
 * reader of every channel; a narrower one every channel it holds; a profit figure needs profit.
 * A typed note or row holds what its writer reads; a scheduled workflow's run the channels of the
 * key that drafted it, without profit.
 *
 * Fixture: workspace "Shop", an empty list "Ideas" (column idea) and a workflow "Stored runs" that
 * parents the generated executions; no analytics rows (the outputs' numbers are not read again).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { CHANNEL_SCOPES, NO_CHANNEL_SCOPES, anyScopes, keyModel, type KeyModel } from '../permission-model.ts';
import { createUser, signIn } from '../dashboard/helpers.ts';
import { toolOk } from './rpc.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { createObject } from '../../src/store/app/tool-objects.ts';
import { createWorkflowEngine } from '../../src/workflows/engine.ts';
import { enableWorkflow } from '../../src/workflows/manage.ts';

type Scope = { channels: string[] | null; profit: boolean };
type Kind = 'note' | 'list_item' | 'workflow_execution';

const config = { ...loadConfig({}).workflows, checkMs: 0 };
/** Every raw channel a scope gives, and one no scope gives. */
const RAW_CHANNELS = [...new Set(CHANNEL_SCOPES.flatMap((scope) => [...keyModel([scope]).channels!]))].concat('newsletter');

let t: TestApp;
let shop: TestWorkspace;
let listId: number;
let storedRunsId: number;
/** Every output stored so far, with the scope it holds (null: none recorded). */
const stored: { kind: Kind; id: string; parent: number | null; scope: Scope | null }[] = [];

before(async () => {
  t = await startTestApp({ workflows: config });
  shop = await createTestWorkspace(t.stores, 'Shop');
  listId = Number((await toolOk(t.app, shop.headers, 'lists.create', { name: 'Ideas', kind: 'list' })).list.id);
  await toolOk(t.app, shop.headers, 'lists.add-column', { list_id: String(listId), name: 'idea' });
  storedRunsId = Number((await toolOk(t.app, shop.headers, 'workflows.create', { name: 'Stored runs', trigger: { type: 'daily_schedule' }, actions: [{ type: 'save_note' }] })).workflow.id);
});
after(() => t.close());

/** The oracle: whether a reader may see an output of this scope. */
function mayRead(reader: KeyModel, scope: Scope | null): boolean {
  if (reader.channels !== null && reader.channels.size === 0) return false;
  const held = scope ?? { channels: null, profit: true };
  if (held.profit && !reader.profit) return false;
  if (held.channels === null) return reader.channels === null;
  return held.channels.every((channel) => reader.channels === null || reader.channels.has(channel));
}

/** What a dashboard member reads: an owner everything; a viewer every channel unless channel scopes narrow it, profit with read:profit. */
function memberModel(role: 'owner' | 'viewer', scopes: string[]): KeyModel {
  if (role === 'owner') return keyModel(['admin:admin']);
  const model = keyModel(scopes);
  return scopes.some((s) => CHANNEL_SCOPES.includes(s)) ? model : { ...model, channels: null };
}

/** What a key's own writing holds: what it reads. */
const writerScope = (writer: KeyModel): Scope => ({ channels: writer.channels && [...writer.channels], profit: writer.profit });

const scopeArb: fc.Arbitrary<Scope | null> = fc.option(
  fc.record({ channels: fc.option(fc.subarray(RAW_CHANNELS, { maxLength: 4 }), { nil: null, freq: 4 }), profit: fc.boolean() }),
  { nil: null, freq: 5 },
);
const outputArb = fc.record({ kind: fc.constantFrom<Kind>('note', 'list_item', 'workflow_execution'), scope: scopeArb });
const memberArb = fc.record({ role: fc.constantFrom<'owner' | 'viewer'>('owner', 'viewer', 'viewer'), scopes: fc.subarray([...CHANNEL_SCOPES, 'read:profit'], { maxLength: 4 }) });

async function store(kind: Kind, scope: Scope | null): Promise<void> {
  const options = scope ? { scope } : {};
  const object = kind === 'note'
    ? await createObject(t.stores.db, shop.id, 'note', { title: 'Stored', content: JSON.stringify(scope) }, options)
    : kind === 'list_item'
      ? await createObject(t.stores.db, shop.id, 'list_item', { values: { idea: 'stored' } }, { ...options, parentId: listId })
      : await createObject(t.stores.db, shop.id, 'workflow_execution', {
        workflow_id: String(storedRunsId), due: `stored:${stored.length}`, started_at: new Date().toISOString(), finished_at: null, status: 'fired', outcome: null,
      }, { ...options, parentId: storedRunsId });
  stored.push({ kind, id: String(object.id), parent: kind === 'note' ? null : object.parentId, scope });
}

/** A writer types a note and a list row, and drafts a scheduled workflow a person enables and runs (an execution and a note). */
async function write(scopes: string[]): Promise<void> {
  const headers = await shop.keyHeaders([...new Set([...scopes, 'write:drafts'])]);
  const scope = writerScope(keyModel([...scopes, 'write:drafts']));
  const note = await toolOk(t.app, headers, 'notes.save-note', { title: 'Typed', content: 'by a key' });
  stored.push({ kind: 'note', id: note.note.id, parent: null, scope });
  const [item] = (await toolOk(t.app, headers, 'lists.add-items', { list_id: String(listId), items: [{ values: { idea: 'typed' } }] })).items;
  stored.push({ kind: 'list_item', id: item.id, parent: listId, scope });
  const { workflow } = await toolOk(t.app, headers, 'workflows.create', { name: 'Drafted', trigger: { type: 'daily_schedule' }, actions: [{ type: 'save_note' }] });
  await enableWorkflow(t.stores.db, shop.id, Number(workflow.id), 'test', new Date());
  const engine = createWorkflowEngine({ stores: t.stores, config, logger: createLogger('silent') });
  try {
    const execution = await engine.runNow(shop.id, Number(workflow.id), Date.now());
    const run = { channels: scope.channels, profit: false };
    stored.push({ kind: 'workflow_execution', id: String(execution.id), parent: Number(workflow.id), scope: run });
    const noteId = /note (\d+) saved/.exec(execution.data.outcome!.actions[0]!.detail)![1]!;
    stored.push({ kind: 'note', id: noteId, parent: null, scope: run });
  } finally {
    await engine.stop();
  }
}

const expectedIds = (reader: KeyModel, kind: Kind, parent?: number) =>
  stored.filter((o) => o.kind === kind && (parent === undefined || o.parent === parent) && mayRead(reader, o.scope)).map((o) => o.id);
const idsOf = (objects: { id: string }[]) => objects.map((o) => o.id);

let members = 0;

test('every output a key or a member is shown is one it may read, and it is shown every one it may read', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(outputArb, { maxLength: 3 }), fc.option(anyScopes, { nil: null }), anyScopes, memberArb, async (outputs, writer, readerScopes, member) => {
      for (const output of outputs) await store(output.kind, output.scope);
      if (writer) await write(writer);

      const reader = keyModel(readerScopes);
      const headers = await shop.keyHeaders(readerScopes.length ? readerScopes : [...NO_CHANNEL_SCOPES]);
      const model = readerScopes.length ? reader : keyModel([...NO_CHANNEL_SCOPES]);
      const notes = await toolOk(t.app, headers, 'notes.get-notes', { limit: 500 });
      assert.deepEqual(idsOf(notes.notes), expectedIds(model, 'note'), 'notes.get-notes');
      const list = await toolOk(t.app, headers, 'lists.get-lists', { list_id: String(listId), limit: 500 });
      assert.deepEqual([idsOf(list.items), list.total_items], [expectedIds(model, 'list_item', listId), expectedIds(model, 'list_item', listId).length], 'lists.get-lists');
      const runs = await toolOk(t.app, headers, 'workflows.get-executions', { limit: 500 });
      assert.deepEqual(idsOf(runs.executions), expectedIds(model, 'workflow_execution'), 'workflows.get-executions');

      const email = `member${++members}@example.com`;
      await createUser(t, email, shop.id, ['--role', member.role, ...(member.role === 'viewer' && member.scopes.length ? ['--scopes', member.scopes.join(',')] : [])]);
      const signed = await signIn(t, email);
      const seen = memberModel(member.role, member.role === 'viewer' ? member.scopes : []);
      const page = await signed.get(`/dashboard/api/workflows/${storedRunsId}/executions?workspace=${shop.id}`);
      const expected = expectedIds(seen, 'workflow_execution', storedRunsId);
      assert.deepEqual([idsOf(page.body.executions), page.body.total], [expected.slice(-50).reverse(), expected.length], `dashboard ${member.role} ${member.scopes}`);
    }),
    { numRuns: 20 },
  );
});
