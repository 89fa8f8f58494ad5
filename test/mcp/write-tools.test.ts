/**
 * Write and field-scoped update tools, with what each must refuse, and the audit log.
 * Fixture: workspace "Shop" (admin key) with two meta ads in ads rows (ad-a: 100.00 spend, one
 * 80.00 conversion from a session that landed from ad-a; ad-b: 50.00 spend, no conversion) on
 * 2026-11-10; a second workspace "Other" to check that objects never cross workspaces; one live
 * and one draft form, as the dashboard would create them (stored through the repository).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { createObject } from '../../src/store/app/tool-objects.ts';
import fc from 'fast-check';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { validArgs } from './arbitraries.ts';
import { callTool, toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;
let other: TestWorkspace;
let liveFormId: string;
let draftFormId: string;

const NOW = Date.parse('2026-11-22T12:00:00Z');

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Shop');
  other = await createTestWorkspace(t.stores, 'Other');
  const ad = (ad_id: string, spend: number) => ({
    store_id: ws.id, dt: '2026-11-10', source: 'meta', ad_id, ad_name: `Ad ${ad_id}`, campaign_id: 'c1', campaign_name: 'Winter',
    spend, impressions: 1000, clicks: 20, reach: 800, version: 1,
  });
  await insertRows(t.stores, 'ads', [ad('ad-a', 10_000), ad('ad-b', 5_000)]);
  await insertRows(t.stores, 'events', [
    { store_id: ws.id, dt: '2026-11-10 10:00:00.000', name: 'pageview', session_id: 1, visitor_id: 1, adv_source: 'facebook', adv_ad_id: 'ad-a' },
  ]);
  await insertRows(t.stores, 'conversions', [
    { store_id: ws.id, dt: '2026-11-10 10:05:00.000', name: 'purchase', session_id: 1, visitor_id: 1, transaction_id: 't1', transaction_gross_revenue: 8_000 },
  ]);
  liveFormId = String((await createObject(t.stores.db, ws.id, 'form', { name: 'Newsletter', status: 'live', fields: [] })).id);
  draftFormId = String((await createObject(t.stores.db, ws.id, 'form', { name: 'Wholesale', status: 'draft', fields: [] })).id);
});
after(() => t.close());

const ok = (name: string, args: unknown = {}) => toolOk(t.app, ws.headers, name, args);
const refused = async (name: string, args: unknown) => (await callTool(t.app, ws.headers, name, args)).result?.structuredContent.error;
const invalid = async (name: string, args: unknown) => (await callTool(t.app, ws.headers, name, args)).error;

describe('notes', () => {
  test('save-note, get-notes and update change only the named fields', async () => {
    const { note } = await ok('notes.save-note', { title: 'ROAS dip', content: 'Meta ROAS fell on Monday' });
    assert.deepEqual(Object.keys(note), ['id', 'title', 'content', 'created_at']);
    assert.equal(note.title, 'ROAS dip');
    const updated = await ok('notes.update', { id: note.id, content: 'Recovered on Tuesday' });
    assert.equal(updated.note.title, 'ROAS dip');
    assert.equal(updated.note.content, 'Recovered on Tuesday');
    assert.deepEqual(await refused('notes.update', { id: note.id }), { code: 'invalid_request', message: 'Nothing to change: name at least one field' });
    const { notes } = await ok('notes.get-notes');
    assert.deepEqual(notes.map((n: any) => [n.id, n.title, n.content]), [[note.id, 'ROAS dip', 'Recovered on Tuesday']]);
  });

  test('notes of another workspace are not found', async () => {
    const { note } = await toolOk(t.app, other.headers, 'notes.save-note', { title: 'Other', content: '' });
    assert.deepEqual(await refused('notes.update', { id: note.id, title: 'x' }), { code: 'not_found', message: `Note ${note.id} not found` });
  });
});

describe('topics', () => {
  test('adds up to 20 keywords and skips the ones already tracked', async () => {
    const first = await ok('topics.add', { keywords: ['wool socks', 'merino'] });
    assert.deepEqual(first.topics.map((x: any) => x.keyword), ['wool socks', 'merino']);
    const second = await ok('topics.add', { keywords: ['Merino', 'alpaca'] });
    assert.deepEqual(second.topics.map((x: any) => x.keyword), ['alpaca']);
    assert.deepEqual(second.skipped, ['Merino']);
    assert.equal(second.total_tracked, 3);
  });

  test('a keyword with a lone UTF-16 surrogate is kept well-formed, so sent again it is skipped, not a -32603', async () => {
    // JSON.stringify writes the lone half as the escape `\ud800`, as a hostile client would.
    const keyword = 'lone \ud800 half';
    const first = await ok('topics.add', { keywords: [keyword] });
    assert.deepEqual(first.topics.map((x: any) => x.keyword), ['lone \ufffd half']);
    const again = await callTool(t.app, ws.headers, 'topics.add', { keywords: [keyword, 'lone \udfff half'] });
    assert.equal(again.error, undefined, JSON.stringify(again.error));
    assert.deepEqual(again.result!.structuredContent.skipped, ['lone \ufffd half']);
    assert.deepEqual(again.result!.structuredContent.topics, []);
    const { notes } = await ok('notes.get-notes');
    const { note } = await ok('notes.save-note', { title: '\udc00', content: 'a\ud83d' });
    assert.deepEqual([note.title, note.content], ['\ufffd', 'a\ufffd']);
    assert.equal((await ok('notes.get-notes')).notes.length, notes.length + 1);
  });

  test('refuses 21 keywords in one call', async () => {
    const error = await invalid('topics.add', { keywords: Array.from({ length: 21 }, (_, i) => `kw${i}`) });
    assert.equal(error?.code, -32602);
    assert.equal(error?.message, 'Invalid arguments for tool topics.add: keywords: At most 20 keywords per call');
  });
});

describe('forms', () => {
  const field = { label: 'Company', type: 'text' };

  test('a live form needs confirm_live', async () => {
    assert.deepEqual(await refused('forms.add-fields', { form_id: liveFormId, fields: [field] }), {
      code: 'invalid_request',
      message: `Form ${liveFormId} is live: set confirm_live to true to change it`,
    });
    const { form } = await ok('forms.add-fields', { form_id: liveFormId, fields: [field], confirm_live: true });
    assert.deepEqual(form.fields, [{ label: 'Company', type: 'text', required: false }]);
  });

  test('a draft form takes fields without confirmation and keeps the existing ones', async () => {
    await ok('forms.add-fields', { form_id: draftFormId, fields: [field] });
    const { form } = await ok('forms.add-fields', { form_id: draftFormId, fields: [{ label: 'Email', type: 'email', required: true }] });
    assert.deepEqual(form.fields.map((f: any) => f.label), ['Company', 'Email']);
  });
});

describe('creators', () => {
  test('programs take percentage, fixed or tiered commission and are inert', async () => {
    const pct = await ok('creators.create-program', { name: 'Standard', commission: { type: 'percentage', rate_percent: 10 } });
    assert.equal(pct.program.applied, false);
    await ok('creators.create-program', { name: 'Flat', commission: { type: 'fixed', amount_cents: 500 } });
    await ok('creators.create-program', {
      name: 'Tiers',
      commission: { type: 'tiered', tiers: [{ min_revenue_cents: 0, rate_percent: 5 }, { min_revenue_cents: 100_000, rate_percent: 8 }] },
    });
    const unordered = await invalid('creators.create-program', {
      name: 'Bad', commission: { type: 'tiered', tiers: [{ min_revenue_cents: 5, rate_percent: 5 }, { min_revenue_cents: 1, rate_percent: 8 }] },
    });
    assert.equal(unordered?.message, 'Invalid arguments for tool creators.create-program: commission.tiers: tiers must be ordered by strictly increasing min_revenue_cents');
    const { programs } = await ok('creators.get-programs');
    assert.deepEqual(programs.map((p: any) => p.commission.type), ['percentage', 'fixed', 'tiered']);
  });

  test('creators get distinct 4-digit tracking codes', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const { creator } = await ok('creators.create', { name: `Creator ${i}`, instagram_handle: '@maker' });
      assert.match(creator.tracking_code, /^\d{4}$/);
      assert.equal(creator.active, true);
      codes.add(creator.tracking_code);
    }
    assert.equal(codes.size, 12);
  });

  test('creators.create checks the program exists', async () => {
    assert.deepEqual(await refused('creators.create', { name: 'X', program_id: '999' }), { code: 'not_found', message: 'Creator program 999 not found' });
  });

  test('creators.update changes the allowed fields and refuses commission, program and promo code', async () => {
    const { creator } = await ok('creators.create', { name: 'Ana' });
    const { creator: updated } = await ok('creators.update', { id: creator.id, active: false, tiktok_handle: 'ana.k' });
    assert.equal(updated.active, false);
    assert.equal(updated.tiktok_handle, 'ana.k');
    assert.equal(updated.tracking_code, creator.tracking_code);
    for (const field of ['commission', 'program_id', 'promo_code', 'tracking_code']) {
      const error = await invalid('creators.update', { id: creator.id, [field]: '1' });
      assert.equal(error?.message, `Invalid arguments for tool creators.update: (arguments): Unrecognized key: "${field}"`);
    }
  });
});

describe('drafts and disabled by default', () => {
  test('surveys.create always makes a draft', async () => {
    const { survey } = await ok('surveys.create', { title: 'Post purchase', questions: [{ text: 'How did you hear about us?', type: 'text' }] });
    assert.equal(survey.status, 'draft');
    assert.equal((await invalid('surveys.create', { title: 'x', questions: [], status: 'live' }))?.code, -32602);
  });

  test('offers are refused with terms they cannot run with: a value outside its kind, an end before the start', async () => {
    const refused = async (name: string, args: object) => {
      const reply = await callTool(t.app, ws.headers, name, args);
      return reply.result?.structuredContent.error ?? reply;
    };
    const invalidRequest = (message: string) => ({ code: 'invalid_request', message });
    assert.deepEqual(await refused('offers.create', { name: 'Half', type: 'percentage_discount', config: { value: 150 } }),
      invalidRequest('A percentage_discount needs config.value, a percent above 0 and at most 100'));
    assert.deepEqual(await refused('offers.create', { name: 'Five', type: 'fixed_discount', config: { value: 4.5 } }),
      invalidRequest('A fixed_discount needs config.value, a whole number of cents above 0'));
    assert.deepEqual(await refused('offers.create', { name: 'Ship', type: 'free_shipping', config: { value: 10 } }), invalidRequest('A free_shipping offer takes no config.value'));
    assert.deepEqual(await refused('offers.create', { name: 'Back', type: 'free_shipping', start_date: '2026-12-10', end_date: '2026-12-01' }),
      invalidRequest('end_date must not be before start_date'));
    const { offer } = await ok('offers.create', { name: 'Ship', type: 'free_shipping', start_date: '2026-12-10' });
    // An update is checked against the offer as it would be stored.
    assert.deepEqual(await refused('offers.update', { id: offer.id, end_date: '2026-12-09' }), invalidRequest('end_date must not be before start_date'));
    assert.equal((await ok('offers.update', { id: offer.id, end_date: '2026-12-10' })).offer.end_date, '2026-12-10');
  });

  test('offers.create makes a draft; offers.update changes status and dates but not promo codes', async () => {
    const { segment } = await ok('segments.create', { name: 'VIP', rules: [{ field: 'orders_count', operator: 'greater_than', value: 3 }] });
    assert.equal(segment.audience_sync, false);
    const { offer } = await ok('offers.create', { name: 'Winter 10', type: 'percentage_discount', config: { value: 10 }, target_segment_id: segment.id });
    assert.equal(offer.status, 'draft');
    const { offer: updated } = await ok('offers.update', { id: offer.id, status: 'scheduled', start_date: '2026-12-01' });
    assert.deepEqual([updated.status, updated.start_date, updated.name], ['scheduled', '2026-12-01', 'Winter 10']);
    assert.equal((await invalid('offers.update', { id: offer.id, promo_code: 'WIN10' }))?.code, -32602);
    assert.equal((await invalid('segments.update', { id: segment.id, audience_sync: true }))?.code, -32602);
  });

  test('workflows are created disabled and cannot be enabled through tools', async () => {
    const { workflow } = await ok('workflows.create', {
      name: 'ROAS alert',
      trigger: { type: 'metric_threshold', metric: 'roas', operator: 'below', value: 1.5 },
      actions: [{ type: 'notify_email', target: 'team@shop.example' }],
    });
    assert.equal(workflow.enabled, false);
    assert.equal((await invalid('workflows.create', { name: 'x', trigger: { type: 'daily_schedule' }, actions: [{ type: 'notify_email' }], enabled: true }))?.code, -32602);
    const { workflows } = await ok('workflows.get-rules');
    assert.deepEqual(workflows.map((w: any) => [w.name, w.enabled]), [['ROAS alert', false]]);
    assert.deepEqual(await ok('workflows.get-executions', { workflow_id: workflow.id }), { executions: [] });
  });
});

describe('marketing angles, AI visibility, dashboards', () => {
  test('an angle starts as idea and update changes only named fields', async () => {
    const { angle } = await ok('marketing-angles.create', { title: 'Warm feet', summary: 'Merino keeps you warm', tags: ['winter'] });
    assert.equal(angle.status, 'idea');
    const { angle: updated } = await ok('marketing-angles.update', { id: angle.id, status: 'testing', linked_creatives: ['ad-a'] });
    assert.deepEqual([updated.title, updated.status, updated.tags, updated.linked_creatives], ['Warm feet', 'testing', ['winter'], ['ad-a']]);
    assert.equal((await invalid('marketing-angles.update', { id: angle.id, status: 'viral' }))?.code, -32602);
  });

  test('AI prompts are stored and listed with their results', async () => {
    await ok('ai-visibility.create-prompt', { prompt: 'best merino socks', competitors: ['Darn Tough'] });
    const { prompts } = await ok('ai-visibility.get-results');
    assert.deepEqual(prompts.map((p: any) => [p.prompt, p.competitors, p.results]), [['best merino socks', ['Darn Tough'], []]]);
  });

  test('custom reports are saved and listed, each with the dashboard view that shows it', async () => {
    const { report } = await ok('dashboards.create-report', { name: 'Meta weekly', metrics: ['spend', 'roas'], breakdown: 'campaign', interval: 'week' });
    const { custom_reports, dashboards } = await ok('dashboards.get-dashboards');
    assert.deepEqual(custom_reports.map((r: any) => [r.name, r.metrics, r.breakdown]), [['Meta weekly', ['spend', 'roas'], 'campaign']]);
    assert.deepEqual(dashboards, [{ report_id: report.id, name: 'Meta weekly', path: `/saved?workspace=${ws.id}&report=${report.id}` }]);
    assert.equal((await invalid('dashboards.create-report', { name: 'x', metrics: ['profitability'] }))?.code, -32602);
  });
});

describe('lists, creatives and labels', () => {
  test('columns, items and item updates; unknown columns are refused', async () => {
    const { list } = await ok('lists.create', { name: 'Hooks', kind: 'list', folder: 'Research' });
    assert.deepEqual(Object.keys(list), ['id', 'name', 'kind', 'folder']);
    await ok('lists.add-column', { list_id: list.id, name: 'hook' });
    await ok('lists.add-column', { list_id: list.id, name: 'score', type: 'number' });
    assert.equal((await refused('lists.add-column', { list_id: list.id, name: 'hook' })).code, 'conflict');
    const { items } = await ok('lists.add-items', { list_id: list.id, items: [{ values: { hook: 'Cold toes?', score: 3 } }] });
    assert.deepEqual(await refused('lists.add-items', { list_id: list.id, items: [{ values: { colour: 'red' } }] }), {
      code: 'invalid_request',
      message: 'Unknown column(s): colour. Columns of this list: hook, score',
    });
    await ok('lists.update-items', { list_id: list.id, items: [{ id: items[0].id, values: { score: 5 } }] });
    const detail = await ok('lists.get-lists', { list_id: list.id });
    assert.deepEqual(detail.items.map((i: any) => i.values), [{ hook: 'Cold toes?', score: 5 }]);
    assert.equal(detail.total_items, 1);
    assert.equal((await invalid('lists.create', { name: 'x', kind: 'table' }))?.code, -32602);
  });

  test('cells keep to their column type and a select column to its options', async () => {
    const { list } = await ok('lists.create', { name: 'Typed', kind: 'list' });
    await ok('lists.add-column', { list_id: list.id, name: 'stage', type: 'select', options: ['idea', 'testing', 'live'] });
    for (const [name, type] of [['score', 'number'], ['due', 'date'], ['link', 'url'], ['done', 'checkbox']]) await ok('lists.add-column', { list_id: list.id, name, type });
    const good = { stage: 'testing', score: 2.5, due: '2026-12-01', link: 'https://shop.example/p/1', done: false };
    const { items } = await ok('lists.add-items', { list_id: list.id, items: [{ values: good }] });
    assert.deepEqual(items[0].values, good);
    const cell = async (values: object) => (await refused('lists.update-items', { list_id: list.id, items: [{ id: items[0].id, values }] })).message;
    assert.equal(await cell({ stage: 'shipped' }), 'Column stage (select) takes one of idea, testing, live, not "shipped"');
    assert.equal(await cell({ score: '3' }), 'Column score (number) takes a number, not "3"');
    assert.equal(await cell({ due: '2026-02-30' }), 'Column due (date) takes a calendar day YYYY-MM-DD, not "2026-02-30"');
    assert.equal(await cell({ link: 'javascript:alert(1)' }), 'Column link (url) takes an http(s) URL, not "javascript:alert(1)"');
    assert.equal(await cell({ done: 'yes' }), 'Column done (checkbox) takes true or false, not "yes"');
    assert.deepEqual((await ok('lists.update-items', { list_id: list.id, items: [{ id: items[0].id, values: { stage: null } }] })).items[0].values.stage, null);
    const issues = async (args: object) => (await callTool(t.app, ws.headers, 'lists.add-column', { list_id: list.id, name: 'x', ...args })).error?.data?.issues?.map((i: { message: string }) => i.message);
    assert.deepEqual(await issues({ type: 'select' }), ['a select column needs options']);
    assert.deepEqual(await issues({ type: 'text', options: ['a'] }), ['a text column takes no options']);
    assert.deepEqual(await issues({ type: 'select', options: ['a', 'a'] }), ['options must differ']);
  });

  test('add-top-creatives ranks by ROAS and adds linked rows', async () => {
    const { list } = await ok('lists.create', { name: 'Winners', kind: 'whiteboard' });
    const result = await ok('lists.add-top-creatives', { list_id: list.id, rank_by: 'roas', count: 2, date_from: '2026-11-01', date_to: '2026-11-20' });
    assert.deepEqual(result.items.map((i: any) => [i.values.creative, i.values.roas, i.linked.rank]), [['Ad ad-a', 0.8, 1], ['Ad ad-b', 0, 2]]);
    assert.deepEqual(result.items[0].creative, {
      asset_id: 'ad-a', source: 'meta', ad_name: 'Ad ad-a', campaign_id: 'c1', campaign_name: 'Winter', first_day: '2026-11-10',
      last_day: '2026-11-10', spend: 100, impressions: 1000, clicks: 20, ctr: 0.02, conversions: 1, revenue: 80, roas: 0.8,
    });
    const bySpend = await ok('lists.add-top-creatives', { list_id: list.id, rank_by: 'spend', count: 1, date_from: '2026-11-01', date_to: '2026-11-20' });
    assert.equal(bySpend.items[0].values.creative, 'Ad ad-a');
  });

  test('label-asset needs force to relabel, and refuses unknown assets', async () => {
    await ok('labels.label-asset', { asset_id: 'ad-a', labels: ['ugc', 'hook:question'] });
    assert.equal((await refused('labels.label-asset', { asset_id: 'ad-a', labels: ['studio'] })).code, 'conflict');
    await ok('labels.label-asset', { asset_id: 'ad-a', labels: ['studio'], force: true });
    assert.deepEqual(await refused('labels.label-asset', { asset_id: 'nope', labels: ['x'] }), { code: 'not_found', message: 'Asset nope not found in the ad data' });
    const { labels } = await ok('labels.get-labels');
    assert.deepEqual(labels.map((l: any) => [l.asset_id, l.labels]), [['ad-a', ['studio']]]);
    const { assets } = await ok('library.get-assets', { date_from: '2026-11-01', date_to: '2026-11-20', sort_by: 'revenue' });
    assert.deepEqual(assets.map((a: any) => [a.asset_id, a.labels]), [['ad-a', ['studio']], ['ad-b', []]]);
  });
});

describe('audit log', () => {
  test('every write is recorded with the acting key, newest first, and reads are not', async () => {
    const before = (await ok('audit-log.get-log', { limit: 500 })).entries.length;
    const { note } = await ok('notes.save-note', { title: 'Audit me', content: '' });
    await ok('notes.update', { id: note.id, title: 'Audited' });
    await ok('notes.get-notes');
    const { entries } = await ok('audit-log.get-log', { limit: 500 });
    assert.equal(entries.length, before + 2);
    assert.deepEqual(entries.slice(0, 2).map((e: any) => [e.action, e.target, e.details]), [
      ['notes.update', `note:${note.id}`, { changed: { title: 'Audited' } }],
      ['notes.save-note', `note:${note.id}`, { created: { title: 'Audit me', content: '' } }],
    ]);
    assert.match(entries[0].actor, /^key:\d+$/);
    const actions = new Set(entries.map((e: any) => e.action));
    for (const write of ['topics.add', 'forms.add-fields', 'creators.create', 'creators.update', 'lists.add-top-creatives', 'labels.label-asset', 'workflows.create']) {
      assert.ok(actions.has(write), write);
    }
  });
});

/**
 * Arguments that meet rules across fields the JSON Schema cannot say, which random valid-looking
 * arguments seldom meet (a workflow's trigger fields and action targets by type).
 */
const CROSS_FIELD_VALID: Record<string, Record<string, unknown>[]> = {
  'workflows.create': [{ name: 'Daily', trigger: { type: 'daily_schedule' }, actions: [{ type: 'notify_email', target: 'team@shop.example' }] }],
  'segments.create': [{ name: 'Repeat', rules: [{ field: 'orders_count', operator: 'greater_than', value: 1 }] }],
  'segments.update': [{ id: '1', rules: [{ field: 'city', operator: 'in', value: ['Berlin'] }] }],
  // Each question's (field's) options must suit its type: random ones rarely all do.
  'forms.add-fields': [{ form_id: '1', fields: [{ label: 'Email', type: 'email', required: true }, { label: 'Size', type: 'select', options: ['S', 'M'] }] }],
  'surveys.create': [{ title: 'After your order', questions: [{ text: 'How did you hear about us?', type: 'single_choice', options: ['Instagram', 'Google'] }, { text: 'Rate us', type: 'rating' }] }],
};

describe('who may write', () => {
  const WRITE_TOOLS = TOOLS.filter((tool) => !tool.annotations.readOnlyHint);
  const DENIED = { code: 'permission_denied', message: 'Writing needs a key with the write:drafts or admin:admin scope' };

  test('every write and update tool refuses a key without write:drafts or admin:admin, and records nothing', async () => {
    assert.ok(WRITE_TOOLS.length >= 20);
    const readers = [await ws.keyHeaders(['read:organic']), await ws.keyHeaders(['read:meta', 'read:google', 'read:profit', 'read:creators'])];
    const logged = (await ok('audit-log.get-log', { limit: 500 })).entries.length;
    for (const tool of WRITE_TOOLS) {
      // Arguments are checked first (-32602); a valid set then meets the permission check.
      let refused;
      const samples = [...(CROSS_FIELD_VALID[tool.name] ?? []), ...fc.sample(validArgs(tool), 40)];
      for (const [i, args] of samples.entries()) {
        const reply = await callTool(t.app, readers[i % 2]!, tool.name, args);
        if (reply.error?.code === -32602) continue;
        refused = reply.result;
        break;
      }
      assert.deepEqual(refused, { content: [{ type: 'text', text: JSON.stringify({ error: DENIED }) }], structuredContent: { error: DENIED }, isError: true }, tool.name);
    }
    assert.equal((await ok('audit-log.get-log', { limit: 500 })).entries.length, logged);
  });

  test('a write:drafts key writes (audited under its own key) but reads no channel and no audit log', async () => {
    const writer = await ws.keyHeaders(['write:drafts']);
    const { note } = await toolOk(t.app, writer, 'notes.save-note', { title: 'From the assistant', content: 'draft' });
    const own = await ok('notes.save-note', { title: 'From the admin', content: '' });
    const { entries } = await ok('audit-log.get-log', { limit: 2 });
    assert.deepEqual(entries.map((e: any) => e.target), [`note:${own.note.id}`, `note:${note.id}`]);
    assert.match(entries[1].actor, /^key:\d+$/);
    assert.notEqual(entries[1].actor, entries[0].actor);
    for (const [headers, name] of [[writer, 'audit-log.get-log'], [await ws.keyHeaders(['read:organic', 'read:profit']), 'audit-log.get-log'], [writer, 'hourly.get-data']] as const) {
      const reply = await callTool(t.app, headers, name, {});
      assert.equal(reply.result?.structuredContent.error.code, 'permission_denied', name);
    }
  });
});
