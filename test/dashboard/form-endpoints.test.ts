/**
 * The forms view's endpoints over HTTP, with submissions posted through the collector.
 * Fixture: workspace "Shop" with the draft form "Newsletter" (E-mail required, Size a select of
 * S/M/"L & up", Agree a checkbox) and the draft "Empty" without fields; workspace "Other" with a
 * form of its own. Personas: owen (owner of Shop), vic (viewer of Shop), olga (owner of Other).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { DESKTOP_UA, eventually } from '../collect/helpers.ts';
import { toolOk } from '../mcp/rpc.ts';
import { cli, createUser, signIn, type Signed } from './helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let other: TestWorkspace;
let formId: string;
let emptyId: string;
let otherFormId: string;
const as: Record<string, Signed> = {};

const FIELDS = [
  { label: 'E-mail', type: 'email', required: true },
  { label: 'Size', type: 'select', required: false, options: ['S', 'M', 'L & up'] },
  { label: 'Agree', type: 'checkbox', required: false },
];

async function draft(ws: TestWorkspace, name: string, fields: unknown[]): Promise<string> {
  const created = await cli(t, ['form', 'create', '--workspace', String(ws.id), '--name', name, '--fields', JSON.stringify(fields)]);
  assert.ok('result' in created, JSON.stringify(created));
  return (created.result as { form: { id: string } }).form.id;
}

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores, 'Shop');
  other = await createTestWorkspace(t.stores, 'Other');
  formId = await draft(shop, 'Newsletter', FIELDS);
  emptyId = await draft(shop, 'Empty', []);
  otherFormId = await draft(other, 'Theirs', [{ label: 'Note', type: 'text', required: true }]);
  await createUser(t, 'owen@example.com', shop.id);
  await createUser(t, 'vic@example.com', shop.id, ['--role', 'viewer']);
  await createUser(t, 'olga@example.com', other.id);
  for (const name of ['owen', 'vic', 'olga']) as[name] = await signIn(t, `${name}@example.com`);
});
after(() => t.close());

async function submit(email: string, size?: string) {
  const values = [{ field: 0, value: email }, ...(size ? [{ field: 1, value: size }] : [])];
  const response = await t.app.inject({
    method: 'POST', url: '/collect/form', headers: { 'content-type': 'text/plain', 'user-agent': DESKTOP_UA },
    payload: JSON.stringify({ pixel_id: shop.pixelId, form_id: formId, visitor_id: '77', values }),
  });
  return response.statusCode;
}

const url = (action: string, id = formId, ws = shop) => `/dashboard/api/forms/${id}/${action}?workspace=${ws.id}`;

test('owners publish and close from the dashboard; viewers and writes without the CSRF token are refused', async () => {
  assert.equal(await submit('early@example.com'), 404, 'a draft takes nothing');
  assert.deepEqual(await as.vic!.send('POST', url('publish')), { status: 403, body: { message: 'Only owners of this workspace can do this' } });
  const noCsrf = await t.app.inject({ method: 'POST', url: url('publish'), headers: { cookie: as.owen!.cookie } });
  assert.deepEqual([noCsrf.statusCode, noCsrf.json()], [403, { message: 'Missing or wrong CSRF token' }]);
  assert.equal(await submit('early@example.com'), 404, 'the refused publishes changed nothing');

  const published = await as.owen!.send('POST', url('publish'));
  assert.equal(published.status, 200);
  assert.deepEqual([published.body.form.id, published.body.form.status, published.body.form.fields], [formId, 'live', FIELDS]);
  assert.equal(await submit('ada@example.com', 'M'), 202);
  await new Promise((resolve) => setTimeout(resolve, 5)); // a later millisecond, so the newest is bob's
  assert.equal(await submit('bob@example.org'), 202);

  assert.deepEqual(await as.vic!.send('POST', url('close')), { status: 403, body: { message: 'Only owners of this workspace can do this' } });
  const closed = await as.owen!.send('POST', url('close'));
  assert.equal(closed.body.form.status, 'closed');
  assert.equal(await submit('late@example.com'), 404, 'a closed form takes nothing');
  assert.deepEqual(await as.owen!.send('POST', url('close')), { status: 409, body: { message: `Form ${formId} is not live (it is closed)` } });
  assert.deepEqual(await as.owen!.send('POST', url('publish', emptyId)), {
    status: 400, body: { message: `Form ${emptyId} has no fields: add some with forms.add-fields first` },
  });
  const { entries } = await toolOk(t.app, shop.headers, 'audit-log.get-log', {});
  assert.deepEqual(entries.slice(0, 2).map((e: any) => [e.actor, e.action, e.target]), [
    ['dashboard:owen@example.com', 'form.close', `form:${formId}`],
    ['dashboard:owen@example.com', 'form.publish', `form:${formId}`],
  ]);
});

test('every member reads the forms with their counts and embed HTML, and the newest leads a page at a time', async () => {
  const listed = await eventually(() => as.vic!.get(`/dashboard/api/forms?workspace=${shop.id}`), (r) => r.body.forms?.[0]?.submissions === 2);
  assert.deepEqual(listed.body.forms.map((f: any) => [f.name, f.status, f.fields.length, f.submissions]), [['Newsletter', 'closed', 3, 2], ['Empty', 'draft', 0, 0]]);
  const embed: string = listed.body.forms[0].embed;
  assert.match(embed, new RegExp(`^<form data-storelens-form="${formId}" aria-label="Newsletter">`));
  assert.match(embed, /<input type="email" id="storelens-\d+-0" data-storelens-field="0" required autocomplete="email">/);
  assert.match(embed, /<option>L &amp; up<\/option>/, 'labels and options are escaped');
  assert.match(embed, /<label><input type="checkbox" id="storelens-\d+-2" data-storelens-field="2"> Agree<\/label>/);
  assert.match(embed, /<p data-storelens-status role="status" aria-live="polite"><\/p>\n<\/form>$/);

  const first = await as.vic!.get(`${url('submissions')}&limit=1`);
  assert.equal(first.status, 200);
  assert.deepEqual(first.body.submissions.map((s: any) => [s.email, s.fields]), [['bob@example.org', [{ field: 0, label: 'E-mail', value: 'bob@example.org' }]]]);
  assert.deepEqual([first.body.has_more, first.body.offset, first.body.limit], [true, 0, 1]);
  assert.match(first.body.submissions[0].received_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  const second = await as.vic!.get(`${url('submissions')}&limit=1&offset=1`);
  assert.deepEqual(second.body.submissions.map((s: any) => [s.email, s.fields.map((v: any) => v.value)]), [['ada@example.com', ['ada@example.com', 'M']]]);
  assert.equal(second.body.has_more, false);
});

test('bad ids and parameters are 400, other workspaces\' forms are not found, and a non-member is refused', async () => {
  assert.deepEqual(await as.owen!.get(url('submissions', 'abc')), { status: 400, body: { message: 'Form id must be numeric' } });
  assert.deepEqual(await as.owen!.send('POST', url('publish', '1 OR 1')), { status: 400, body: { message: 'Form id must be numeric' } });
  assert.deepEqual(await as.owen!.get(url('submissions', otherFormId)), { status: 404, body: { message: `Form ${otherFormId} not found` } });
  assert.deepEqual(await as.owen!.send('POST', url('publish', otherFormId)), { status: 404, body: { message: `Form ${otherFormId} not found` } });
  assert.equal((await as.owen!.get(`${url('submissions')}&limit=0`)).status, 400);
  assert.equal((await as.owen!.get(`${url('submissions')}&limit=x`)).status, 400);
  assert.deepEqual(await as.owen!.get(`${url('submissions')}&sort=email`), { status: 400, body: { message: 'Unknown parameter: sort' } });
  assert.deepEqual(await as.olga!.get(`/dashboard/api/forms?workspace=${shop.id}`), { status: 403, body: { message: 'You do not have access to this workspace' } });
  assert.deepEqual(await as.olga!.send('POST', url('close', formId, shop)), { status: 403, body: { message: 'You do not have access to this workspace' } });
  const signedOut = await t.app.inject({ method: 'GET', url: `/dashboard/api/forms?workspace=${shop.id}` });
  assert.equal(signedOut.statusCode, 401);
});
