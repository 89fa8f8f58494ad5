/** The well-formed-text walk on its own: keys and values at any depth, pairs kept, deep nesting. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wellFormed, wellFormedValue } from '../../src/kit/well-formed.ts';

test('lone halves become U+FFFD; whole pairs and other text stay', () => {
  assert.equal(wellFormed('a\ud800b\udfffc'), 'a\ufffdb\ufffdc');
  assert.equal(wellFormed('\ud83d\ude00 ok'), '\ud83d\ude00 ok');
  assert.equal(wellFormed('\udc00\ud800'), '\ufffd\ufffd');
});

test('every string of a parsed body is made well-formed, object keys included', () => {
  const body = wellFormedValue(JSON.parse('{"a\\ud800":["x\\udc00",{"k":"\\ud83d\\ude00"}],"n":1,"z":null}'));
  assert.deepEqual(body, { 'a\ufffd': ['x\ufffd', { k: '\ud83d\ude00' }], n: 1, z: null });
  assert.equal(wellFormedValue('\ud800'), '\ufffd');
});

test('a body nested far deeper than the call stack is walked without overflowing it', () => {
  const depth = 200_000;
  const text = `${'['.repeat(depth)}"\\ud800"${']'.repeat(depth)}`;
  let node: unknown = wellFormedValue(JSON.parse(text));
  for (let i = 0; i < depth; i++) node = (node as unknown[])[0];
  assert.equal(node, '\ufffd');
});
