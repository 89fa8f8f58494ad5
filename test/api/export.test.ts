/**
 * GET /v3/export/{events|sessions|conversions|ads}: every row of the row endpoint as one download.
 * Fixture (UTC), one workspace:
 * - events over two days in five sessions: 501 facebook (2 events, entry metadata), 502 untagged
 *   (hostile strings in every text field that reaches a CSV cell: formula starts = + - @ tab CR,
 *   quotes, a line break, a comma, non-Latin text), 503 google, 504 tiktok, 505 instagram on day two
 * - conversions in 501, 502, 503 and 505, one of them named `lead`
 * - ad rows of facebook, instagram and google on both days, the facebook one imported twice
 * A second workspace holds one row of each kind that must never leak into the first.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { createTestWorkspace, injectGet, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';

let t: TestApp;
let shop: TestWorkspace;
const RANGE = 'start_date=2026-03-01&end_date=2026-03-02';

const HOSTILE = {
  pathname: '=HYPERLINK("http://evil.example","click")',
  referrer: '+cmd|calc',
  utm_source: '-2+3',
  utm_medium: '@SUM(A1)',
  utm_campaign: '\tindent',
  utm_content: '\rreturn',
  utm_term: 'two\nlines, "quoted"',
  hostname: 'Ünïcødé 東京',
};

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  const other = await createTestWorkspace(t.stores, 'Other');
  const ev = (session_id: number, dt: string, extra: object = {}) => ({
    store_id: shop.id, session_id, visitor_id: session_id - 400, dt, name: 'pageview', pathname: '/', ...extra,
  });
  await insertRows(t.stores, 'events', [
    ev(501, '2026-03-01 09:00:00', { adv_source: 'facebook', adv_campaign_id: 'c1', entry_meta_keys: ['fbclid', 'gclid'], entry_meta_values: ['f"1', ''] }),
    ev(501, '2026-03-01 09:05:00', { adv_source: 'facebook', adv_campaign_id: 'c1', name: 'add_to_cart', pathname: '/p/1' }),
    ev(502, '2026-03-01 09:05:00', HOSTILE),
    ev(503, '2026-03-01 23:30:00', { adv_source: 'google' }),
    ev(504, '2026-03-02 08:00:00', { adv_source: 'tiktok', name: 'view_content' }),
    ev(505, '2026-03-02 12:00:00', { adv_source: 'instagram', utm_source: '=1+1' }),
    { store_id: other.id, session_id: 501, visitor_id: 101, dt: '2026-03-01 09:00:00', name: 'pageview', adv_source: 'facebook' },
  ]);
  const conv = (session_id: number, dt: string, transaction_id: string, extra: object = {}) => ({
    store_id: shop.id, session_id, visitor_id: session_id - 400, dt, name: 'purchase', transaction_id, transaction_gross_revenue: 1000,
    transaction_currency: 'USD', ...extra,
  });
  await insertRows(t.stores, 'conversions', [
    conv(501, '2026-03-01 09:10:00', 'T1', { customer_id: 'ann', is_new_customer: 1 }),
    conv(502, '2026-03-01 09:20:00', 'T2', { transaction_city: '=cmd' }),
    conv(503, '2026-03-01 23:40:00', '', { name: 'lead', transaction_gross_revenue: 0 }),
    conv(505, '2026-03-02 12:30:00', 'T5', { transaction_gross_revenue: 2500 }),
    { store_id: other.id, session_id: 501, visitor_id: 101, dt: '2026-03-01 09:10:00', name: 'purchase', transaction_id: 'X' },
  ]);
  const ad = (dt: string, source: string, ad_id: string, spend: number, version = 1) => ({
    store_id: shop.id, dt, source, ad_id, ad_name: `Ad ${ad_id}`, campaign_id: `c-${source}`, spend, impressions: spend * 10, clicks: spend / 10, version,
  });
  await insertRows(t.stores, 'ads', [
    ad('2026-03-01', 'facebook', 'f1', 100),
    ad('2026-03-01', 'google', 'g1', 300),
    ad('2026-03-02', 'instagram', 'i1', 200),
    ad('2026-03-02', 'google', 'g1', 400),
    { store_id: other.id, dt: '2026-03-01', source: 'facebook', ad_id: 'x', spend: 1, version: 1 },
  ]);
  await insertRows(t.stores, 'ads', [ad('2026-03-01', 'facebook', 'f1', 150, 2)]);
});

after(() => t.close());

const exportOf = (url: string, headers: Record<string, string> = shop.headers) => t.app.inject({ method: 'GET', url, headers });

/** Every page of a row endpoint with two rows a page, concatenated. */
async function allPages(url: string, headers: Record<string, string> = shop.headers): Promise<any[]> {
  const rows: any[] = [];
  for (let offset = 0; ; offset += 2) {
    const { status, body } = await injectGet(t, `${url}&limit=2&offset=${offset}`, headers);
    assert.equal(status, 200, JSON.stringify(body));
    rows.push(...body.data);
    if (!body.pagination.has_more) return rows;
  }
}

const ndjsonRows = (body: string): any[] => body.split('\n').filter(Boolean).map((line) => JSON.parse(line));

const CASES = [
  ['events', RANGE],
  ['events', `${RANGE}&source=meta&name=*`],
  ['events', `${RANGE}&session_id=502`],
  ['sessions', RANGE],
  ['sessions', `${RANGE}&sources=google,organic`],
  ['conversions', RANGE],
  ['conversions', `${RANGE}&exclude_source=organic&name=purchase`],
  ['conversions', `${RANGE}&transaction_id=T5`],
  ['ads', RANGE],
  ['ads', `${RANGE}&source=google`],
  // New York's 2026-03-01 runs from 05:00 UTC to 04:59:59 the next day: session 503 (23:30 UTC) is in it.
  ...(['events', 'sessions', 'conversions', 'ads'] as const).map((kind) => [kind, 'start_date=2026-03-01&end_date=2026-03-01&timezone=America/New_York'] as const),
] as const;

describe('GET /v3/export/<kind>', () => {
  for (const [kind, query] of CASES) {
    test(`${kind}?${query}: the row endpoint's rows, wire types and order, all pages in one stream`, async () => {
      const pages = await allPages(`/v3/${kind}?${query}`);
      assert.ok(pages.length > 0);
      const r = await exportOf(`/v3/export/${kind}?${query}`);
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(r.headers['content-type'], 'application/x-ndjson');
      const days = query.includes('New_York') ? '2026-03-01_2026-03-01' : '2026-03-01_2026-03-02';
      assert.equal(r.headers['content-disposition'], `attachment; filename="storelens-${kind}-${days}.ndjson"`);
      assert.deepEqual(ndjsonRows(r.body), pages);
    });
  }

  test('no row in scope: an empty NDJSON body, and a CSV of its header row alone', async () => {
    const empty = await exportOf('/v3/export/events?start_date=2025-01-01&end_date=2025-01-02');
    assert.equal(empty.statusCode, 200);
    assert.equal(empty.body, '');
    const csv = await exportOf('/v3/export/ads?start_date=2025-01-01&end_date=2025-01-02&format=csv');
    assert.equal(csv.statusCode, 200);
    assert.equal(csv.body, '"store_id","dt","adaccount_id","source","campaign_id","campaign_name","adgroup_id","adgroup_name","ad_id","ad_name","spend","impressions","clicks","reach"\r\n');
  });

  test('a narrowed key exports only its channels, as its pages show them', async () => {
    const meta = await shop.keyHeaders(['read:meta']);
    for (const kind of ['events', 'sessions', 'conversions', 'ads']) {
      const r = await exportOf(`/v3/export/${kind}?${RANGE}`, meta);
      assert.equal(r.statusCode, 200, r.body);
      const rows = ndjsonRows(r.body);
      assert.deepEqual(rows, await allPages(`/v3/${kind}?${RANGE}`, meta), kind);
      const channels = new Set(rows.map((row) => row.adv_source ?? row.source));
      assert.deepEqual([...channels].sort(), ['facebook', 'instagram'], kind);
    }
  });

  test('refusals are the row endpoints\' own: 400 before 403, exact messages', async () => {
    const meta = await shop.keyHeaders(['read:meta']);
    const profitOnly = await shop.keyHeaders(['read:profit']);
    const organic = await shop.keyHeaders(['read:organic']);
    const cases: [string, Record<string, string>, number, string, string?][] = [
      ['/v3/export/events?format=xml', shop.headers, 400, 'Invalid format: xml. Accepted values: ndjson, csv, parquet'],
      ['/v3/export/sessions?timezone=Mars/Olympus', shop.headers, 400, 'Invalid timezone: Mars/Olympus. Use an IANA time zone name such as Europe/Berlin'],
      ['/v3/export/events?start_date=2026-02-30', shop.headers, 400, 'Invalid start_date or end_date parameter', 'start_date is not a calendar day (got 2026-02-30)'],
      ['/v3/export/sessions?session_id=abc', shop.headers, 400, 'session_id must be numeric'],
      ['/v3/export/conversions?is_new_customer=2', shop.headers, 400, 'is_new_customer must be one of 0,1,true,false'],
      ['/v3/export/events?source=google', meta, 403, 'You do not have access to the requested sources'],
      ['/v3/export/events', profitOnly, 403, 'You do not have access to pixel data'],
      ['/v3/export/conversions', profitOnly, 403, 'You do not have access to pixel data'],
      ['/v3/export/ads', organic, 403, 'You do not have access to ads data'],
      ['/v3/export/ads?start_date=nope', organic, 400, 'Invalid start_date or end_date parameter', 'start_date must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (got nope)'],
      ['/v3/export/events?fromat=csv', shop.headers, 400, 'Unknown parameter: fromat. Did you mean format?'],
      ['/v3/export/ads', {}, 400, 'Missing x-api-key header'],
    ];
    for (const [url, headers, status, message, detail] of cases) {
      const r = await exportOf(url, headers);
      assert.equal(r.statusCode, status, url);
      assert.deepEqual(r.json(), detail ? { message, detail } : { message }, url);
    }
    const post = await t.app.inject({ method: 'POST', url: '/v3/export/events', headers: shop.headers });
    assert.equal(post.statusCode, 405);
  });

  test('CSV: RFC 4180 with a header row, arrays as JSON text, formula starts defused, otherwise the NDJSON rows', async () => {
    for (const kind of ['events', 'sessions', 'conversions', 'ads']) {
      const csv = await exportOf(`/v3/export/${kind}?${RANGE}&format=csv`);
      assert.equal(csv.statusCode, 200, csv.body);
      assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8; header=present');
      const ndjson = ndjsonRows((await exportOf(`/v3/export/${kind}?${RANGE}`)).body);
      const records: Record<string, string>[] = parse(csv.body, { columns: true });
      assert.deepEqual(Object.keys(records[0]!), Object.keys(ndjson[0]));
      const undo = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);
      const read = records.map((record) =>
        Object.fromEntries(Object.entries(record).map(([k, v]) => [k, Array.isArray(ndjson[0][k]) ? JSON.parse(v) : undo(v)])),
      );
      assert.deepEqual(read, ndjson, kind);
    }
  });

  test('CSV cells of hostile strings, byte for byte', async () => {
    const csv = (await exportOf(`/v3/export/events?${RANGE}&session_id=502&format=csv`)).body;
    // Each cell exactly as written between its neighbours' commas: quoted, quotes doubled, line break kept.
    const cell = (encoded: string) => assert.ok(csv.includes(`,"${encoded}",`), `${JSON.stringify(encoded)} in ${JSON.stringify(csv)}`);
    cell(`'=HYPERLINK(""http://evil.example"",""click"")`);
    cell("'+cmd|calc");
    cell("'-2+3");
    cell("'@SUM(A1)");
    cell("'\tindent");
    cell("'\rreturn");
    cell('two\nlines, ""quoted""');
    cell('Ünïcødé 東京');
    cell('502');
    assert.ok(csv.endsWith('"[]","[]"\r\n'));
    assert.equal(csv.split('\r\n').length, 3);
    const meta = (await exportOf(`/v3/export/events?${RANGE}&session_id=501&format=csv`)).body;
    assert.match(meta, /"\[""fbclid"",""gclid""\]","\[""f\\""1"",""""\]"/);
    const conversions = (await exportOf(`/v3/export/conversions?${RANGE}&transaction_id=T2&format=csv`)).body;
    assert.match(conversions, /,"'=cmd",/);
  });

  test('Parquet: one file the engine reads back as the NDJSON rows, wire types kept', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-parquet-'));
    try {
      for (const kind of ['events', 'sessions', 'conversions', 'ads']) {
        const r = await exportOf(`/v3/export/${kind}?${RANGE}&format=parquet`);
        assert.equal(r.statusCode, 200, r.body);
        assert.equal(r.headers['content-type'], 'application/vnd.apache.parquet');
        const file = path.join(dir, `${kind}.parquet`);
        fs.writeFileSync(file, r.rawPayload);
        assert.equal(r.rawPayload.subarray(0, 4).toString(), 'PAR1');
        const back = await t.stores.ch.query<Record<string, unknown>>('parquet-back', "SELECT * FROM file({file:String}, 'Parquet')", { file });
        const types = await t.stores.ch.query<{ type: string }>('parquet-types', "DESCRIBE TABLE file({file:String}, 'Parquet')", { file });
        assert.ok(types.every(({ type }) => /^(Nullable\()?(String|Array\((Nullable\()?String\)?\))\)?$/.test(type)), JSON.stringify(types));
        assert.deepEqual(back, ndjsonRows((await exportOf(`/v3/export/${kind}?${RANGE}`)).body), kind);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
