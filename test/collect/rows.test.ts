/**
 * The import row formats (src/collect/row-schemas.ts) as a table: each case is one input row of a kind
 * and the canonical row or the error text it must give. No stores involved.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { OUT_OF_RANGE, text, timestamp } from '../../src/collect/fields.ts';
import { adRow, conversionRow, eventRow, expenseRow, orderRow, productRow } from '../../src/collect/row-schemas.ts';
import { describeIssues } from '../../src/kit/zod-issues.ts';

const check = (schema: z.ZodType, row: unknown) => {
  const parsed = schema.safeParse(row);
  return parsed.success ? parsed.data : describeIssues(parsed.error);
};

const HINT = 'expected YYYY-MM-DD HH:MM:SS[.mmm] (UTC) or ISO 8601 with Z or an offset';

describe('timestamps', () => {
  const cases: [string, string | null][] = [
    ['2026-03-01 10:00:00', '2026-03-01 10:00:00.000'],
    ['2026-03-01 10:00:00.5', '2026-03-01 10:00:00.500'],
    ['2026-03-01T10:00:00Z', '2026-03-01 10:00:00.000'],
    ['2026-03-01T10:00:00.123+02:00', '2026-03-01 08:00:00.123'],
    ['2026-03-01T01:30:00-0130', '2026-03-01 03:00:00.000'],
    ['2026-03-01 00:30:00+01:00', '2026-02-28 23:30:00.000'],
    ['2026-03-01T10:00:00', null],
    ['2026-02-29 10:00:00', null],
    ['2026-03-01 24:00:00', null],
    ['2026-03-01', null],
    ['01/03/2026 10:00', null],
  ];
  for (const [input, expected] of cases) {
    test(`${input} -> ${expected ?? 'rejected'}`, () => assert.equal(check(timestamp, input), expected ?? HINT));
  }

  const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();
  const range: [string, string][] = [
    ['2000-01-01T00:00:00Z', '2000-01-01 00:00:00.000'],
    ['2000-01-01T00:30:00+01:00', OUT_OF_RANGE],
    ['1970-01-01T00:00:00+05:00', OUT_OF_RANGE],
    ['1969-12-31 23:59:59', OUT_OF_RANGE],
    ['2300-01-01 00:00:00', OUT_OF_RANGE],
    ['1969-02-30 10:00:00', HINT],
    ['2299-12-31T00:00:00Z', OUT_OF_RANGE],
    [inFuture(10 * 60_000), OUT_OF_RANGE],
  ];
  for (const [input, expected] of range) {
    test(`checks the range after the offset: ${input} -> ${expected}`, () => assert.equal(check(timestamp, input), expected));
  }

  test('allows a few minutes of clock skew', () => {
    const soon = Date.now() + 60_000;
    assert.equal(check(timestamp, new Date(soon).toISOString()), new Date(soon).toISOString().replace('T', ' ').slice(0, 23));
  });
});

describe('text', () => {
  test('replaces lone surrogates with U+FFFD and keeps surrogate pairs', () => {
    assert.equal(check(text, 'a\ud83d|\ude00b|\ud83d\ude00'), 'a\ufffd|\ufffdb|\ud83d\ude00');
  });
});

describe('row formats', () => {
  test('an event takes digit strings and numbers for ids, drops store_id, fills absent strings with empty ones', () => {
    assert.deepEqual(
      check(eventRow, { store_id: 9, dt: '2026-03-01 10:00:00', name: 'pageview', session_id: '0042', visitor_id: 18446744073709551615n.toString(), adv_source: 'Facebook', country_code: 'de', entry_meta_keys: '["fbclid"]', entry_meta_values: ['x'] }),
      {
        dt: '2026-03-01 10:00:00.000', name: 'pageview', session_id: '42', visitor_id: '18446744073709551615', visitor_timezone: '',
        adv_source: 'facebook', adv_campaign_id: '', adv_adgroup_id: '', adv_ad_id: '', adv_asset_group_id: '',
        utm_source: '', utm_medium: '', utm_campaign: '', utm_content: '', utm_term: '', device_type: '', country_code: 'DE', city: '',
        hostname: '', pathname: '', referrer: '', entry_meta_keys: ['fbclid'], entry_meta_values: ['x'], customer_id: '',
      },
    );
  });

  test('an event refuses ids that are not unsigned 64-bit integers and unequal click-id arrays', () => {
    const base = { dt: '2026-03-01 10:00:00', name: 'pageview' };
    assert.equal(check(eventRow, { ...base, session_id: -1, visitor_id: 1.5 }), 'session_id: expected a non-negative integer (number or digit string); visitor_id: expected a non-negative integer (number or digit string)');
    assert.equal(check(eventRow, { ...base, session_id: '18446744073709551616', visitor_id: 1 }), 'session_id: expected a non-negative integer (number or digit string)');
    assert.equal(check(eventRow, { ...base, session_id: 1, visitor_id: 1, entry_meta_keys: ['a', 'b'], entry_meta_values: ['x'] }), 'entry_meta_values: entry_meta_keys and entry_meta_values must have the same length');
    assert.equal(check(eventRow, { ...base, session_id: 1, visitor_id: 1, entry_meta_keys: '[oops' }), 'entry_meta_keys: expected an array of strings (JSON text in CSV cells)');
  });

  test('a conversion keeps coupon_code, takes is_new_customer as 0/1/true/false and ignores channel fields', () => {
    const row = { dt: '2026-03-01 10:00:00', name: 'purchase', session_id: 1, visitor_id: 2, is_new_customer: true, transaction_gross_revenue: '4999', coupon_code: 'WELCOME10', adv_source: 'google', utm_source: 'x' };
    assert.deepEqual(check(conversionRow, row), {
      dt: '2026-03-01 10:00:00.000', name: 'purchase', session_id: '1', visitor_id: '2', customer_id: '', transaction_id: '',
      is_new_customer: 1, transaction_gross_revenue: 4999, transaction_currency: '', transaction_country_code: '',
      transaction_city: '', hostname: '', coupon_code: 'WELCOME10', line_items: [],
    });
    assert.equal(check(conversionRow, { ...row, is_new_customer: 'yes' }), 'is_new_customer: expected 0 or 1');
  });

  test('an order reads refunds from JSON text and leaves an absent payment_fee null', () => {
    assert.deepEqual(check(orderRow, { transaction_id: 1001, dt: '2026-03-01T10:00:00Z', gross_revenue: 1000, refunds: '[{"dt":"2026-03-02 00:00:00","amount":"250"}]', currency: 'usd' }), {
      transaction_id: '1001', dt: '2026-03-01 10:00:00.000', customer_id: '', is_new_customer: 0, currency: 'USD', gross_revenue: 1000,
      tax: 0, shipping: 0, discount: 0, refunds: [{ dt: '2026-03-02 00:00:00.000', amount: 250 }], cogs: 0, shipping_cost: 0, payment_fee: null,
      updated_at: null, status: 'sale', platform_status: '', coupon_code: '', city: '', country_code: '', line_items: [],
    });
    assert.equal(check(orderRow, { transaction_id: 'T', dt: '2026-03-01 10:00:00', gross_revenue: 200, refunds: '[{"dt":"2026-03-02 00:00:00","amount":"250"}]' }),
      "refunds: 250 in total, more than the order's gross_revenue of 200");
    assert.equal(check(orderRow, { transaction_id: 'T', dt: '2026-03-01 10:00:00', refunds: [{ dt: 'soon', amount: 1 }] }), 'refunds: [0]: dt: expected YYYY-MM-DD HH:MM:SS[.mmm] (UTC) or ISO 8601 with Z or an offset');
  });

  test('an order folds the older cancelled flag into its status; the more decisive reason wins', () => {
    const order = { transaction_id: 'T', dt: '2026-03-01 10:00:00' };
    const status = (fields: object) => (check(orderRow, { ...order, ...fields }) as { status: string }).status;
    assert.deepEqual(
      [status({}), status({ cancelled: 1 }), status({ cancelled: 'true', status: 'pending' }), status({ cancelled: 1, status: 'test' }), status({ cancelled: 0, status: 'voided' })],
      ['sale', 'cancelled', 'cancelled', 'test', 'voided'],
    );
    assert.equal(check(orderRow, { ...order, status: 'Sale' }), 'status: expected one of test, cancelled, voided, pending, sale');
  });

  test('line items: names trimmed, numbers as digits, at least one name, bounded sizes', () => {
    const lines = (value: unknown) => (check(orderRow, { transaction_id: 'T', dt: '2026-03-01 10:00:00', line_items: value }) as { line_items: unknown } | string);
    assert.deepEqual(lines([{ product_id: 8011, title: ' Shirt ', quantity: '2', unit_price: 1500 }]), {
      ...(check(orderRow, { transaction_id: 'T', dt: '2026-03-01 10:00:00' }) as object),
      line_items: [{ product_id: '8011', variant_id: '', sku: '', title: 'Shirt', quantity: 2, unit_price: 1500 }],
    });
    assert.equal(lines([{ sku: 'A', quantity: 1 }]), 'line_items: [0]: unit_price: is required');
    assert.equal(lines([{ sku: 'A', quantity: 1.5, unit_price: 1 }]), 'line_items: [0]: quantity: expected a non-negative integer (number or digit string)');
    assert.equal(lines([{ sku: 'A', quantity: 2_000_000, unit_price: 1 }]), 'line_items: [0]: quantity: at most 1000000');
    assert.equal(lines([{ sku: ' ', title: '', quantity: 1, unit_price: 1 }]), 'line_items: [0]: names no product: give product_id, variant_id, sku or title');
    assert.equal(lines([{ title: 'x'.repeat(501), quantity: 1, unit_price: 1 }]), 'line_items: [0]: title: at most 500 characters');
    assert.equal(lines([{ title: { a: 1 }, quantity: 1, unit_price: 1 }]), 'line_items: [0]: title: expected a string');
    assert.equal(lines([7]), 'line_items: [0]: expected {product_id?, variant_id?, sku?, title?, quantity, unit_price}');
    assert.equal(lines(Array.from({ length: 1001 }, () => ({ sku: 'A', quantity: 1, unit_price: 1 }))), 'line_items: at most 1000 line items');
  });

  test('ads, products and expenses name their missing and malformed fields', () => {
    assert.equal(check(adRow, { dt: '2026-03-01 00:00:00', source: ' ', spend: '12.5' }), 'dt: expected YYYY-MM-DD; source: must not be empty; ad_id: is required; spend: expected a non-negative integer (number or digit string)');
    assert.deepEqual(check(productRow, { product_handle: 'tee', variant_id: 123, cost: '800' }), { product_handle: 'tee', variant_id: '123', title: '', image_path_or_url: '', cost: 800 });
    assert.equal(check(expenseRow, { dt: '2026-02-30', name: 'Rent', amount: null }), 'dt: expected YYYY-MM-DD; amount: is required');
  });
});
