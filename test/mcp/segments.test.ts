/**
 * segments.get-segments evaluates each segment: member_count is the number of customers matching
 * every rule, checked against hand-counted customers; rules outside metadata.list_schema's
 * segment_fields are refused.
 * Fixture (workspace "Segments"; days counted back from now):
 *   customer A: sale orders of 100.00, 50.00 (coupon WELCOME10) and 30.00, the newest 2 days ago in
 *               Berlin, DE; the pixel tied visitor 1 to A, whose session landed from facebook.
 *   customer B: one sale order of 500.00, 20 days ago in New York, US; visitor 2 (landed from google).
 *   customer C: sale orders of 20.00 and 20.00, the newest 5 days ago in Munich, DE, and a cancelled
 *               order of 1,000.00; no visits.
 *   customer D: only a cancelled order (no customer). An order without a customer id counts for no one.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { callTool, toolOk } from './rpc.ts';

let t: TestApp;
let ws: TestWorkspace;

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores, 'Segments');
  const order = (transaction_id: string, customer_id: string, days: number, cents: number, place: [string, string], extra: object = {}) => ({
    store_id: ws.id, transaction_id, customer_id, dt: daysAgo(days), gross_revenue: cents, country_code: place[0], city: place[1], version: 1, ...extra,
  });
  const berlin: [string, string] = ['DE', 'Berlin'];
  await insertRows(t.stores, 'orders', [
    order('a1', 'A', 9, 10_000, berlin), order('a2', 'A', 6, 5_000, berlin, { coupon_code: 'WELCOME10' }), order('a3', 'A', 2, 3_000, berlin),
    order('b1', 'B', 20, 50_000, ['US', 'New York']),
    order('c1', 'C', 8, 2_000, ['DE', 'Munich']), order('c2', 'C', 5, 2_000, ['DE', 'Munich']),
    order('c3', 'C', 1, 100_000, ['DE', 'Munich'], { status: 'cancelled' }),
    order('d1', 'D', 3, 7_000, ['FR', 'Paris'], { status: 'cancelled' }),
    order('x1', '', 3, 9_000, ['FR', 'Paris']),
  ]);
  const visit = (session_id: number, visitor_id: number, adv_source: string) => ({
    store_id: ws.id, session_id, visitor_id, dt: daysAgo(9), name: 'pageview', adv_source,
  });
  await insertRows(t.stores, 'events', [visit(1, 1, 'facebook'), visit(2, 2, 'google')]);
  await insertRows(t.stores, 'conversions', [
    { store_id: ws.id, session_id: 1, visitor_id: 1, dt: daysAgo(9), name: 'purchase', transaction_id: 'a1', customer_id: 'A', transaction_gross_revenue: 10_000 },
    { store_id: ws.id, session_id: 2, visitor_id: 2, dt: daysAgo(20), name: 'purchase', transaction_id: 'b1', customer_id: 'B', transaction_gross_revenue: 50_000 },
  ]);
  const segment = (name: string, rules: object[]) => toolOk(t.app, ws.headers, 'segments.create', { name, rules });
  await segment('Repeat buyers', [{ field: 'orders_count', operator: 'greater_than', value: 1 }]);
  await segment('Big spenders', [{ field: 'total_spent', operator: 'greater_than', value: 100 }]);
  await segment('Germany', [{ field: 'country_code', operator: 'equals', value: 'DE' }]);
  await segment('Big in Germany', [{ field: 'country_code', operator: 'equals', value: 'DE' }, { field: 'total_spent', operator: 'greater_than', value: 100 }]);
  await segment('Came from meta', [{ field: 'adv_source', operator: 'equals', value: 'meta' }]);
  await segment('Never from google', [{ field: 'adv_source', operator: 'not_equals', value: 'google' }]);
  await segment('Welcome coupon', [{ field: 'coupon_code', operator: 'equals', value: 'WELCOME10' }]);
  await segment('Bought this week', [{ field: 'days_since_last_order', operator: 'less_than', value: 4 }]);
  await segment('Munich or Paris', [{ field: 'city', operator: 'in', value: ['Munich', 'Paris'] }]);
  await segment('City with erl', [{ field: 'city', operator: 'contains', value: 'erl' }]);
});
after(() => t.close());

describe('segments.get-segments', () => {
  test('counts the customers matching every rule of each segment', async () => {
    const { segments } = await toolOk(t.app, ws.headers, 'segments.get-segments', {});
    assert.deepEqual(segments.map((s: { name: string; member_count: number }) => [s.name, s.member_count]), [
      ['Repeat buyers', 2], // A (3 orders), C (2 sales; the cancelled one does not count)
      ['Big spenders', 2], // A 180.00, B 500.00
      ['Germany', 2], // A, C
      ['Big in Germany', 1], // A
      ['Came from meta', 1], // A (facebook is of the meta family)
      ['Never from google', 2], // A, C
      ['Welcome coupon', 1], // A
      ['Bought this week', 1], // A, 2 days ago
      ['Munich or Paris', 1], // C; D has no sale, the Paris order no customer
      ['City with erl', 1], // A, Berlin
    ]);
  });

  test('a key that does not see every channel gets the segments without counts', async () => {
    const { segments } = await toolOk(t.app, await ws.keyHeaders(['read:google', 'read:meta']), 'segments.get-segments', { limit: 2 });
    assert.deepEqual(segments.map((s: { name: string; member_count: null }) => [s.name, s.member_count]), [['Repeat buyers', null], ['Big spenders', null]]);
  });

  test('metadata.list_schema lists the fields and operators the rules may use', async () => {
    const { schema } = await toolOk(t.app, ws.headers, 'metadata.list_schema', {});
    assert.deepEqual(schema.segment_fields.map((f: { field: string; type: string; operators: string[] }) => [f.field, f.type, f.operators.join(' ')]), [
      ['orders_count', 'number', 'equals not_equals greater_than less_than'],
      ['total_spent', 'number', 'equals not_equals greater_than less_than'],
      ['days_since_last_order', 'number', 'equals not_equals greater_than less_than'],
      ['country_code', 'text', 'equals not_equals contains in'],
      ['city', 'text', 'equals not_equals contains in'],
      ['coupon_code', 'list', 'equals not_equals contains in'],
      ['adv_source', 'list', 'equals not_equals contains in'],
    ]);
  });

  test('rules on unknown fields, with an operator the field does not take or a value of the wrong kind are refused', async () => {
    const refusal = async (rule: object) => {
      const reply = await callTool(t.app, ws.headers, 'segments.create', { name: 'Bad', rules: [rule] });
      return reply.error?.data?.issues?.map((i: { message: string }) => i.message) ?? reply;
    };
    assert.deepEqual(await refusal({ field: 'favourite_colour', operator: 'equals', value: 'red' }), [
      'field must be one of orders_count, total_spent, days_since_last_order, country_code, city, coupon_code, adv_source (metadata.list_schema segment_fields)',
    ]);
    assert.deepEqual(await refusal({ field: 'country_code', operator: 'greater_than', value: 'DE' }), ['country_code takes the operators equals, not_equals, contains, in']);
    assert.deepEqual(await refusal({ field: 'orders_count', operator: 'equals', value: 'three' }), ['orders_count is compared with a number']);
    assert.deepEqual(await refusal({ field: 'city', operator: 'in', value: 'Berlin' }), ['the in operator takes a list of values']);
  });
});
