/**
 * Fixture: one workspace with a few rows in every table the data API reads (one session of two
 * events on each of the last two days, a conversion in it, an ad row), so both empty and non-empty
 * answers occur. The fuzz sends garbage in every query parameter of every row-level data endpoint;
 * the rest checks the order of checks, limit handling, date errors and the default range.
 * (/v3/report is fuzzed here too when it is registered.)
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { revokeApiKey } from '../../src/store/app/api-keys.ts';
import { formatDay, formatTimestamp } from '../../src/kit/calendar/days.ts';
import { DATA_ENDPOINTS } from '../../src/api/endpoints.ts';
import { parameterNames } from '../../src/api/params.ts';

let t: TestApp;
let shop: TestWorkspace;

const DAY = 86_400_000;
const today = Math.floor(Date.now() / DAY) * DAY;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  const rows = [1, 0].flatMap((daysAgo) => {
    const at = today - daysAgo * DAY + 3_600_000;
    return [
      { store_id: shop.id, dt: formatTimestamp(at), name: 'pageview', session_id: 10 + daysAgo, visitor_id: 1, adv_source: 'facebook', pathname: '/' },
      { store_id: shop.id, dt: formatTimestamp(at + 60_000), name: 'add_to_cart', session_id: 10 + daysAgo, visitor_id: 1, adv_source: 'facebook', pathname: '/p' },
    ];
  });
  await insertRows(t.stores, 'events', rows);
  await insertRows(t.stores, 'conversions', [
    { store_id: shop.id, dt: formatTimestamp(today + 3_700_000), name: 'purchase', session_id: 10, visitor_id: 1, transaction_id: 'T1', transaction_gross_revenue: 100 },
  ]);
  await insertRows(t.stores, 'ads', [{ store_id: shop.id, dt: formatDay(today), source: 'facebook', ad_id: 'a1', spend: 5, version: 1 }]);
});

after(() => t.close());

const DATES = ['start_date', 'end_date'];
const PAGING = ['limit', 'offset'];
const PAGING_ALIASES = ['page', 'page_size'];
const DATE_ALIASES = ['from', 'to'];
const ENDPOINT_PARAMS: Record<string, string[]> = {
  '/v3/events': [...DATES, ...DATE_ALIASES, ...PAGING, ...PAGING_ALIASES, 'name', 'event_name', 'session_id', 'visitor_id', 'source', 'sources'],
  '/v3/sessions': [...DATES, ...DATE_ALIASES, ...PAGING, ...PAGING_ALIASES, 'session_id', 'visitor_id', 'source', 'sources'],
  '/v3/conversions': [
    ...DATES, ...DATE_ALIASES, ...PAGING, ...PAGING_ALIASES, 'name', 'source', 'sources', 'exclude_source', 'exclude_sources',
    'group_by', 'transaction_id', 'customer_id', 'is_new_customer',
  ],
  '/v3/ads': [...DATES, ...PAGING, 'source', 'adaccount_id', 'campaign_id', 'adgroup_id', 'ad_id'],
};
const REPORT_PARAMS = [
  ...DATES, ...DATE_ALIASES, 'limit', 'offset', 'metrics', 'breakdown', 'interval', 'attribution_model', 'attribution_window',
  'attribution_date', 'source', 'sources', 'exclude_source', 'name',
];

const GARBAGE = [
  '', 'x'.repeat(3000), 'ä'.repeat(30_000), 'ünïcødé ✓😀\u202e', 'a\u0000b', "' OR 1=1 --", '{store_id:UInt64}', '%_\\', '*',
  '99999999999999999999999999', '18446744073709551616', '-1', '0', '1.5', 'NaN', ' 7', '2026-02-30', '1969-12-31',
  '1970-01-01', '2299-12-31', '2026-03-01T00:00:00+25:00', 'meta,unknown', 'date,date',
];

/** The report is fuzzed with the nastiest values only: each of its answers costs a full report. */
const REPORT_GARBAGE = ['x'.repeat(3000), 'ünïcødé ✓😀\u202e a\u0000b', "' OR 1=1 --"];

const TEXT_PARAMS = new Set(['name', 'event_name', 'transaction_id', 'customer_id', 'adaccount_id', 'campaign_id', 'adgroup_id', 'ad_id']);

const CONTRACT_MESSAGES = new Set([
  'Invalid start_date or end_date parameter',
  'start_date must be before end_date',
  'limit must be a positive integer',
  'offset must be a non-negative integer',
  'session_id must be numeric',
  'visitor_id must be numeric',
  'is_new_customer must be one of 0,1,true,false',
]);
/** The help beside a contract message that has one (`detail`): what is wrong with a range bound. */
const DETAIL_PATTERNS = [/^(start|end)_date (must be|is not) [^]* \(got [^]*\)$/, /^(start|end)_date must be given once$/];
const CONTRACT_PATTERNS = [
  /^Unknown parameter: [^]+\. Did you mean [a-z_]+\?$/,
  /^Unknown source: [^]*\. Accepted sources: [a-z_, ]+$/, /^Invalid [a-z_]+ parameter$/, /^Unknown group_by dimension: /, /^group_by accepts /];
const REPORT_PATTERNS = [/^Unknown /, /^Invalid /, /must be/, /^[a-z_]+ /];

function queryString(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k).replace(/%5B%5D$/, '[]')}=${encodeURIComponent(v)}`).join('&');
}

/** Sends one request and checks the promise: a 200 envelope or a 400 contract message, never a stack. */
async function expectCleanAnswer(path: string, query: string, report: boolean) {
  const response = await t.app.inject({ method: 'GET', url: `${path}?${query}`, headers: shop.headers });
  const where = `${path}?${query.slice(0, 200)}`;
  assert.ok(response.statusCode === 200 || response.statusCode === 400, `${where} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
  assert.doesNotMatch(response.body, /\bat .+:\d+:\d+|node:internal|\.ts:\d+|Error:/, `${where} leaked internals`);
  const body = response.json();
  if (response.statusCode === 200) {
    assert.ok(Array.isArray(body.data) && typeof body.pagination === 'object', `${where} lacks the envelope`);
    return;
  }
  if ('detail' in body) {
    assert.deepEqual(Object.keys(body), ['message', 'detail'], where);
    assert.ok(DETAIL_PATTERNS.some((p) => p.test(body.detail)), `${where} answered an unexpected detail: ${String(body.detail).slice(0, 200)}`);
  } else {
    assert.deepEqual(Object.keys(body), ['message'], where);
  }
  const known = CONTRACT_MESSAGES.has(body.message) || CONTRACT_PATTERNS.some((p) => p.test(body.message))
    || (report && REPORT_PATTERNS.some((p) => p.test(body.message)));
  assert.ok(known, `${where} answered an unexpected message: ${body.message.slice(0, 200)}`);
}

describe('bad input', () => {
  test('answers every garbage parameter value with a 200 or a 400 contract message, never a 500 or a stack', async () => {
    const endpoints = { ...ENDPOINT_PARAMS };
    const report = t.app.hasRoute({ method: 'GET', url: '/v3/report' });
    if (report) endpoints['/v3/report'] = REPORT_PARAMS;
    const cases: [string, string, boolean][] = [];
    for (const [path, params] of Object.entries(endpoints)) {
      const isReport = path === '/v3/report';
      // Free-text filters are bound as query parameters and never rejected by shape, so every value
      // costs a query: they get each garbage value together, in one request per value.
      const together = params.filter((p) => TEXT_PARAMS.has(p));
      const values = isReport ? REPORT_GARBAGE : GARBAGE;
      for (const value of values) {
        if (together.length) cases.push([path, queryString(together.map((p) => [p, value])), isReport]);
      }
      for (const param of params.filter((p) => !TEXT_PARAMS.has(p))) {
        for (const value of values) cases.push([path, queryString([[param, value]]), isReport]);
      }
      for (const param of params) {
        cases.push([path, queryString([[param, '1'], [param, '2']]), isReport]);
        // Array syntax makes an unknown parameter name (400); on the report (a full report per
        // answer) it is tried on the row-level endpoints only.
        if (isReport) continue;
        cases.push([path, queryString([[`${param}[]`, '1']]), isReport]);
        cases.push([path, queryString([[param, 'meta'], [param, 'x'.repeat(3000)]]), isReport]);
        cases.push([path, `${encodeURIComponent(param)}`, isReport]);
        cases.push([path, `${encodeURIComponent(param)}[a]=1&${encodeURIComponent(param)}[b]=2`, isReport]);
      }
    }
    const failures: string[] = [];
    for (let i = 0; i < cases.length; i += 16) {
      const outcomes = await Promise.allSettled(cases.slice(i, i + 16).map(([path, query, isReport]) => expectCleanAnswer(path, query, isReport)));
      for (const o of outcomes) if (o.status === 'rejected') failures.push((o.reason as Error).message.split('\n')[0]);
    }
    assert.deepEqual(failures, []);
  });
});

const ENDPOINTS = Object.keys(ENDPOINT_PARAMS);
const send = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', url: string, headers: Record<string, string> = {}) => {
  const response = await t.app.inject({ method, url, headers });
  return { status: response.statusCode, body: response.json() };
};

describe('order of checks', () => {
  test('answers 404 for an unknown path and 405 for another method before any credential check', async () => {
    assert.deepEqual(await send('GET', '/v3/nothing-here'), { status: 404, body: { message: 'Not found' } });
    for (const path of ENDPOINTS) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
        assert.deepEqual(await send(method, `${path}?limit=0`), { status: 405, body: { message: 'Method not allowed' } }, `${method} ${path}`);
      }
    }
  });

  test('answers 400 for missing headers before 401 for wrong credentials, both before parameter checks', async () => {
    const key = shop.headers['x-api-key'];
    for (const path of ENDPOINTS) {
      const url = `${path}?limit=0`;
      assert.deepEqual(await send('GET', url), { status: 400, body: { message: 'Missing x-api-key header' } });
      assert.deepEqual(await send('GET', url, { 'x-api-key': key }), { status: 400, body: { message: 'Missing client-secret header' } });
      assert.deepEqual(await send('GET', url, { 'client-secret': 'x' }), { status: 400, body: { message: 'Missing x-api-key header' } });
      assert.deepEqual(await send('GET', url, { 'x-api-key': 'nope', 'client-secret': 'x' }), { status: 401, body: { message: 'Invalid API key' } });
      assert.deepEqual(await send('GET', url, { 'x-api-key': key, 'client-secret': 'wrong' }), { status: 401, body: { message: 'Invalid client secret' } });
    }
  });

  test('answers 401 Invalid API key for a revoked key', async () => {
    const headers = await shop.keyHeaders(['admin:admin']);
    assert.equal((await send('GET', '/v3/events', headers)).status, 200);
    await revokeApiKey(t.stores.db, headers['x-api-key']);
    for (const path of ENDPOINTS) {
      assert.deepEqual(await send('GET', path, headers), { status: 401, body: { message: 'Invalid API key' } });
    }
  });

  test('checks parameters (400) before permissions (403)', async () => {
    const profitOnly = await shop.keyHeaders(['read:profit']);
    for (const path of ENDPOINTS) {
      assert.deepEqual(await send('GET', `${path}?offset=-1`, profitOnly), { status: 400, body: { message: 'offset must be a non-negative integer' } });
      assert.equal((await send('GET', path, profitOnly)).status, 403);
    }
    const meta = await shop.keyHeaders(['read:meta']);
    assert.deepEqual(await send('GET', '/v3/conversions?source=google&is_new_customer=2', meta), {
      status: 400,
      body: { message: 'is_new_customer must be one of 0,1,true,false' },
    });
  });
});

describe('limits and dates', () => {
  test('clamps limit above 500 to 500 and refuses limit 0 or non-integers on every endpoint', async () => {
    for (const path of ENDPOINTS) {
      assert.equal((await send('GET', `${path}?limit=501`, shop.headers)).body.pagination.limit, 500, path);
      assert.equal((await send('GET', `${path}?limit=99999999999999999999`, shop.headers)).body.pagination.limit, 500, path);
      for (const bad of ['0', '-5', '2.5', 'ten']) {
        assert.deepEqual(await send('GET', `${path}?limit=${bad}`, shop.headers), { status: 400, body: { message: 'limit must be a positive integer' } });
      }
      assert.deepEqual(await send('GET', `${path}?offset=1.5`, shop.headers), { status: 400, body: { message: 'offset must be a non-negative integer' } });
    }
    assert.equal((await send('GET', '/v3/events?page_size=900', shop.headers)).body.pagination.limit, 500);
  });

  test('refuses malformed dates with the contract\'s message, the parameter, the form and the value in detail, and a start after the end', async () => {
    const refused = (detail: string) => ({ status: 400, body: { message: 'Invalid start_date or end_date parameter', detail } });
    const cases: [string, string][] = [
      ['start_date=01/11/2026', 'start_date must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (got 01/11/2026)'],
      ['end_date=yesterday', 'end_date must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (got yesterday)'],
      ['start_date=2026-02-30', 'start_date is not a calendar day (got 2026-02-30)'],
      ['start_date=1969-12-31', 'start_date must be in the years 1970 to 2299 (got 1969-12-31)'],
      ['end_date=2300-01-01%2000:00:00', 'end_date must be in the years 1970 to 2299 (got 2300-01-01 00:00:00)'],
      ['end_date=2026-03-01%2024:00:00', 'end_date is not a valid time of day (got 2026-03-01 24:00:00)'],
      [`start_date=${'9'.repeat(50)}`, `start_date must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (got ${'9'.repeat(40)}…)`],
      ['end_date=2026-03-01&end_date=2026-03-02', 'end_date must be given once'],
    ];
    for (const path of ENDPOINTS) {
      for (const [query, message] of cases) {
        assert.deepEqual(await send('GET', `${path}?${query}`, shop.headers), refused(message), `${path}?${query}`);
      }
      if (path !== '/v3/ads') {
        assert.deepEqual(await send('GET', `${path}?from=2026-3-1`, shop.headers), refused('start_date must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (got 2026-3-1)'));
      }
      assert.deepEqual(await send('GET', `${path}?start_date=2026-03-02&end_date=2026-03-01`, shop.headers), {
        status: 400,
        body: { message: 'start_date must be before end_date' },
      });
    }
  });

  test('defaults to the last 7 days through the end of today (UTC) and takes full timestamps as given', async () => {
    const expected = { start_date: `${formatDay(today - 7 * DAY)} 00:00:00`, end_date: `${formatDay(today)} 23:59:59` };
    for (const path of ENDPOINTS) {
      const { status, body } = await send('GET', path, shop.headers);
      assert.equal(status, 200);
      assert.deepEqual({ start_date: body.pagination.start_date, end_date: body.pagination.end_date }, expected, path);
    }
    const { body } = await send('GET', '/v3/events?start_date=2026-03-01%2010:30:00&end_date=2026-03-01T12:00:00Z', shop.headers);
    assert.deepEqual([body.pagination.start_date, body.pagination.end_date], ['2026-03-01 10:30:00', '2026-03-01 12:00:00']);
    const sessions = await send('GET', '/v3/sessions', shop.headers);
    assert.deepEqual(sessions.body.data.map((s: { session_id: string }) => s.session_id), ['11', '10']);
  });
});

describe('unknown parameters', () => {
  const unknown = (message: string) => ({ status: 400, body: { message } });

  test('answer 400 naming the parameter and the nearest known one', async () => {
    assert.deepEqual(await send('GET', '/v3/report?breakdwon=campaign&start=2026-11-01', shop.headers), unknown('Unknown parameter: breakdwon. Did you mean breakdown?'));
    assert.deepEqual(await send('GET', '/v3/report?breakdown=campaign&start=2026-11-01', shop.headers), unknown('Unknown parameter: start. Did you mean start_date?'));
    assert.deepEqual(await send('GET', '/v3/events?session_ud=1', shop.headers), unknown('Unknown parameter: session_ud. Did you mean session_id?'));
    assert.deepEqual(await send('GET', '/v3/sessions?source[]=meta', shop.headers), unknown('Unknown parameter: source[]. Did you mean source?'));
    assert.deepEqual(await send('GET', '/v3/conversions?groupby=name', shop.headers), unknown('Unknown parameter: groupby. Did you mean group_by?'));
  });

  test('name no suggestion when nothing is close, and echo at most 60 characters of the name', async () => {
    assert.deepEqual(await send('GET', '/v3/events?foo=1', shop.headers), unknown('Unknown parameter: foo'));
    // /v3/ads takes no date aliases.
    assert.deepEqual(await send('GET', '/v3/ads?from=2026-03-01', shop.headers), unknown('Unknown parameter: from'));
    assert.deepEqual(await send('GET', '/v3/events?__proto__=1', shop.headers), unknown('Unknown parameter: __proto__'));
    assert.deepEqual(await send('GET', '/v3/events?constructor=1', shop.headers), unknown('Unknown parameter: constructor'));
    assert.deepEqual(await send('GET', `/v3/events?${'z'.repeat(3000)}=1`, shop.headers), unknown(`Unknown parameter: ${'z'.repeat(60)}…`));
  });

  test('every name of the route table, aliases included, is known on its endpoint', async () => {
    for (const { path, query } of DATA_ENDPOINTS) {
      // Exports answer 200 with rows that are not one JSON document, so only refusals are parsed.
      const answers = await Promise.all(parameterNames(query).map((name) => t.app.inject({ method: 'GET', url: `/v3${path}?${name}=x`, headers: shop.headers })));
      const refused = answers.filter((a) => a.statusCode === 400 && a.json().message.startsWith('Unknown parameter')).map((a) => a.json().message);
      assert.deepEqual(refused, [], path);
    }
    const aliases = await send('GET', '/v3/events?from=2026-03-01&to=2026-03-02&page=0&page_size=5&event_name=pageview&sources=facebook', shop.headers);
    assert.equal(aliases.status, 200);
    assert.deepEqual(aliases.body.pagination.start_date, '2026-03-01 00:00:00');
    assert.deepEqual(aliases.body.pagination.limit, 5);
  });

  test('are checked after credentials and before permissions', async () => {
    const noPixel = await shop.keyHeaders(['read:profit']);
    for (const path of ENDPOINTS) {
      const url = `${path}?limt=5`;
      assert.deepEqual(await send('GET', url), unknown('Missing x-api-key header'));
      assert.deepEqual(await send('GET', url, { 'x-api-key': 'nope', 'client-secret': 'x' }), { status: 401, body: { message: 'Invalid API key' } });
      assert.deepEqual(await send('GET', url, noPixel), unknown('Unknown parameter: limt. Did you mean limit?'));
      assert.equal((await send('GET', path, noPixel)).status, 403);
    }
  });
});

describe('Bearer credentials', () => {
  const bearer = (key: string, secret: string) => ({ authorization: `Bearer ${key}:${secret}` });

  test('Authorization: Bearer <api_key>:<client_secret> is an alternative to the two headers on every endpoint', async () => {
    const key = shop.headers['x-api-key']!;
    const secret = shop.headers['client-secret']!;
    for (const path of [...ENDPOINTS, '/v3/report']) {
      const url = `${path}?start_date=${formatDay(today - DAY)}`;
      const byHeaders = await send('GET', url, shop.headers);
      assert.equal(byHeaders.status, 200, path);
      assert.deepEqual(await send('GET', url, bearer(key, secret)), byHeaders, path);
      assert.deepEqual(await send('GET', url, { authorization: `bearer   ${key}:${secret}  ` }), byHeaders, path);
      assert.deepEqual(await send('GET', url, bearer(key, 'wrong')), { status: 401, body: { message: 'Invalid client secret' } });
      assert.deepEqual(await send('GET', url, bearer('nope', secret)), { status: 401, body: { message: 'Invalid API key' } });
    }
  });

  test('a malformed Authorization header says both ways; the headers win when both are sent', async () => {
    const malformed = {
      status: 400,
      body: { message: 'Invalid Authorization header: expected Bearer <api_key>:<client_secret>, or the x-api-key and client-secret headers' },
    };
    assert.deepEqual(await send('GET', '/v3/events', { authorization: 'Basic dXNlcjpwYXNz' }), malformed);
    assert.deepEqual(await send('GET', '/v3/events', { authorization: 'Bearer only-a-token' }), malformed);
    assert.equal((await send('GET', '/v3/events', { ...shop.headers, authorization: 'Basic dXNlcjpwYXNz' })).status, 200);
    assert.deepEqual(await send('GET', '/v3/events', { 'client-secret': 'x', authorization: `Bearer ${shop.headers['x-api-key']}:x` }), {
      status: 400,
      body: { message: 'Missing x-api-key header' },
    });
  });
});
