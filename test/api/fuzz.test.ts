/**
 * Generated bad input for every data-API endpoint of the route table (src/api/endpoints.ts) and
 * every parameter it reads (its query schema and aliases), plus parameters named after prototype
 * members: garbage, prototype names, unicode with lone surrogates and broken UTF-8, huge and
 * negative numbers, empty strings, repeated and bracketed parameters (arrays and objects where a
 * scalar is expected). Every answer must be the contract's: 200 with the envelope (an export: its rows), or 400/403
 * with exactly `{"message"}`; never a 500 and never a stack.
 * The settings writes get the same treatment: the CLI's `settings set`, the dashboard's settings,
 * storefront and key endpoints, with hostile values (lists past their bounds, prototype names,
 * broken unicode, nested arrays, huge numbers): never a 500 or a failed command, and what is stored
 * afterwards is always within every bound.
 * Fixture: one workspace with a facebook session of two events and a purchase today, and a meta
 * ad row, so both empty and non-empty answers occur; an admin key and a read:meta key; its owner
 * ada signed in to the dashboard.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { DATA_API_PREFIX, DATA_ENDPOINTS } from '../../src/api/endpoints.ts';
import { parameterNames } from '../../src/api/params.ts';
import { formatDay, formatTimestamp } from '../../src/kit/calendar/days.ts';
import { PROTOTYPE_NAMES } from '../mcp/arbitraries.ts';
import { createUser, cli, signIn, type Signed } from '../dashboard/helpers.ts';
import { DEFAULT_SETTINGS, SETTING_BOUNDS, settingChangesSchema } from '../../src/store/app/settings.ts';
import { PIXEL_SOURCES } from '../../src/analytics/sources.ts';
import { STOREFRONT_LIMITS } from '../../src/store/app/tryon-storefronts.ts';

let t: TestApp;
let shop: TestWorkspace;
let metaKey: Record<string, string>;
let ada: Signed;

before(async () => {
  t = await startTestApp();
  shop = await createTestWorkspace(t.stores);
  metaKey = await shop.keyHeaders(['read:meta']);
  const now = Date.now() - 3_600_000;
  await insertRows(t.stores, 'events', [
    { store_id: shop.id, dt: formatTimestamp(now), name: 'pageview', session_id: 1, visitor_id: 1, adv_source: 'facebook', pathname: '/' },
    { store_id: shop.id, dt: formatTimestamp(now + 60_000), name: 'add_to_cart', session_id: 1, visitor_id: 1, adv_source: 'facebook', pathname: '/p' },
  ]);
  await insertRows(t.stores, 'conversions', [
    { store_id: shop.id, dt: formatTimestamp(now + 120_000), name: 'purchase', session_id: 1, visitor_id: 1, transaction_id: 'T1', transaction_gross_revenue: 100 },
  ]);
  await insertRows(t.stores, 'ads', [{ store_id: shop.id, dt: formatDay(now), source: 'meta', ad_id: 'a1', spend: 5, version: 1 }]);
  await createUser(t, 'ada@example.com', shop.id);
  ada = await signIn(t, 'ada@example.com');
});
after(() => t.close());

/** Words the endpoints know, so that some values get past the first check. */
const KNOWN = [
  'meta', 'organic', 'creator', 'google', 'date', 'adv_source', 'name', 'revenue', 'gross_profit', 'spend', 'linear', 'any_click',
  'source', 'campaign', 'day', 'week', 'click', '7', '365', '1', '0', 'true', '2026-11-20', '2026-11-20 10:00:00', '*', 'add_*',
];
const HOSTILE = [
  ...PROTOTYPE_NAMES, '', ' ', ',', ',,', '\uD800', 'a\uDC00b', '\u0000', '\u202e😀', 'x'.repeat(3000), '-1', '-0', '1.5', '1e309',
  '99999999999999999999999999', '18446744073709551616', '-99999999999999999999', 'NaN', 'Infinity', '[]', '{}', 'null',
  '0x1F', ' 7', '2026-02-30', '1969-12-31', '9999-12-31', '2026-11-20T10:00:00+25:00', "' OR 1=1 --", '{store_id:UInt64}', '%', '%%',
];

/** One value: hostile, known, a comma list of both, or random text (any code point, lone surrogates included). */
const value = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.constantFrom(...KNOWN),
  fc.array(fc.constantFrom(...HOSTILE, ...KNOWN), { minLength: 2, maxLength: 4 }).map((v) => v.join(',')),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.oneof(fc.integer(), fc.double()).map(String),
);

/** Percent-encodes any UTF-16 string; a lone surrogate becomes the bytes a lenient encoder would send. */
function encode(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    out += code >= 0xd800 && code <= 0xdfff ? `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}` : encodeURIComponent(ch);
  }
  return out;
}

/** One parameter on the wire: plain, repeated, bracketed (array/object syntax), bare, or with broken UTF-8. */
const parameter = (names: string[]) =>
  fc
    .tuple(fc.constantFrom(...names), fc.constantFrom('plain', 'repeated', 'array', 'object', 'bare', 'raw'), value, value)
    .map(([name, shape, a, b]) => {
      const n = encode(name);
      switch (shape) {
        case 'repeated':
          return `${n}=${encode(a)}&${n}=${encode(b)}`;
        case 'array':
          return `${n}[]=${encode(a)}&${n}[]=${encode(b)}`;
        case 'object':
          return `${n}[__proto__]=${encode(a)}&${n}[x]=${encode(b)}`;
        case 'bare':
          return n;
        case 'raw':
          return `${n}=%FF%C0%AF${encode(a)}`;
        default:
          return `${n}=${encode(a)}`;
      }
    });

/**
 * The answers each endpoint may give besides 400 and 403: the row endpoints and the report a page
 * (`data` and `pagination`), the reconciliation its days and totals, and the explanation of one
 * conversion its object or 404 when none is in scope.
 */
const SHAPES: Record<string, { found: (body: any) => boolean; notFound?: true }> = {
  '/v3/attribution': { found: (body) => typeof body.data === 'object' && !Array.isArray(body.data), notFound: true },
  '/v3/reconciliation': { found: (body) => Array.isArray(body.data) && typeof body.totals === 'object' },
};
const PAGE = { found: (body: any) => Array.isArray(body.data) && typeof body.pagination === 'object' };

async function expectContractAnswer(url: string, headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'GET', url, headers });
  const where = `${url.slice(0, 300)} answered ${response.statusCode}: ${response.body.slice(0, 300)}`;
  const shape = SHAPES[url.split('?')[0]!] ?? PAGE;
  assert.ok([200, 400, 403, ...(shape.notFound ? [404] : [])].includes(response.statusCode), where);
  assert.doesNotMatch(response.body, /\bat .+:\d+:\d+|node:internal|\.ts:\d+|Error:/, where);
  const type = String(response.headers['content-type']);
  if (response.statusCode === 200 && !type.startsWith('application/json')) {
    // An export: every line of NDJSON is one row object; CSV and Parquet are checked by the export tests.
    assert.match(type, /^(application\/x-ndjson|text\/csv|application\/vnd\.apache\.parquet)/, where);
    if (type === 'application/x-ndjson') for (const line of response.body.split('\n').filter(Boolean)) assert.equal(typeof JSON.parse(line), 'object', where);
    return;
  }
  const body = response.json();
  if (response.statusCode === 200) {
    assert.ok(shape.found(body), where);
  } else if (response.statusCode === 404) {
    assert.deepEqual(body, { message: 'Not found' }, where);
  } else {
    // A contract message with help for a person has it in `detail` beside it.
    assert.deepEqual(Object.keys(body), 'detail' in body ? ['message', 'detail'] : ['message'], where);
    assert.equal(typeof body.message, 'string', where);
    if ('detail' in body) assert.equal(typeof body.detail, 'string', where);
  }
}

/** Values every parameter gets for sure, on top of the random ones. */
const EVERY_PARAMETER_GETS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '', '\uD800', '-99999999999999999999'];

describe('generated bad input on every data endpoint', () => {
  assert.ok(DATA_ENDPOINTS.length >= 5);
  for (const endpoint of DATA_ENDPOINTS) {
    const names = parameterNames(endpoint.query);
    test(`${DATA_API_PREFIX}${endpoint.path}: every parameter (${names.length}) with garbage gets a 200 envelope or a 4xx {message}, never a 500`, async () => {
      // Each parameter with the sure values, then random values alone and in mixes with prototype-named parameters.
      const path = `${DATA_API_PREFIX}${endpoint.path}`;
      const sure = [
        ...names.flatMap((name) => [...EVERY_PARAMETER_GETS.map((v) => `${encode(name)}=${encode(v)}`), `${encode(name)}[]=1&${encode(name)}[]=2`]),
        ...PROTOTYPE_NAMES.map((name) => `${encode(name)}=1`),
      ];
      for (let i = 0; i < sure.length; i += 8) {
        await Promise.all(sure.slice(i, i + 8).map((query) => expectContractAnswer(`${path}?${query}`, shop.headers)));
      }
      const alone = fc.constantFrom(...names).chain((name) => parameter([name]));
      const mixed = fc.array(parameter([...names, ...PROTOTYPE_NAMES]), { minLength: 2, maxLength: 5 }).map((p) => p.join('&'));
      await fc.assert(
        fc.asyncProperty(fc.oneof(alone, mixed), fc.boolean(), async (query, admin) => {
          await expectContractAnswer(`${path}?${query}`, admin ? shop.headers : metaKey);
        }),
        { numRuns: Math.max(30, names.length * 2) },
      );
    });
  }
});

/** A value any setting might get: valid ones, hostile text, lists past their bounds, nested and odd shapes. */
const settingValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(true, false, 0, 7, 28, 2.5, -1, 1e308, 2 ** 53 + 2, 1_000_001, null, 'pixel', 'linear', 'EUR', 'Europe/Berlin', 'meta', 'T-1'),
  fc.constantFrom(...HOSTILE),
  fc.constantFrom([], [[]], [['T1']], [null], [{}], { a: 1 }, ['meta', 'meta'], ['meta', 'friendster'], ['', 'T1'], ['x'.repeat(201)], ['\uD800', 'a\uDC00b']),
  fc.array(fc.oneof(fc.constantFrom(...HOSTILE, ...KNOWN), fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 6 }),
  fc.constantFrom(SETTING_BOUNDS.excludedTransactionIds, SETTING_BOUNDS.excludedTransactionIds + 1, SETTING_BOUNDS.ignoredSources + 1)
    .map((n) => Array.from({ length: n }, (_, i) => `ID-${i}`)),
);
const SETTING_NAMES = [...Object.keys(DEFAULT_SETTINGS), ...PROTOTYPE_NAMES, 'no_such_setting', ''];

/** A settings change as a JSON body: known and hostile names with any value, or no object at all. */
const settingsBody = fc.oneof(
  { weight: 5, arbitrary: fc.array(fc.tuple(fc.constantFrom(...SETTING_NAMES), settingValue), { minLength: 1, maxLength: 4 }).map((pairs) => {
    const body: Record<string, unknown> = {};
    for (const [name, v] of pairs) Object.defineProperty(body, name, { value: v, enumerable: true, writable: true, configurable: true });
    return body;
  }) },
  { weight: 1, arbitrary: settingValue },
);

/** What is stored is within every bound: it would pass as a change itself, sources included. */
async function expectStoredWithinBounds(): Promise<void> {
  const stored = (await ada.get(`/dashboard/api/settings?workspace=${shop.id}`)).body.settings;
  const checked = settingChangesSchema.safeParse(stored);
  assert.ok(checked.success, checked.success ? '' : JSON.stringify(checked.error.issues).slice(0, 300));
  assert.ok(stored.ignore_sources.every((s: string) => (PIXEL_SOURCES as readonly string[]).includes(s)), JSON.stringify(stored.ignore_sources));
}

const isRefusal = (status: number, body: unknown) =>
  status >= 400 && status < 500 && typeof body === 'object' && body !== null && Object.keys(body).join() === 'message';

describe('generated bad settings writes', () => {
  test('the dashboard\'s settings endpoint answers 200 or a 4xx {message}, and stores nothing beyond a bound', async () => {
    await fc.assert(
      fc.asyncProperty(settingsBody, async (body) => {
        const r = await ada.send('PUT', `/dashboard/api/settings?workspace=${shop.id}`, body);
        assert.ok(r.status === 200 || isRefusal(r.status, r.body), `${JSON.stringify(body).slice(0, 200)} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
        await expectStoredWithinBounds();
      }),
      { numRuns: 60 },
    );
  });

  test('settings set on the command line refuses with a message, never fails, and stores nothing beyond a bound', async () => {
    const text = fc.oneof(
      fc.constantFrom(...HOSTILE, ...KNOWN, 'true', 'off', '1000001', 'meta,friendster', 'Europe/Berlin'),
      fc.array(fc.constantFrom(...HOSTILE, ...KNOWN), { maxLength: 5 }).map((v) => v.join(',')),
      fc.constantFrom(SETTING_BOUNDS.excludedTransactionIds + 1, 51).map((n) => Array.from({ length: n }, (_, i) => `ID-${i}`).join(',')),
      fc.string({ unit: 'binary', maxLength: 12 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...SETTING_NAMES), text), { minLength: 1, maxLength: 3 }), async (pairs) => {
        const outcome = await cli(t, ['settings', 'set', '--workspace', String(shop.id), ...pairs.map(([name, v]) => `${name}=${v}`)]);
        if ('error' in outcome) assert.doesNotMatch(outcome.error.message, /^Command failed/, outcome.error.message.slice(0, 200));
        await expectStoredWithinBounds();
      }),
      { numRuns: 60 },
    );
  });

  test('the storefront and key endpoints answer 201/200 or a 4xx {message}, and store nothing beyond a bound', async () => {
    const storefront = fc.record({
      origins: fc.oneof(settingValue, fc.constantFrom(Array.from({ length: 21 }, (_, i) => `https://s${i}.example`), ['https://shop.example'])),
      consent_version: settingValue, marketing_version: settingValue, session_attempts: settingValue, daily_attempts: settingValue,
    }, { requiredKeys: [] });
    const key = fc.record({ scopes: fc.oneof(settingValue, fc.constantFrom(['read:meta', 'read:meta'], Array(41).fill('read:meta'))) }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(storefront, key, async (front, keyBody) => {
        const r1 = await ada.send('PUT', `/dashboard/api/storefront?workspace=${shop.id}`, front);
        assert.ok(r1.status === 200 || isRefusal(r1.status, r1.body), `storefront ${r1.status}: ${JSON.stringify(r1.body).slice(0, 200)}`);
        const r2 = await ada.send('POST', `/dashboard/api/keys?workspace=${shop.id}`, keyBody);
        assert.ok(r2.status === 201 || isRefusal(r2.status, r2.body), `keys ${r2.status}: ${JSON.stringify(r2.body).slice(0, 200)}`);
      }),
      { numRuns: 40 },
    );
    const stored = (await ada.get(`/dashboard/api/storefront?workspace=${shop.id}`)).body;
    assert.ok(stored.origins.length <= STOREFRONT_LIMITS.origins && stored.session_attempts <= STOREFRONT_LIMITS.sessionAttempts);
    const keys = (await ada.get(`/dashboard/api/keys?workspace=${shop.id}`)).body.keys;
    assert.ok(keys.every((k: { scopes: string[] }) => k.scopes.length === new Set(k.scopes).size && k.scopes.length <= 40));
  });
});
