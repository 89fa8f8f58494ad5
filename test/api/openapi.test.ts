/**
 * The OpenAPI document of the data API (/openapi.json) and its reference page (/api-docs): the
 * document is valid OpenAPI 3.1 by a maintained validator, names every route, parameter, alias and
 * error message of the contract, and its row fields are the fields real responses carry; the page
 * renders in Chromium under its own Content-Security-Policy without a violation.
 * Fixture: one workspace with one event, one conversion and one ads row on 2026-03-01.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { launchChromium } from '../support/chromium.ts';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';

let t: TestApp;
let ws: TestWorkspace;
let document: any;

/** The contract's data-API routes with their parameters and aliases. */
const ROUTES: Record<string, string[]> = {
  '/v3/events': ['start_date', 'end_date', 'timezone', 'from', 'to', 'limit', 'offset', 'page', 'page_size', 'name', 'event_name', 'session_id', 'visitor_id', 'source', 'sources'],
  '/v3/sessions': ['start_date', 'end_date', 'timezone', 'from', 'to', 'limit', 'offset', 'page', 'page_size', 'session_id', 'visitor_id', 'source', 'sources'],
  '/v3/conversions': ['start_date', 'end_date', 'timezone', 'from', 'to', 'limit', 'offset', 'page', 'page_size', 'name', 'source', 'sources', 'exclude_source', 'exclude_sources', 'group_by', 'transaction_id', 'customer_id', 'is_new_customer'],
  '/v3/ads': ['start_date', 'end_date', 'timezone', 'limit', 'offset', 'source', 'adaccount_id', 'campaign_id', 'adgroup_id', 'ad_id'],
  '/v3/export/events': ['start_date', 'end_date', 'timezone', 'from', 'to', 'name', 'event_name', 'session_id', 'visitor_id', 'source', 'sources', 'format'],
  '/v3/export/sessions': ['start_date', 'end_date', 'timezone', 'from', 'to', 'session_id', 'visitor_id', 'source', 'sources', 'format'],
  '/v3/export/conversions': ['start_date', 'end_date', 'timezone', 'from', 'to', 'name', 'source', 'sources', 'exclude_source', 'exclude_sources', 'transaction_id', 'customer_id', 'is_new_customer', 'format'],
  '/v3/export/ads': ['start_date', 'end_date', 'timezone', 'source', 'adaccount_id', 'campaign_id', 'adgroup_id', 'ad_id', 'format'],
  '/v3/export/mmm': ['start_date', 'end_date', 'timezone', 'from', 'to', 'granularity', 'geo'],
  '/v3/attribution': ['transaction_id', 'start_date', 'end_date', 'timezone', 'from', 'to', 'attribution_window', 'attribution_date', 'exclude_source', 'exclude_sources'],
  '/v3/report': ['start_date', 'end_date', 'timezone', 'from', 'to', 'metrics', 'breakdown', 'interval', 'attribution_model', 'attribution_window', 'attribution_date', 'source', 'sources', 'exclude_source', 'exclude_sources', 'name', 'campaign', 'adgroup', 'ad', 'limit', 'offset'],
  '/v3/reconciliation': ['start_date', 'end_date', 'timezone', 'from', 'to'],
  '/v3/customers': ['start_date', 'end_date', 'timezone', 'from', 'to', 'breakdown', 'attribution_window'],
};

/** The contract's error messages with their status ("..." stands for the listed accepted values). */
const MESSAGES: [number, string][] = [
  [400, 'Missing x-api-key header'],
  [400, 'Missing client-secret header'],
  [401, 'Invalid API key'],
  [401, 'Invalid client secret'],
  [403, 'You do not have access to pixel data'],
  [403, 'You do not have access to ads data'],
  [403, 'You do not have access to the requested sources'],
  [400, 'Unknown source: '],
  [400, 'Invalid start_date or end_date parameter'],
  [400, 'Unknown parameter: '],
  [400, 'start_date must be before end_date'],
  [400, 'Invalid timezone: '],
  [400, 'limit must be a positive integer'],
  [400, 'offset must be a non-negative integer'],
  [400, 'session_id must be numeric'],
  [400, 'visitor_id must be numeric'],
  [400, 'is_new_customer must be one of 0,1,true,false'],
  [400, 'Invalid format: '],
  [405, 'Method not allowed'],
  [403, 'You do not have access to profit metrics'],
  [429, 'Rate limit exceeded'],
  [429, 'Too many concurrent requests'],
  [503, 'Query timed out'],
  [503, 'Analytics store unavailable'],
];

const messagesOf = (path: string, status: number): string[] =>
  Object.values(document.paths[path].get.responses[status]?.content['application/json']?.examples ?? {}).map((e: any) => e.value.message);

before(async () => {
  t = await startTestApp();
  ws = await createTestWorkspace(t.stores);
  await insertRows(t.stores, 'events', [{ store_id: ws.id, dt: '2026-03-01 10:00:00', name: 'pageview', session_id: 1, visitor_id: 1, adv_source: 'google', pathname: '/' }]);
  await insertRows(t.stores, 'conversions', [{ store_id: ws.id, dt: '2026-03-01 10:05:00', name: 'purchase', session_id: 1, visitor_id: 1, transaction_id: 't1', transaction_gross_revenue: 1000 }]);
  await insertRows(t.stores, 'ads', [{ store_id: ws.id, dt: '2026-03-01', source: 'google', ad_id: 'a1', spend: 500, impressions: 100, clicks: 3, reach: 90, version: 1 }]);
  const r = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  assert.equal(r.statusCode, 200);
  assert.match(String(r.headers['content-type']), /^application\/json/);
  document = r.json();
});
after(() => t.close());

describe('/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
  });

  test('describes every route of the data API with its parameters and aliases', () => {
    assert.deepEqual(Object.keys(document.paths).sort(), Object.keys(ROUTES).sort());
    for (const [path, parameters] of Object.entries(ROUTES)) {
      const names = document.paths[path].get.parameters.map((p: any) => p.name);
      assert.deepEqual([...names].sort(), [...parameters].sort(), path);
      assert.deepEqual(document.paths[path].get.security, [{ apiKey: [], clientSecret: [] }, { keyPair: [] }]);
    }
  });

  test('lists every error message of the contract under its status', () => {
    for (const [status, message] of MESSAGES) {
      const where = Object.keys(ROUTES).filter((path) => messagesOf(path, status).some((m) => m.startsWith(message)));
      assert.ok(where.length > 0, `${status} ${message}`);
    }
    for (const path of Object.keys(ROUTES)) {
      const paged = ROUTES[path]!.includes('limit');
      for (const message of ['Missing x-api-key header', 'Invalid API key', ...(paged ? ['limit must be a positive integer'] : []), 'Method not allowed', 'Rate limit exceeded']) {
        assert.ok(Object.keys(document.paths[path].get.responses).some((s) => messagesOf(path, Number(s)).includes(message)), `${path}: ${message}`);
      }
    }
  });

  test('documents every member of the report\'s settings_applied, under a rule and under data_driven', async () => {
    const members = new Set<string>();
    for (const model of ['last_click', 'data_driven']) {
      const r = await t.app.inject({ method: 'GET', url: `/v3/report?start_date=2026-03-01&end_date=2026-03-01&attribution_model=${model}`, headers: ws.headers });
      assert.equal(r.statusCode, 200, r.body);
      for (const key of Object.keys(r.json().settings_applied)) members.add(key);
    }
    const schema = document.paths['/v3/report'].get.responses[200].content['application/json'].schema;
    assert.deepEqual([...members].sort(), Object.keys(schema.properties.settings_applied.properties).sort());
    assert.ok(schema.required.includes('settings_applied'));
  });

  test('documents the fields real rows carry', async () => {
    const rowSchema = (path: string) => {
      const items = document.paths[path].get.responses[200].content['application/json'].schema.properties.data.items;
      return (items.oneOf?.[0] ?? items).properties;
    };
    for (const path of ['/v3/events', '/v3/sessions', '/v3/conversions', '/v3/ads']) {
      const r = await t.app.inject({ method: 'GET', url: `${path}?start_date=2026-03-01&end_date=2026-03-01`, headers: ws.headers });
      assert.equal(r.statusCode, 200, r.body);
      const row = r.json().data[0];
      assert.deepEqual(Object.keys(row).sort(), Object.keys(rowSchema(path)).sort(), path);
      const exported = await t.app.inject({ method: 'GET', url: `/v3/export${path.slice(3)}?start_date=2026-03-01&end_date=2026-03-01`, headers: ws.headers });
      assert.equal(exported.statusCode, 200, exported.body);
      const content = document.paths[`/v3/export${path.slice(3)}`].get.responses[200].content;
      assert.deepEqual(Object.keys(content), ['application/x-ndjson', 'text/csv', 'application/vnd.apache.parquet']);
      assert.deepEqual(Object.keys(JSON.parse(exported.body.split('\n')[0]!)).sort(), Object.keys(content['application/x-ndjson'].schema.properties).sort(), path);
    }
  });

  test('is public and does not depend on the caller', async () => {
    const other = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { host: 'evil.example' } });
    assert.deepEqual(other.json(), document);
    assert.deepEqual(document.servers, [{ url: '/' }]);
  });
});

describe('/api-docs', () => {
  test('is served with a Content-Security-Policy that allows only its own stylesheet', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api-docs' });
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /^text\/html/);
    assert.equal(r.headers['content-security-policy'], "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; style-src 'self'");
    for (const path of Object.keys(ROUTES)) assert.ok(r.body.includes(`<code>${path}</code>`), path);
    const css = await t.app.inject({ method: 'GET', url: '/api-docs.css' });
    assert.match(String(css.headers['content-type']), /^text\/css/);
  });

  test('renders in Chromium without a CSP violation, its stylesheet applied', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused/.test(message.text())) refused.push(message.text());
      });
      await page.goto(`http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api-docs`);
      assert.equal(await page.locator('h2').count(), Object.keys(ROUTES).length);
      assert.equal(await page.locator('section table').first().evaluate((el) => getComputedStyle(el).borderCollapse), 'collapse');
      assert.deepEqual(refused, []);
    } finally {
      await browser.close();
    }
  });
});
