/**
 * The counted-names rule (src/analytics/conversion-names.ts) has two forms: the condition the
 * queries bind and the check in code that says whether a name is counted (the names list, the
 * unattributed orders). Both must agree on every name the collector accepts, `_` and `.` literal.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openTestClickhouse } from '../helper.ts';
import type { Clickhouse } from '../../src/store/clickhouse.ts';
import { Conditions } from '../../src/analytics/sql.ts';
import { addCountedNames, countedNames, countsName } from '../../src/analytics/conversion-names.ts';

let ch: Clickhouse;
let close: () => Promise<void>;

before(async () => ({ ch, close } = await openTestClickhouse()));
after(() => close());

const NAMES = ['purchase', 'purchases', 'lead', 'sign_up', 'signXup', 'sign_up_newsletter', 'a.b', 'aXb', 'x:1:y', 'subscribe', '*'];

async function matchedInSql(patterns: string[]): Promise<string[]> {
  const where = new Conditions();
  addCountedNames(where, 'name', patterns);
  const rows = await ch.query<{ name: string }>('counted-names-test',
    `SELECT name FROM (SELECT arrayJoin({names:Array(String)}) AS name) WHERE ${where.sql()} ORDER BY name`, { ...where.params, names: NAMES });
  return rows.map((r) => r.name);
}

for (const patterns of [['*'], ['purchase'], ['purchase', 'lead'], ['sign_up*'], ['a.b'], ['x:*:y', 'sub*'], ['*chase', 'l*d'], ['sign_up', 'purchas*']]) {
  test(`${patterns.join(',')}: the query and the check count the same names`, async () => {
    const inCode = NAMES.filter((name) => countsName(patterns, name)).sort();
    assert.deepEqual(await matchedInSql(patterns), inCode);
  });
}

test('an underscore and a dot are literal, a star matches any run of characters, the empty one too', () => {
  assert.deepEqual(NAMES.filter((name) => countsName(['sign_up*'], name)), ['sign_up', 'sign_up_newsletter']);
  assert.deepEqual(NAMES.filter((name) => countsName(['a.b'], name)), ['a.b']);
  assert.deepEqual(NAMES.filter((name) => countsName(['purchase'], name)), ['purchase']);
});

test('the request\'s name wins over the setting; without one the setting\'s names count', () => {
  assert.deepEqual(countedNames({ conversion_names: ['purchase', 'lead'] }, 'sign_up*'), ['sign_up*']);
  assert.deepEqual(countedNames({ conversion_names: ['purchase', 'lead'] }, undefined), ['purchase', 'lead']);
  assert.deepEqual(countedNames({ conversion_names: ['*'] }, null), ['*']);
});
