/**
 * Storefront forms through their public surface: drafted, published and closed with the CLI (run
 * in-process), submitted through POST /collect/form, counted by forms.get-forms.
 * Fixture: workspace "Shop" with the form "Newsletter" (E-mail required, Name, Size a select of
 * S/M/L, Agree a checkbox, Birthday a date, Phone, Age a number) and a draft "Later"; workspace
 * "Other" with a live form of its own.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { callTool, toolOk } from '../mcp/rpc.ts';
import { cli } from '../dashboard/helpers.ts';
import { BOT_UA, DESKTOP_UA, eventually } from './helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let other: TestWorkspace;
let formId: string;
let draftId: string;
let otherFormId: string;

const FIELDS = [
  { label: 'E-mail', type: 'email', required: true },
  { label: 'Name', type: 'text', required: false },
  { label: 'Size', type: 'select', required: false, options: ['S', 'M', 'L'] },
  { label: 'Agree', type: 'checkbox', required: false },
  { label: 'Birthday', type: 'date', required: false },
  { label: 'Phone', type: 'phone', required: false },
  { label: 'Age', type: 'number', required: false },
];

async function create(ws: TestWorkspace, name: string, fields: unknown[] = FIELDS, publish = true): Promise<string> {
  const created = await cli(t, ['form', 'create', '--workspace', String(ws.id), '--name', name, '--fields', JSON.stringify(fields)]);
  assert.ok('result' in created, JSON.stringify(created));
  const id = (created.result as { form: { id: string } }).form.id;
  if (publish) assert.ok('result' in (await cli(t, ['form', 'publish', '--workspace', String(ws.id), '--form', id])));
  return id;
}

async function submit(body: unknown, userAgent = DESKTOP_UA) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/collect/form',
    headers: { 'content-type': 'text/plain', 'user-agent': userAgent, origin: 'https://shop.example' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.statusCode, body: response.json() };
}

const post = (values: unknown, extra: Record<string, unknown> = {}) => submit({ pixel_id: shop.pixelId, form_id: formId, visitor_id: '4711', values, ...extra });

const counts = async (ws = shop) =>
  Object.fromEntries((await toolOk(t.app, ws.headers, 'forms.get-forms', {})).forms.map((f: { name: string; status: string; submissions: number }) => [f.name, [f.status, f.submissions]]));

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores, 'Shop');
  other = await createTestWorkspace(t.stores, 'Other');
  formId = await create(shop, 'Newsletter');
  draftId = await create(shop, 'Later', [{ label: 'E-mail', type: 'email', required: true }], false);
  otherFormId = await create(other, 'Theirs', [{ label: 'Note', type: 'text', required: true }]);
});
after(() => t.close());

describe('POST /collect/form', () => {
  test('a live form takes a submission (202 after the log); forms.get-forms counts it as a lead', async () => {
    const full = [
      { field: 0, value: ' Ada@Example.com ' }, { field: 1, value: 'Ada' }, { field: 2, value: 'M' }, { field: 3, value: true },
      { field: 4, value: '1990-02-28' }, { field: 5, value: '+49 30 1234567' }, { field: 6, value: 36 },
    ];
    assert.deepEqual(await post(full), { status: 202, body: { accepted: 1 } });
    assert.deepEqual(await post([{ field: 0, value: 'bob@example.org' }]), { status: 202, body: { accepted: 1 } });
    assert.deepEqual(await submit({ pixel_id: other.pixelId, form_id: otherFormId, values: [{ field: 0, value: 'hi' }] }), { status: 202, body: { accepted: 1 } });
    const seen = await eventually(() => counts(), (c) => c.Newsletter?.[1] === 2);
    assert.deepEqual(seen, { Newsletter: ['live', 2], Later: ['draft', 0] });
    assert.deepEqual(await eventually(() => counts(other), (c) => c.Theirs?.[1] === 1), { Theirs: ['live', 1] });
    const [row] = await t.stores.ch.query<{ email: string; fields: string }>('test', "SELECT email, fields FROM form_submissions WHERE email = 'ada@example.com'", {});
    assert.deepEqual(JSON.parse(row!.fields).map((v: { label: string; value: unknown }) => [v.label, v.value]), [
      ['E-mail', 'ada@example.com'], ['Name', 'Ada'], ['Size', 'M'], ['Agree', true], ['Birthday', '1990-02-28'], ['Phone', '+49 30 1234567'], ['Age', 36],
    ]);
    // leads export hands the workspace's form leads out with their labelled values, another workspace's left out.
    const exported = await cli(t, ['leads', 'export', '--workspace', String(shop.id)]);
    const leads = (exported as { result: { form_leads: { form_id: string; email: string; fields: unknown[]; received_at: string }[] } }).result.form_leads;
    assert.deepEqual(leads.map(({ received_at: _, ...lead }) => lead).sort((a, b) => a.email.localeCompare(b.email)), [
      { form_id: formId, email: 'ada@example.com', fields: [
        { label: 'E-mail', value: 'ada@example.com' }, { label: 'Name', value: 'Ada' }, { label: 'Size', value: 'M' }, { label: 'Agree', value: true },
        { label: 'Birthday', value: '1990-02-28' }, { label: 'Phone', value: '+49 30 1234567' }, { label: 'Age', value: 36 },
      ] },
      { form_id: formId, email: 'bob@example.org', fields: [{ label: 'E-mail', value: 'bob@example.org' }] },
    ]);
    assert.deepEqual(leads.filter((lead) => !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(lead.received_at)), [], 'received_at is a UTC timestamp');
  });

  test('each value is checked against its field: 400 naming the field', async () => {
    const refused = async (values: unknown) => (await post(values)).body.message;
    const email = { field: 0, value: 'a@b.co' };
    assert.equal(await refused([{ field: 0, value: 'not-an-address' }]), 'field 0 (E-mail): expected an e-mail address');
    assert.equal(await refused([{ field: 1, value: 'Ada' }]), 'field 0 (E-mail): is required');
    assert.equal(await refused([email, { field: 2, value: 'XL' }]), 'field 2 (Size): expected one of its options');
    assert.equal(await refused([email, { field: 3, value: 'yes' }]), 'field 3 (Agree): expected true or false');
    assert.equal(await refused([email, { field: 4, value: '2026-02-30' }]), 'field 4 (Birthday): expected a day YYYY-MM-DD');
    assert.equal(await refused([email, { field: 5, value: 'call me' }]), 'field 5 (Phone): expected a phone number');
    assert.equal(await refused([email, { field: 6, value: '36' }]), 'field 6 (Age): expected a number');
    assert.equal(await refused([email, { field: 1, value: 'x'.repeat(2001) }]), 'field 1 (Name): expected text of 1 to 2000 characters');
    assert.equal(await refused([email, { field: 9, value: 'x' }]), `field 9: form ${formId} has fields 0 to 6`);
    assert.equal(await refused([email, email]), 'field 0 (E-mail): given more than once');
  });

  test('hostile and unknown input is refused without a stack trace; a draft or unknown form takes nothing', async () => {
    assert.deepEqual(await submit('{not json'), { status: 400, body: { message: 'Invalid JSON' } });
    assert.deepEqual(await submit({ form_id: formId, values: [] }), { status: 400, body: { message: 'pixel_id: is required' } });
    assert.deepEqual(await submit({ pixel_id: 'nope', form_id: formId, values: [{ field: 0, value: 'a@b.co' }] }), { status: 404, body: { message: 'Unknown pixel id' } });
    assert.deepEqual(await submit({ pixel_id: shop.pixelId, form_id: draftId, values: [{ field: 0, value: 'a@b.co' }] }), { status: 404, body: { message: `Form ${draftId} is not live` } });
    assert.deepEqual(await submit({ pixel_id: shop.pixelId, form_id: otherFormId, values: [{ field: 0, value: 'hi' }] }), { status: 404, body: { message: `Form ${otherFormId} is not live` } });
    assert.equal((await post([{ field: 0, value: 'a@b.co' }], { form_id: "1' OR 1=1" })).status, 400);
    assert.equal((await post({ 0: 'a@b.co' })).status, 400);
    const big = await submit({ pixel_id: shop.pixelId, form_id: formId, values: [{ field: 1, value: 'x'.repeat(70_000) }] });
    assert.deepEqual([big.status, Object.keys(big.body)], [413, ['message']]);
    // A crawler's submission is answered like any other but not stored.
    assert.deepEqual(await submit({ pixel_id: shop.pixelId, form_id: formId, values: [{ field: 0, value: 'bot@example.com' }] }, BOT_UA), { status: 202, body: { accepted: 0 } });
  });

  test('the CLI refuses malformed fields and publishing a form of another workspace', async () => {
    assert.deepEqual(await cli(t, ['form', 'create', '--workspace', String(shop.id), '--name', 'X', '--fields', '[{']), {
      error: { message: '--fields must be a JSON array of {label, type, required, options}' },
    });
    const bad = await cli(t, ['form', 'create', '--workspace', String(shop.id), '--name', 'X', '--fields', '[{"label":"A","type":"colour"}]']);
    assert.match((bad as { error: { message: string } }).error.message, /^fields\.0\.type: /);
    assert.deepEqual(await cli(t, ['form', 'publish', '--workspace', String(shop.id), '--form', otherFormId]), { error: { message: `Form ${otherFormId} not found` } });
    const fields = (list: unknown[]) => cli(t, ['form', 'create', '--workspace', String(shop.id), '--name', 'X', '--fields', JSON.stringify(list)]);
    assert.deepEqual(await fields([{ label: 'Size', type: 'select' }]), { error: { message: 'Size: a select field needs its options' } });
    assert.deepEqual(await fields([{ label: 'Name', type: 'text', options: ['a'] }]), { error: { message: 'Name: only a select field takes options' } });
    assert.deepEqual(await fields([{ label: 'Size', type: 'select', options: ['S', 'S'] }]), { error: { message: 'Size: each option once' } });
  });

  test('form close ends a live form: its submissions are refused as a draft\'s, its leads stay, and it can go live again', async () => {
    const id = await create(shop, 'Pop-up', [{ label: 'E-mail', type: 'email', required: true }]);
    const send = () => submit({ pixel_id: shop.pixelId, form_id: id, values: [{ field: 0, value: 'pop@example.com' }] });
    assert.equal((await send()).status, 202);
    const closed = await cli(t, ['form', 'close', '--workspace', String(shop.id), '--form', id]);
    assert.deepEqual(closed, { result: { form: { id, name: 'Pop-up', status: 'closed', fields: [{ label: 'E-mail', type: 'email', required: true }] } } });
    assert.deepEqual(await send(), { status: 404, body: { message: `Form ${id} is not live` } });
    assert.deepEqual((await eventually(() => counts(), (c) => c['Pop-up']?.[1] === 1))['Pop-up'], ['closed', 1]);
    assert.deepEqual(await cli(t, ['form', 'close', '--workspace', String(shop.id), '--form', id]), { error: { message: `Form ${id} is not live (it is closed)` } });
    assert.deepEqual(await cli(t, ['form', 'close', '--workspace', String(shop.id), '--form', draftId]), { error: { message: `Form ${draftId} is not live (it is draft)` } });
    assert.deepEqual(await cli(t, ['form', 'close', '--workspace', String(shop.id), '--form', otherFormId]), { error: { message: `Form ${otherFormId} not found` } });
    assert.deepEqual(await cli(t, ['form', 'close', '--workspace', String(shop.id), '--form', '1 OR 1']), { error: { message: '--form must be a form id' } });
    assert.ok('result' in (await cli(t, ['form', 'publish', '--workspace', String(shop.id), '--form', id])));
    assert.equal((await send()).status, 202);
    const { entries } = await toolOk(t.app, shop.headers, 'audit-log.get-log', { limit: 100 });
    const actions = entries.filter((e: { target: string }) => e.target === `form:${id}`).map((e: { actor: string; action: string }) => `${e.actor} ${e.action}`);
    assert.deepEqual(actions, ['cli form.publish', 'cli form.close', 'cli form.publish', 'cli form.create'], 'newest first');
  });

  test('forms.add-fields keeps to the same rules for options', async () => {
    const refused = await callTool(t.app, shop.headers, 'forms.add-fields', { form_id: formId, confirm_live: true, fields: [{ label: 'Colour', type: 'select' }] });
    assert.equal(refused.error?.message, 'Invalid arguments for tool forms.add-fields: fields.0: Colour: a select field needs its options');
  });
});
