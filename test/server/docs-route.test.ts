/**
 * GET /docs/<name>.md serves the service's own Markdown docs by exact name (the dashboard links a
 * person to them) and nothing else from the disk.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startTestApp, type TestApp } from '../helper.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

test('a doc is served as Markdown, byte for byte, under the strict default policy', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/docs/books.md' });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['content-type'], 'text/markdown; charset=utf-8');
  assert.equal(response.body, fs.readFileSync('docs/books.md', 'utf8'));
  assert.equal(response.headers['x-content-type-options'], 'nosniff');
});

test('anything but a listed doc is 404, however the name is spelled', async () => {
  for (const url of ['/docs/nope.md', '/docs/..%2Fpackage.json', '/docs/%2E%2E%2FREADME.md', '/docs/screenshots', '/docs/books.md%00.png', '/docs/BOOKS.md', '/docs/.%2Fbooks.md']) {
    const response = await t.app.inject({ method: 'GET', url });
    assert.equal(response.statusCode, 404, url);
    assert.deepEqual(response.json(), { message: 'Not found' }, url);
  }
});
