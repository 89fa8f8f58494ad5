/**
 * Stored objects that carry channel data are read and written only by keys that see those
 * channels (no indirect leaks): list rows copied from the ads, creatives' labels, marketing
 * angles' linked creatives, saved reports' source filters and segment rules on the landing
 * channel. A list row typed by a key holds what that key reads (the admin key's: the whole store).
 * Objects stored before their channels were kept are shown to unrestricted keys only.
 * Fixture: workspace "Shop" with a meta ad m1 (100.00 spend) and a google ad g1 (50.00) on
 * 2026-11-10. The admin key stores: list "Top" with both as top creatives and a typed row (the
 * google key types one more), labels
 * on m1 and g1, angles linking m1, g1 and nothing, a custom report filtered on meta, a segment on
 * adv_source facebook, and one label written before channels were kept (straight into app state).
 * Readers: a read:google + write:drafts key, and a write:drafts key that sees no channel.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { createObject } from '../../src/store/app/tool-objects.ts';
import { callTool, toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;
let google: Record<string, string>;
let blind: Record<string, string>;
let listId: string;
const ids: Record<string, string> = {};

const RANGE = { date_from: '2026-11-10', date_to: '2026-11-10' };

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Shop');
  google = await ws.keyHeaders(['read:google', 'write:drafts']);
  blind = await ws.keyHeaders(['write:drafts']);
  const ad = (source: string, ad_id: string, spend: number) => ({
    store_id: ws.id, dt: '2026-11-10', source, ad_id, ad_name: `Ad ${ad_id}`, campaign_id: `c-${ad_id}`, campaign_name: 'Winter',
    spend, impressions: 1000, clicks: 20, version: 1,
  });
  await insertRows(t.stores, 'ads', [ad('meta', 'm1', 10_000), ad('google', 'g1', 5_000)]);
  const admin = (name: string, args: unknown) => toolOk(t.app, ws.headers, name, args);
  listId = (await admin('lists.create', { name: 'Top', kind: 'list' })).list.id;
  await admin('lists.add-top-creatives', { list_id: listId, rank_by: 'spend', count: 5, ...RANGE });
  await admin('lists.add-column', { list_id: listId, name: 'idea' });
  await admin('lists.add-items', { list_id: listId, items: [{ values: { idea: 'typed by hand' } }] });
  await toolOk(t.app, google, 'lists.add-items', { list_id: listId, items: [{ values: { idea: 'typed by google' } }] });
  await admin('labels.label-asset', { asset_id: 'm1', labels: ['hook'] });
  await admin('labels.label-asset', { asset_id: 'g1', labels: ['ugc'] });
  ids.metaAngle = (await admin('marketing-angles.create', { title: 'Meta angle', linked_creatives: ['m1'] })).angle.id;
  ids.googleAngle = (await admin('marketing-angles.create', { title: 'Google angle', linked_creatives: ['g1'] })).angle.id;
  ids.plainAngle = (await admin('marketing-angles.create', { title: 'Plain angle' })).angle.id;
  await admin('dashboards.create-report', { name: 'Meta only', metrics: ['spend'], filters: { source: ['meta'] } });
  await admin('dashboards.create-report', { name: 'Everything', metrics: ['spend'] });
  await admin('segments.create', { name: 'From facebook', rules: [{ field: 'adv_source', operator: 'equals', value: 'facebook' }] });
  await admin('segments.create', { name: 'Big spenders', rules: [{ field: 'total_spent', operator: 'greater_than', value: 500 }] });
  await createObject(t.stores.db, ws.id, 'asset_label', { asset_id: 'g-old', labels: ['legacy'] }, { uniqueKey: 'g-old' });
});
after(() => t.close());

const read = (headers: Record<string, string>, name: string, args: unknown = {}) => toolOk(t.app, headers, name, args);
const errorOf = async (headers: Record<string, string>, name: string, args: unknown) => (await callTool(t.app, headers, name, args)).result?.structuredContent.error;
const itemNames = (items: { values: { creative?: string; idea?: string } }[]) => items.map((i) => i.values.creative ?? i.values.idea);

describe('reading', () => {
  test('lists.get-lists shows a key only the rows of channels it sees, and counts only those', async () => {
    const all = await read(ws.headers, 'lists.get-lists', { list_id: listId });
    assert.deepEqual([itemNames(all.items), all.total_items], [['Ad m1', 'Ad g1', 'typed by hand', 'typed by google'], 4]);
    const seen = await read(google, 'lists.get-lists', { list_id: listId });
    assert.deepEqual([itemNames(seen.items), seen.total_items], [['Ad g1', 'typed by google'], 2], 'a row the admin key typed holds the whole store');
    const none = await read(blind, 'lists.get-lists', { list_id: listId });
    assert.deepEqual([itemNames(none.items), none.total_items], [[], 0], 'a key that reads no data sees no row');
    const paged = await read(google, 'lists.get-lists', { list_id: listId, limit: 1, offset: 1 });
    assert.deepEqual(itemNames(paged.items), ['typed by google'], 'pages are cut from the visible rows');
  });

  test('labels, angles, saved reports and segments of hidden channels are left out; the rest is shown', async () => {
    const names = async (headers: Record<string, string>) => ({
      labels: (await read(headers, 'labels.get-labels')).labels.map((l: { asset_id: string }) => l.asset_id),
      angles: (await read(headers, 'marketing-angles.get-angles')).angles.map((a: { title: string }) => a.title),
      reports: (await read(headers, 'dashboards.get-dashboards')).custom_reports.map((r: { name: string }) => r.name),
      segments: (await read(headers, 'segments.get-segments')).segments.map((s: { name: string }) => s.name),
    });
    assert.deepEqual(await names(ws.headers), {
      labels: ['m1', 'g1', 'g-old'], angles: ['Meta angle', 'Google angle', 'Plain angle'],
      reports: ['Meta only', 'Everything'], segments: ['From facebook', 'Big spenders'],
    });
    assert.deepEqual(await names(google), { labels: ['g1'], angles: ['Google angle', 'Plain angle'], reports: ['Everything'], segments: ['Big spenders'] });
    assert.deepEqual(await names(blind), { labels: [], angles: ['Plain angle'], reports: ['Everything'], segments: ['Big spenders'] });
  });

  test('no answer carries the kept channels themselves', async () => {
    const answers = [await read(ws.headers, 'lists.get-lists', { list_id: listId }), await read(ws.headers, 'labels.get-labels'), await read(ws.headers, 'marketing-angles.get-angles')];
    assert.ok(answers.every((a) => !JSON.stringify(a).includes('_channels')));
  });
});

describe('writing', () => {
  test('a hidden object is not found for a key that does not see it, so it cannot change it', async () => {
    assert.deepEqual(await errorOf(google, 'marketing-angles.update', { id: ids.metaAngle, status: 'paused' }), { code: 'not_found', message: `Marketing angle ${ids.metaAngle} not found` });
    const metaRow = (await read(ws.headers, 'lists.get-lists', { list_id: listId })).items[0];
    assert.deepEqual(await errorOf(google, 'lists.update-items', { list_id: listId, items: [{ id: metaRow.id, values: { idea: 'x' } }] }), { code: 'not_found', message: `Item ${metaRow.id} not found` });
    assert.equal((await read(google, 'marketing-angles.update', { id: ids.googleAngle, status: 'testing' })).angle.status, 'testing');
  });

  test('a key cannot store channel data it does not see: permission_denied, nothing stored', async () => {
    const denied = { code: 'permission_denied', message: 'You do not have access to the requested sources' };
    assert.deepEqual(await errorOf(google, 'marketing-angles.create', { title: 'Sneaky', linked_creatives: ['g1', 'm1'] }), denied);
    assert.deepEqual(await errorOf(google, 'marketing-angles.update', { id: ids.googleAngle, linked_creatives: ['m1'] }), denied);
    assert.deepEqual(await errorOf(google, 'segments.create', { name: 'FB', rules: [{ field: 'adv_source', operator: 'in', value: ['google', 'instagram'] }] }), denied);
    assert.deepEqual(await errorOf(google, 'dashboards.create-report', { name: 'Meta', metrics: ['spend'], filters: { ignore_sources: ['meta'] } }), denied);
    assert.equal((await read(ws.headers, 'marketing-angles.get-angles')).angles.length, 3);
    assert.deepEqual(await errorOf(google, 'marketing-angles.create', { title: 'Google too', linked_creatives: ['g1', 'unknown-ad'] }), {
      code: 'invalid_request', message: 'No ad of this workspace has the id(s) unknown-ad: linked creatives are ad ids from the ads rows',
    });
  });

  test('labelling a creative keeps its platform; an old label becomes visible once labelled again', async () => {
    await insertRows(t.stores, 'ads', [{ store_id: ws.id, dt: '2026-11-10', source: 'google', ad_id: 'g-old', spend: 100, impressions: 1, clicks: 0, version: 1 }]);
    assert.ok(!(await read(google, 'labels.get-labels')).labels.some((l: { asset_id: string }) => l.asset_id === 'g-old'));
    await read(google, 'labels.label-asset', { asset_id: 'g-old', labels: ['fresh'], force: true });
    assert.deepEqual((await read(google, 'labels.get-labels')).labels.map((l: { asset_id: string; labels: string[] }) => [l.asset_id, l.labels]), [['g1', ['ugc']], ['g-old', ['fresh']]]);
  });
});
