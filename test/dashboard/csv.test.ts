/**
 * The dashboard's CSV cells (src/ui/table.ts): text a spreadsheet would run as a
 * formula is written as text, numbers as numbers. The browser test downloads such a file from a
 * report fed by the collector; this one covers the starts a URL cannot carry (tab, CR).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv, type Column } from '../../src/ui/table.ts';

const columns: Column[] = [
  { key: 'name', label: 'Name', kind: 'text' },
  { key: 'amount', label: 'Amount', kind: 'money' },
];

test('cells starting with = + - @ tab or CR get an apostrophe; numbers, plain text and empty cells do not', () => {
  const rows = [
    { name: '\tcmd', amount: -12.5 },
    { name: '\r=1+1', amount: 0 },
    { name: '-5', amount: null },
    { name: '@x', amount: 3 },
    { name: 'a "quoted", name', amount: 1e21 },
    { name: 'plain', amount: undefined },
  ];
  assert.equal(toCsv(columns, rows, { amount: -12.5 }), [
    'Name,Amount',
    "'\tcmd,-12.5",
    `"'\r=1+1",0`,
    "'-5,",
    "'@x,3",
    '"a ""quoted"", name",1e+21',
    'plain,',
    'Total,-12.5',
    '',
  ].join('\r\n'));
});
