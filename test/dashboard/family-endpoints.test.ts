/**
 * The loyalty, creators and AI visibility views' endpoints over HTTP: the same answers as the
 * tools, on the workspace's days; who may act; bad input. Fixture: workspace "Loyal" in New York
 * with hand-made platform orders (UTC times; days counted back from today):
 *   customer A: sale orders of 100.00 (5 days ago 02:00, which is the evening before in New York),
 *   40.25 (4 days ago 15:00) and 9.99 (3 days ago 15:00);
 *   customer B: a sale order of 20.00 and a cancelled one of 500.00 (both 4 days ago).
 * A program starting 5 days ago (New York) at 2 points per unit has A (50.24 -> 100 points) and B
 * (20.00 -> 40 points); from 5 to 2 days ago A ordered twice and B once. Personas: owen (owner),
 * vic (viewer), mia (viewer limited to read:meta). The AI-visibility assistant is the chat double.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { toolOk } from '../mcp/rpc.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { NOT_CONFIGURED } from '../../src/ai-visibility/run.ts';
import { RUN_UNDER_WAY } from '../../src/dashboard/ai-visibility-endpoints.ts';
import { NO_CREATOR_ACCESS } from '../../src/analytics/creators.ts';
import type { LlmConfig } from '../../src/config.ts';
import { startChatDouble, type ChatDouble } from '../ai-visibility/chat-double.ts';
import { cli, createUser, signIn, type Signed } from './helpers.ts';

const ZONE = 'America/New_York';
const DAY = 86_400_000;
const today = Date.parse(new Date().toISOString().slice(0, 10));
const day = (offset: number) => new Date(today + offset * DAY).toISOString().slice(0, 10);
const OWNERS_ONLY = { status: 403, body: { message: 'Only owners of this workspace can do this' } };

let t: TestApp;
let ws: TestWorkspace;
let double: ChatDouble;
let llm: LlmConfig;
let release: () => void = () => {};
const as: Record<string, Signed> = {};

before(async () => {
  double = await startChatDouble(async (question) => {
    if (question === 'Wait for me?') await new Promise<void>((resolve) => (release = resolve));
    return { content: 'Loyal is fine; Rival too.' };
  });
  llm = { url: double.url, apiKey: null, model: 'gpt-4o-mini', timeoutMs: 10_000, allowPrivate: true };
  t = await startTestApp({ llm: null });
  ws = await createTestWorkspace(t.stores, 'Loyal');
  await updateSettings(t.stores.db, ws.id, { timezone: ZONE });
  const order = (transaction_id: string, customer_id: string, at: string, cents: number, status = 'sale') => ({
    store_id: ws.id, transaction_id, customer_id, dt: at, gross_revenue: cents, status, version: 1,
  });
  await insertRows(t.stores, 'orders', [
    order('a1', 'A', `${day(-5)} 02:00:00`, 10_000), order('a2', 'A', `${day(-4)} 15:00:00`, 4_025), order('a3', 'A', `${day(-3)} 15:00:00`, 999),
    order('b1', 'B', `${day(-4)} 15:00:00`, 2_000), order('b2', 'B', `${day(-4)} 16:00:00`, 50_000, 'cancelled'),
  ]);
  assert.ok('result' in (await cli(t, ['loyalty', 'create', '--workspace', String(ws.id), '--name', 'Points', '--points-per-unit', '2', '--start', day(-5)])));
  await createUser(t, 'owen@example.com', ws.id);
  await createUser(t, 'vic@example.com', ws.id, ['--role', 'viewer']);
  await createUser(t, 'mia@example.com', ws.id, ['--role', 'viewer', '--scopes', 'read:meta']);
  for (const name of ['owen', 'vic', 'mia']) as[name] = await signIn(t, `${name}@example.com`);
});
after(async () => {
  release();
  double.close();
  await t.close();
});

const api = (path: string, query = '') => `/dashboard/api/${path}?workspace=${ws.id}${query}`;
const days = `&start_date=${day(-5)}&end_date=${day(-2)}`;
const withoutTimes = ({ created_at: _c, updated_at: _u, ...rest }: Record<string, unknown>) => rest;

test('loyalty: every member reads the programs and the repeat purchases on the workspace\'s days, as the tools give them', async () => {
  const read = await as.vic!.get(api('loyalty', days));
  assert.equal(read.status, 200, JSON.stringify(read.body));
  const [program] = read.body.programs;
  assert.deepEqual(read.body.programs, [{ id: program.id, name: 'Points', points_per_unit: 2, start_date: day(-5), members: 2, points_earned: 140, revenue: 70.24 }]);
  assert.deepEqual(read.body.range, { start_date: day(-5), end_date: day(-2), timezone: ZONE });
  assert.deepEqual(read.body.repeat, {
    customers: 2, repeat_customers: 1, repeat_rate: 0.5, revenue: 70.24, repeat_revenue_share: 0.7153,
    buckets: [{ orders: '1', customers: 1, revenue: 20 }, { orders: '2', customers: 1, revenue: 50.24 }],
  });
  const { programs } = await toolOk(t.app, ws.headers, 'loyalty.get-programs', {});
  assert.deepEqual(programs.map(withoutTimes), read.body.programs);
  const { loyalty } = await toolOk(t.app, ws.headers, 'loyalty.get-analytics', { date_from: day(-5), date_to: day(-2), timezone: ZONE });
  assert.deepEqual(loyalty, { date_from: day(-5), date_to: day(-2), timezone: ZONE, ...read.body.repeat });
});

test('loyalty: a member limited to some channels sees the programs without their store-wide figures', async () => {
  const read = await as.mia!.get(api('loyalty', days));
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.programs.map((p: Record<string, unknown>) => [p.name, p.members, p.points_earned, p.revenue]), [['Points', null, null, null]]);
  assert.equal(read.body.repeat, null);
});

test('loyalty: owners set a program up as `loyalty create` does; viewers may not; wrong input is 400 with the reason', async () => {
  const program = { name: 'Double', points_per_unit: 4, start_date: day(-4) };
  assert.deepEqual(await as.vic!.send('POST', api('loyalty/programs'), program), OWNERS_ONLY);
  const created = await as.owen!.send('POST', api('loyalty/programs'), program);
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.deepEqual(created.body.loyalty_program, { id: created.body.loyalty_program.id, ...program });
  const { programs } = await toolOk(t.app, ws.headers, 'loyalty.get-programs', {});
  // From 4 days ago in New York: A's 40.25 + 9.99 and B's 20.00, at 4 points per unit.
  assert.deepEqual(withoutTimes(programs[1]), { ...created.body.loyalty_program, members: 2, points_earned: 280, revenue: 70.24 });
  const { entries } = await toolOk(t.app, ws.headers, 'audit-log.get-log', { limit: 1 });
  assert.deepEqual([entries[0].action, entries[0].actor], ['loyalty_program.create', 'dashboard:owen@example.com']);

  const refusal = async (body: unknown) => (await as.owen!.send('POST', api('loyalty/programs'), body)).body.message;
  assert.equal(await refusal({ ...program, points_per_unit: 0 }), 'points_per_unit must be a whole number from 1 to 1000');
  assert.equal(await refusal({ ...program, points_per_unit: '2' }), 'points_per_unit must be a whole number from 1 to 1000');
  assert.equal(await refusal({ ...program, start_date: '2026-02-30' }), 'start_date must be a calendar day YYYY-MM-DD');
  assert.equal((await as.owen!.send('POST', api('loyalty/programs'), { ...program, extra: 1 })).status, 400);
  assert.equal((await as.owen!.send('POST', api('loyalty/programs'), ['not', 'an', 'object'])).status, 400);
  const huge = await as.owen!.send('POST', api('loyalty/programs'), { ...program, name: 'x'.repeat(5000) });
  assert.deepEqual(huge, { status: 413, body: { message: 'Request body is too large' } });
  const unsigned = await t.app.inject({ method: 'POST', url: api('loyalty/programs'), headers: { cookie: as.owen!.cookie }, payload: program });
  assert.equal(unsigned.statusCode, 403);
});

test('loyalty: a name with a lone UTF-16 surrogate is stored well-formed, as every JSON body the dashboard reads', async () => {
  const created = await as.owen!.send('POST', api('loyalty/programs'), { name: 'Half \ud800 pair', points_per_unit: 1, start_date: day(-1) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.equal(created.body.loyalty_program.name, 'Half \ufffd pair');
  const { programs } = await toolOk(t.app, ws.headers, 'loyalty.get-programs', {});
  assert.ok(programs.some((p: { name: string }) => p.name === 'Half \ufffd pair'));
});

test('the views\' dates are checked as the data API checks them; an unknown parameter is refused', async () => {
  for (const path of ['loyalty', 'creators']) {
    const bad = await as.owen!.get(api(path, '&start_date=2026-13-01'));
    assert.equal(bad.status, 400, path);
    assert.match(bad.body.message, /start_date/);
    const reversed = await as.owen!.get(api(path, `&start_date=${day(-1)}&end_date=${day(-3)}`));
    assert.equal(reversed.status, 400, path);
    const unknown = await as.owen!.get(api(path, '&limit=5'));
    assert.deepEqual([unknown.status, unknown.body.message.startsWith('Unknown parameter: limit')], [400, true], path);
    assert.deepEqual(await as.owen!.get(`/dashboard/api/${path}?workspace=${ws.id + 100}`), { status: 403, body: { message: 'You do not have access to this workspace' } });
  }
  assert.equal((await t.app.inject({ method: 'GET', url: api('creators') })).statusCode, 401);
});

test('creators: every member reads the creators and programs as the tools give them; a member without the creator channel is refused', async () => {
  const { program } = await toolOk(t.app, ws.headers, 'creators.create-program', { name: 'Ten percent', commission: { type: 'percentage', rate_percent: 10 } });
  const { creator } = await toolOk(t.app, ws.headers, 'creators.create', { name: 'Maya', program_id: program.id });
  const read = await as.vic!.get(api('creators', days));
  assert.equal(read.status, 200, JSON.stringify(read.body));
  const viaTool = await toolOk(t.app, ws.headers, 'creators.get-creators', { date_from: day(-5), date_to: day(-2), timezone: ZONE });
  assert.deepEqual(read.body.creators, viaTool.creators.map(({ creator: c, ...figures }: Record<string, any>) => ({
    ...figures, id: c?.id ?? null, name: c?.name ?? null, program: c ? 'Ten percent' : null, active: c?.active ?? null,
  })));
  assert.deepEqual(read.body.creators, [{
    code: creator.tracking_code, codes: [creator.tracking_code], sessions: 0, orders: 0, revenue: 0, commission: null, coupon_codes: [],
    id: creator.id, name: 'Maya', program: 'Ten percent', active: true,
  }]);
  assert.deepEqual(read.body.revenue_basis, viaTool.revenue_basis);
  const { programs } = await toolOk(t.app, ws.headers, 'creators.get-programs', {});
  assert.deepEqual(read.body.programs, programs.map(withoutTimes));
  assert.deepEqual(await as.mia!.get(api('creators')), { status: 403, body: { message: NO_CREATOR_ACCESS } });
});

test('creator programs: owners apply and un-apply one, and its creators\' commission shows; viewers, bad ids and foreign programs are refused', async () => {
  const { program } = await toolOk(t.app, ws.headers, 'creators.create-program', { name: 'Five percent', commission: { type: 'percentage', rate_percent: 5 } });
  const { creator } = await toolOk(t.app, ws.headers, 'creators.create', { name: 'Lena', program_id: program.id });
  await insertRows(t.stores, 'conversions', [{
    store_id: ws.id, session_id: 77, visitor_id: 77, dt: `${day(-3)} 15:00:00.000`, name: 'purchase', transaction_id: 'lena-1', transaction_gross_revenue: 4_990, coupon_code: creator.tracking_code,
  }]);
  const lena = async () => (await as.vic!.get(api('creators', days))).body.creators.find((c: any) => c.name === 'Lena');
  assert.deepEqual([(await lena()).revenue, (await lena()).commission], [49.9, null]);

  const apply = (who: Signed, id: string, action = 'apply') => who.send('POST', api(`creator-programs/${id}/${action}`));
  assert.deepEqual(await apply(as.vic!, program.id), OWNERS_ONLY);
  assert.deepEqual(await apply(as.owen!, 'abc'), { status: 400, body: { message: 'Creator program id must be numeric' } });
  assert.deepEqual(await apply(as.owen!, '99999'), { status: 404, body: { message: 'Creator program 99999 not found' } });
  const other = await createTestWorkspace(t.stores, 'Other shop');
  const foreign = (await toolOk(t.app, other.headers, 'creators.create-program', { name: 'Theirs', commission: { type: 'fixed', amount_cents: 100 } })).program;
  assert.deepEqual(await apply(as.owen!, foreign.id), { status: 404, body: { message: `Creator program ${foreign.id} not found` } });
  const unsigned = await t.app.inject({ method: 'POST', url: api(`creator-programs/${program.id}/apply`), headers: { cookie: as.owen!.cookie } });
  assert.equal(unsigned.statusCode, 403);
  assert.equal((await lena()).commission, null, 'no refused request applied it');

  const applied = await apply(as.owen!, program.id);
  assert.equal(applied.status, 200, JSON.stringify(applied.body));
  assert.deepEqual({ ...applied.body.program, applied_at: typeof applied.body.program.applied_at }, {
    id: program.id, name: 'Five percent', commission: { type: 'percentage', rate_percent: 5 }, applied: true, applied_at: 'string',
  });
  // 5 % of 49.90 is 2.495, shown to the cent.
  assert.equal((await lena()).commission, 2.5);
  const viaTool = await toolOk(t.app, ws.headers, 'creators.get-creators', { date_from: day(-5), date_to: day(-2), timezone: ZONE });
  assert.equal(viaTool.creators.find((c: any) => c.creator?.name === 'Lena').commission, 2.5);
  const { entries } = await toolOk(t.app, ws.headers, 'audit-log.get-log', {});
  assert.deepEqual([entries[0].actor, entries[0].action], ['dashboard:owen@example.com', 'creator_program.apply']);

  assert.deepEqual((await apply(as.owen!, program.id, 'unapply')).body.program.applied, false);
  assert.equal((await lena()).commission, null);
  assert.deepEqual(await apply(as.owen!, program.id, 'unapply'), { status: 409, body: { message: `Creator program ${program.id} is not applied` } });
});

test('owners link a code of the traffic to a stored creator; its orders then count for the creator; viewers and taken codes are refused', async () => {
  const { creator } = await toolOk(t.app, ws.headers, 'creators.create', { name: 'Jo' });
  await insertRows(t.stores, 'conversions', [{
    store_id: ws.id, session_id: 78, visitor_id: 78, dt: `${day(-3)} 16:00:00.000`, name: 'purchase', transaction_id: 'jo-1', transaction_gross_revenue: 2_500, coupon_code: 'JOJO10',
  }]);
  const link = (who: Signed, id: string, body: unknown) => who.send('POST', api(`creators/${id}/codes`), body);
  assert.deepEqual(await link(as.vic!, creator.id, { code: 'jojo' }), OWNERS_ONLY);
  assert.deepEqual(await link(as.owen!, creator.id, { code: 'jo jo' }), { status: 400, body: { message: 'code must be 1 to 40 letters, digits, dashes or underscores' } });
  assert.deepEqual(await link(as.owen!, creator.id, { kode: 'JOJO' }), { status: 400, body: { message: 'The body is {"code": "<the code as the traffic carries it>"}' } });
  assert.deepEqual(await link(as.owen!, '99999', { code: 'JOJO' }), { status: 404, body: { message: 'Creator 99999 not found' } });
  const before = (await as.vic!.get(api('creators', days))).body.creators;
  assert.deepEqual(before.filter((c: any) => c.code === 'JOJO' || c.name === 'Jo').map((c: any) => [c.code, c.name, c.revenue]), [[creator.tracking_code, 'Jo', 0]]);

  const linked = await link(as.owen!, creator.id, { code: 'jojo' });
  assert.deepEqual(linked, { status: 200, body: { creator: { id: creator.id, name: 'Jo', tracking_code: creator.tracking_code, codes: [creator.tracking_code, 'JOJO'] } } });
  // The coupon JOJO10 is the code followed by digits: the order is Jo's now.
  const jo = (await as.vic!.get(api('creators', days))).body.creators.find((c: any) => c.name === 'Jo');
  assert.deepEqual([jo.code, jo.codes, jo.orders, jo.revenue, jo.coupon_codes], [creator.tracking_code, [creator.tracking_code, 'JOJO'], 1, 25, ['JOJO10']]);
  const { creator: other } = await toolOk(t.app, ws.headers, 'creators.create', { name: 'Kim' });
  assert.deepEqual(await link(as.owen!, other.id, { code: 'JOJO' }), { status: 409, body: { message: `Code JOJO is already linked to creator ${creator.id} (Jo)` } });
  const { entries } = await toolOk(t.app, ws.headers, 'audit-log.get-log', { limit: 2 });
  assert.deepEqual(entries.map((e: any) => [e.actor, e.action]), [['key:1', 'creators.create'], ['dashboard:owen@example.com', 'creator.link_code']]);
});

test('AI visibility: without an assistant the view is told so and a run is refused with the same note', async () => {
  await toolOk(t.app, ws.headers, 'ai-visibility.create-prompt', { prompt: 'Best loyalty shop?', competitors: ['Rival'] });
  const read = await as.vic!.get(api('ai-visibility'));
  assert.deepEqual({ ...read.body, prompts: read.body.prompts.length }, { status: 'not_configured', note: NOT_CONFIGURED, running: false, total: 1, prompts: 1 });
  assert.deepEqual(await as.owen!.send('POST', api('ai-visibility/run')), { status: 409, body: { message: NOT_CONFIGURED } });
});

test('AI visibility: owners run the prompts as `ai-visibility run` does, one run at a time per workspace; every member reads the checks', async () => {
  t.config.llm = llm;
  try {
    assert.deepEqual(await as.vic!.send('POST', api('ai-visibility/run')), OWNERS_ONLY);
    const { prompt } = await toolOk(t.app, ws.headers, 'ai-visibility.create-prompt', { prompt: 'Wait for me?', competitors: ['Rival'] });
    const first = as.owen!.send('POST', api('ai-visibility/run'));
    await waitFor(() => double.requests.some((r) => r.body.messages[0].content === 'Wait for me?'));
    assert.equal((await as.vic!.get(api('ai-visibility'))).body.running, true);
    assert.deepEqual(await as.owen!.send('POST', api('ai-visibility/run')), { status: 409, body: { message: RUN_UNDER_WAY } });
    release();
    const ran = await first;
    assert.equal(ran.status, 200, JSON.stringify(ran.body));
    assert.deepEqual(ran.body.results.map((r: Record<string, unknown>) => [r.status, r.brand_mentioned, r.position, r.competitors_mentioned]), [
      ['ok', true, 1, ['Rival']], ['ok', true, 1, ['Rival']],
    ]);
    assert.equal(ran.body.results[1].prompt_id, prompt.id);
    assert.equal(double.requests.length, 2);

    const read = await as.vic!.get(api('ai-visibility'));
    assert.deepEqual([read.body.status, read.body.running, read.body.note], ['configured', false, undefined]);
    const viaTool = await toolOk(t.app, ws.headers, 'ai-visibility.get-results', {});
    assert.deepEqual(read.body.prompts, viaTool.prompts.map((p: Record<string, any>) => ({
      ...withoutTimes(p), created_at: p.created_at, results: p.results.map((r: Record<string, unknown>) => ({ ...withoutTimes(r), created_at: r.created_at })),
    })));
  } finally {
    t.config.llm = null;
  }
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(check(), 'the double was asked');
}
