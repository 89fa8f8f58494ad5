/**
 * Signed download links: `exports.get-link` on the tool endpoint hands out links that download an
 * export without credentials until they expire, with the permissions of the key that asked.
 * Fixture (UTC): conversions on 2026-03-01 in a facebook session (T1) and a google session (T2),
 * and ad rows of facebook and google that day.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { insertTwoChannelDay } from '../support/export-day.ts';
import { callTool, toolOk } from '../mcp/rpc.ts';
import { LINK_TTL_MS, signDownload } from '../../src/http/download-links.ts';
import { createSecretBox } from '../../src/store/secret-box.ts';
import { revokeApiKey } from '../../src/store/app/api-keys.ts';

let t: TestApp;
let shop: TestWorkspace;
const DAY = { date_from: '2026-03-01', date_to: '2026-03-01' };

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  await insertTwoChannelDay(t.stores, shop.id);
});
after(() => t.close());

/** A link's path and query, to send through the app without credentials. */
const download = (url: string) => {
  const { pathname, search } = new URL(url);
  return t.app.inject({ method: 'GET', url: `${pathname}${search}` });
};
const exported = (path: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: path, headers });

describe('exports.get-link and GET /v3/export/download', () => {
  test('hands out one link per file type; each downloads, without credentials, what the key\'s own export sends', async () => {
    const before = Date.now();
    const { link } = await toolOk(t.app, shop.headers, 'exports.get-link', { kind: 'conversions', ...DAY });
    assert.deepEqual(Object.keys(link.urls), ['ndjson', 'csv', 'parquet']);
    assert.deepEqual([link.kind, link.date_from, link.date_to, link.timezone], ['conversions', '2026-03-01', '2026-03-01', 'UTC']);
    const expires = Date.parse(link.expires_at);
    assert.ok(expires >= before + LINK_TTL_MS - 1000 && expires <= Date.now() + LINK_TTL_MS, link.expires_at);
    for (const format of ['ndjson', 'csv', 'parquet']) {
      const url = new URL(link.urls[format]);
      assert.equal(url.pathname, '/v3/export/download');
      assert.deepEqual([...url.searchParams.keys()], ['token']);
      const viaLink = await download(link.urls[format]);
      const direct = await exported(`/v3/export/conversions?start_date=2026-03-01&end_date=2026-03-01&timezone=UTC&format=${format}`, shop.headers);
      assert.equal(viaLink.statusCode, 200, viaLink.body);
      assert.equal(viaLink.headers['content-type'], direct.headers['content-type']);
      assert.equal(viaLink.headers['content-disposition'], direct.headers['content-disposition']);
      if (format !== 'parquet') assert.equal(viaLink.body, direct.body);
      else assert.equal(viaLink.rawPayload.subarray(0, 4).toString(), 'PAR1');
    }
    const token = new URL(link.urls.ndjson).searchParams.get('token')!;
    for (const plain of ['conversions', '2026-03-01']) {
      assert.equal(token.includes(plain), false, `the request is sealed, not readable in the link (${plain})`);
    }
  });

  test('a narrowed key\'s link carries that key\'s permissions; the MMM link is one CSV', async () => {
    const meta = await shop.keyHeaders(['read:meta']);
    const { link } = await toolOk(t.app, meta, 'exports.get-link', { kind: 'ads', ...DAY });
    const rows = (await download(link.urls.ndjson)).body.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    assert.deepEqual(rows.map((row) => row.source), ['facebook']);
    const mmm = await toolOk(t.app, meta, 'exports.get-link', { kind: 'mmm', ...DAY });
    assert.deepEqual(Object.keys(mmm.link.urls), ['csv']);
    const csv = await download(mmm.link.urls.csv);
    assert.equal(csv.statusCode, 200);
    assert.equal(csv.body, (await exported('/v3/export/mmm?start_date=2026-03-01&end_date=2026-03-01', meta)).body);
    assert.equal(csv.body, 'date,revenue,conversions,sessions,meta_spend,meta_impressions,meta_clicks\r\n2026-03-01,10.00,1,1,5.00,50,5\r\n');
  });

  test('a key that may not read the kind gets no link', async () => {
    const profitOnly = await shop.keyHeaders(['read:profit']);
    const organic = await shop.keyHeaders(['read:organic']);
    for (const [headers, kind, message] of [
      [profitOnly, 'conversions', 'You do not have access to pixel data'],
      [profitOnly, 'mmm', 'You do not have access to pixel data'],
      [organic, 'ads', 'You do not have access to ads data'],
    ] as const) {
      const reply = await callTool(t.app, headers, 'exports.get-link', { kind, ...DAY });
      assert.equal(reply.result?.isError, true);
      assert.deepEqual(reply.result?.structuredContent, { error: { code: 'permission_denied', message } });
    }
  });

  test('expired, changed, foreign and revoked links are refused; the route takes only a token', async () => {
    const grant = { workspaceId: shop.id, keyId: 1, scopes: ['admin:admin'], kind: 'events', query: { start_date: '2026-03-01', end_date: '2026-03-01' } };
    const expired = signDownload(t.stores.secrets, 'http://localhost', grant, Date.now() - LINK_TTL_MS - 1);
    const foreign = signDownload(createSecretBox(Buffer.alloc(32, 7)), 'http://localhost', grant, Date.now());
    const { link } = await toolOk(t.app, shop.headers, 'exports.get-link', { kind: 'events', ...DAY });
    const token = new URL(link.urls.ndjson).searchParams.get('token')!;
    const changed = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`;
    const cases: [string, number, string][] = [
      [expired.url, 410, 'Download link expired'],
      [foreign.url, 401, 'Invalid download link'],
      [`http://localhost/v3/export/download?token=${encodeURIComponent(changed)}`, 401, 'Invalid download link'],
      ['http://localhost/v3/export/download?token=nonsense', 401, 'Invalid download link'],
      ['http://localhost/v3/export/download', 400, 'Missing token parameter'],
      [`${link.urls.ndjson}&format=csv`, 400, 'Unknown parameter: format'],
    ];
    for (const [url, status, message] of cases) {
      const r = await download(url);
      assert.deepEqual([r.statusCode, r.json()], [status, { message }], url);
    }
    const post = await t.app.inject({ method: 'POST', url: new URL(link.urls.ndjson).pathname });
    assert.equal(post.statusCode, 405);

    const doomed = await shop.keyHeaders(['read:google']);
    const { link: revokedLink } = await toolOk(t.app, doomed, 'exports.get-link', { kind: 'events', ...DAY });
    assert.equal((await download(revokedLink.urls.ndjson)).statusCode, 200);
    await revokeApiKey(t.stores.db, doomed['x-api-key']!);
    const r = await download(revokedLink.urls.ndjson);
    assert.deepEqual([r.statusCode, r.json()], [401, { message: 'Invalid API key' }]);
  });
});
