/**
 * The command-line scenario, run twice: once with no server (each command opens the stores
 * itself) and once beside a running server (commands go through its admin API). Checks through
 * the data API run at once beside a server, and at the end (after starting one) without.
 *
 * Fixture: workspace 1 "CLI shop" (EUR) gets
 * - events.ndjson: line 1 a facebook pageview (its store_id 999 is ignored), line 2 a row with a
 *   bad timestamp and no session_id, line 3 not JSON, line 4 blank, line 5 a google pageview
 *   given in ISO 8601 with a +02:00 offset and a gclid;
 * - orders.csv: a header, an order with two refunds as a JSON cell, an order with a bad amount;
 * - "Ad report #1 100%.ndjson" (--strict; a name with a space, `#` and `%`): one valid ads row, one
 *   without ad_id: nothing may be imported;
 * - expenses.csv: two valid expenses, imported twice (the second time writes nothing).
 * Workspace 2 "Demo" gets one day of demo data.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { importKinds } from '../../src/collect/import/kinds.ts';
import { getJson, runCli, startServer, tempDataDir, writeFile, type CliResult, type Server } from './run-cli.ts';

const EVENTS = [
  JSON.stringify({ store_id: 999, dt: '2026-03-01 10:00:00', name: 'pageview', session_id: 101, visitor_id: '11', adv_source: 'facebook', pathname: '/', entry_meta_keys: ['fbclid'], entry_meta_values: ['abc'] }),
  JSON.stringify({ dt: '01/03/2026', name: 'pageview', visitor_id: 12 }),
  '{"dt": oops',
  '',
  JSON.stringify({ dt: '2026-03-01T12:30:00.250+02:00', name: 'pageview', session_id: '102', visitor_id: 12, adv_source: 'google', pathname: '/p', entry_meta_keys: ['gclid'], entry_meta_values: ['g1'] }),
].join('\n');

const ORDERS_CSV = [
  'transaction_id,dt,customer_id,is_new_customer,currency,gross_revenue,tax,shipping,discount,refunds,cogs,shipping_cost,payment_fee',
  'T-1,2026-03-01 10:05:00,c1,1,eur,10000,800,500,0,"[{""dt"":""2026-03-03 09:00:00"",""amount"":2500},{""dt"":""2026-03-04T09:00:00Z"",""amount"":""500""}]",4000,600,',
  'T-2,2026-03-01 11:00:00,c2,0,EUR,12.50,0,0,0,,0,0,',
].join('\n');

const ADS_STRICT = [
  JSON.stringify({ dt: '2026-03-01', source: 'meta', ad_id: 'a1', spend: 1000 }),
  JSON.stringify({ dt: '2026-03-01', source: 'meta', spend: 1000 }),
].join('\n');

const EXPENSES_CSV = ['dt,name,amount', '2026-03-01,Agency retainer,250000', '2026-03-02,Photo shoot,80000'].join('\n');

const WORKSPACE_KEYS = ['workspace_id', 'api_key', 'client_secret', 'scopes', 'pixel_id'];

export function cliScenario(mode: 'standalone' | 'server'): void {
  let dataDir: string;
  let server: Server | null = null;
  let created: CliResult;
  let admin: Record<string, string>;
  const deferred: (() => Promise<void>)[] = [];
  /** A check through the data API: now beside a server, else once the server runs at the end. */
  const viaApi = async (check: () => Promise<void>) => (server ? check() : void deferred.push(check));
  const cli = (...args: string[]) => runCli(dataDir, args);

  before(async () => {
    dataDir = tempDataDir();
    if (mode === 'server') server = await startServer(dataDir);
    created = await cli('workspace', 'create', '--name', 'CLI shop', '--currency', 'eur');
    admin = { 'x-api-key': created.json.api_key, 'client-secret': created.json.client_secret };
  });

  after(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe(`command line (${mode === 'server' ? 'through a running server' : 'no server running'})`, () => {
    test('workspace create prints the id, an admin key pair and the pixel id', () => {
      assert.equal(created.code, 0);
      assert.deepEqual(Object.keys(created.json), WORKSPACE_KEYS);
      assert.equal(created.json.workspace_id, 1);
      assert.match(created.json.api_key, /^sl_[\w-]{43}$/);
      assert.match(created.json.client_secret, /^slsec_[\w-]{43}$/);
      assert.deepEqual(created.json.scopes, ['admin:admin']);
      assert.match(created.json.pixel_id, /^px_[\w-]+$/);
    });

    test('key create prints a key pair with its scopes; a revoked key gets 401 Invalid API key', async () => {
      const kept = await cli('key', 'create', '--workspace', '1', '--scopes', 'read:meta,read:profit');
      const revoked = await cli('key', 'create', '--workspace', '1', '--scopes', 'read:google');
      assert.deepEqual(Object.keys(kept.json), ['api_key', 'client_secret', 'scopes']);
      assert.deepEqual(kept.json.scopes, ['read:meta', 'read:profit']);
      const revoke = await cli('key', 'revoke', '--api-key', revoked.json.api_key);
      assert.deepEqual([revoke.code, revoke.json], [0, { revoked: true }]);
      const again = await cli('key', 'revoke', '--api-key', revoked.json.api_key);
      assert.deepEqual([again.code, again.stdout, again.error], [1, '', { error: { message: 'No active key matches --api-key' } }]);
      const drafts = await cli('key', 'create', '--workspace', '1', '--scopes', 'read:creators,write:drafts');
      assert.deepEqual([drafts.code, drafts.json.scopes], [0, ['read:creators', 'write:drafts']]);
      for (const bad of ['read:toString', 'read:__proto__', 'read:constructor', 'write:all', 'read:meta,admin']) {
        const refused = await cli('key', 'create', '--workspace', '1', '--scopes', bad);
        assert.equal(refused.code, 1, bad);
        assert.equal(refused.stdout, '');
        assert.match(refused.error.error.message, /^Unknown scopes: [^.]+\. Known scopes: read:meta, .*read:creators, read:profit, write:drafts, admin:admin$/, bad);
      }
      await viaApi(async () => {
        const url = `${server!.baseUrl}/v3/events?start_date=2026-03-01&end_date=2026-03-01`;
        const gone = await getJson(url, { 'x-api-key': revoked.json.api_key, 'client-secret': revoked.json.client_secret });
        assert.deepEqual(gone, { status: 401, body: { message: 'Invalid API key' } });
        const live = await getJson(url, { 'x-api-key': kept.json.api_key, 'client-secret': kept.json.client_secret });
        assert.equal(live.status, 200);
      });
    });

    test('import of NDJSON imports the valid lines and reports the others by line, with exit code 2', async () => {
      const file = writeFile(dataDir, 'events.ndjson', EVENTS);
      const result = await cli('import', '--workspace', '1', '--kind', 'events', '--file', file);
      assert.equal(result.code, 2);
      assert.deepEqual(result.json, {
        kind: 'events',
        format: 'ndjson',
        rows_imported: 2,
        rows_already_imported: 0,
        rows_rejected: 2,
        errors: [
          { line: 2, message: 'dt: expected YYYY-MM-DD HH:MM:SS[.mmm] (UTC) or ISO 8601 with Z or an offset; session_id: is required' },
          { line: 3, message: 'invalid JSON' },
        ],
      });
      await viaApi(async () => {
        const { status, body } = await getJson(`${server!.baseUrl}/v3/events?start_date=2026-03-01&end_date=2026-03-01`, admin);
        assert.equal(status, 200);
        assert.deepEqual(
          body.data.map((e: Record<string, unknown>) => [e.store_id, e.dt, e.session_id, e.adv_source, e.entry_meta_keys, e.entry_meta_values]),
          [
            ['1', '2026-03-01 10:00:00', '101', 'facebook', ['fbclid'], ['abc']],
            ['1', '2026-03-01 10:30:00', '102', 'google', ['gclid'], ['g1']],
          ],
        );
      });
    });

    test('import of CSV reads the header, JSON array cells and empty cells as absent', async () => {
      const file = writeFile(dataDir, 'orders.csv', ORDERS_CSV);
      const result = await cli('import', '--workspace', '1', '--kind', 'orders', '--file', file);
      assert.equal(result.code, 2);
      assert.deepEqual(result.json, {
        kind: 'orders',
        format: 'csv',
        rows_imported: 1,
        rows_already_imported: 0,
        rows_rejected: 1,
        errors: [{ line: 3, message: 'gross_revenue: expected a non-negative integer (number or digit string)' }],
      });
    });

    test('import --strict imports nothing when any row is invalid (exit code 2); any file name works', async () => {
      writeFile(dataDir, 'Ad report #1 100%.ndjson', ADS_STRICT);
      // A relative name with a space, `#` and `%`, resolved against the CLI's working directory.
      const result = await runCli(dataDir, ['import', '--workspace', '1', '--kind', 'ads', '--file', 'Ad report #1 100%.ndjson', '--strict'], {}, dataDir);
      assert.equal(result.code, 2);
      assert.deepEqual(result.json, {
        kind: 'ads', format: 'ndjson', rows_imported: 0, rows_already_imported: 0, rows_rejected: 1, errors: [{ line: 2, message: 'ad_id: is required' }],
      });
      await viaApi(async () => {
        const { body } = await getJson(`${server!.baseUrl}/v3/ads?start_date=2026-03-01&end_date=2026-03-01`, admin);
        assert.deepEqual(body.data, []);
      });
    });

    test('importing the same rows again writes nothing: events, expenses', async () => {
      const events = await cli('import', '--workspace', '1', '--kind', 'events', '--file', `${dataDir}/events.ndjson`);
      assert.deepEqual([events.code, events.json.rows_imported, events.json.rows_already_imported, events.json.rows_rejected], [2, 0, 2, 2]);
      const file = writeFile(dataDir, 'expenses.csv', EXPENSES_CSV);
      const first = await cli('import', '--workspace', '1', '--kind', 'expenses', '--file', file);
      const again = await cli('import', '--workspace', '1', '--kind', 'expenses', '--file', file);
      assert.deepEqual([first.code, first.json.rows_imported, first.json.rows_already_imported], [0, 2, 0]);
      assert.deepEqual([again.code, again.json.rows_imported, again.json.rows_already_imported], [0, 0, 2]);
      await viaApi(async () => {
        const { body } = await getJson(`${server!.baseUrl}/v3/events?start_date=2026-03-01&end_date=2026-03-01`, admin);
        assert.equal(body.data.length, 2);
      });
    });

    test('import refuses an unknown kind, a missing file and an unknown workspace with a JSON error', async () => {
      const file = writeFile(dataDir, 'x.ndjson', '');
      const cases: [string[], string][] = [
        [['--workspace', '1', '--kind', 'visits', '--file', file], `Unknown kind: visits. Kinds: ${importKinds.map((k) => k.kind).join(', ')}`],
        [['--workspace', '1', '--kind', 'events', '--file', `${dataDir}/missing.ndjson`], `File not found: ${dataDir}/missing.ndjson`],
        [['--workspace', '42', '--kind', 'events', '--file', file], 'Workspace 42 not found'],
      ];
      // The checks are the same code in both modes; alone, each command costs seconds (it opens the
      // stores), so that mode runs the one case that reaches the stores.
      for (const [args, message] of mode === 'server' ? cases : cases.slice(2)) {
        const result = await cli('import', ...args);
        assert.deepEqual([result.code, result.stdout, result.error], [1, '', { error: { message } }]);
      }
    });

    test('settings set prints the whole settings object', async () => {
      const result = await cli('settings', 'set', '--workspace', '1', 'refund_netting=true', 'attribution_window=28', 'ignore_sources=email,tiktok',
        'conversion_names=purchase,sign_up*');
      assert.equal(result.code, 0);
      assert.deepEqual(result.json, {
        include_unattributed: false,
        net_merchandise_revenue: false,
        refund_netting: true,
        excluded_transaction_ids: [],
        platform_revenue: 'pixel',
        new_customer_correction: false,
        attribution_model: 'last_click',
        attribution_window: 28,
        attribution_date: 'conversion',
        ignore_sources: ['email', 'tiktok'],
        payment_fee_percent: 0,
        payment_fee_fixed: 0,
        currency: 'EUR',
        timezone: 'UTC',
        conversion_names: ['purchase', 'sign_up*'],
      });
    });

    test('settings set takes a list from standard input as NAME=-, up to 100000 ids; past a bound it refuses naming it', async () => {
      const withInput = (input: string, ...args: string[]) => runCli(dataDir, ['settings', 'set', '--workspace', '1', ...args], {}, undefined, input);
      const ids = Array.from({ length: 100_000 }, (_, i) => `TX-${i}`);
      const saved = await withInput(`${ids.join('\n')}\n`, 'excluded_transaction_ids=-');
      assert.equal(saved.code, 0, saved.stderr);
      assert.deepEqual([saved.json.excluded_transaction_ids.length, saved.json.excluded_transaction_ids.at(-1)], [100_000, 'TX-99999']);
      const refusals: [string[], string, string][] = [
        [['excluded_transaction_ids=-'], `${ids.join(',')},one-more`, 'excluded_transaction_ids: at most 100000 ids'],
        [[`excluded_transaction_ids=${'x'.repeat(201)}`], '', 'excluded_transaction_ids: each id must be a string of 1 to 200 characters'],
        [['ignore_sources=meta,myspace'], '', 'ignore_sources: unknown source myspace. Sources: meta, facebook, instagram, google, tiktok, pinterest, snapchat, microsoft, bing, openai, outbrain, taboola, organic, audience_network, messenger, threads, whatsapp, email, creator'],
        [['payment_fee_fixed=1000001'], '', 'payment_fee_fixed: at most 1000000 cents'],
        [[`timezone=${'Z'.repeat(65)}`], '', 'timezone: Invalid timezone: (too long). Use an IANA time zone name such as Europe/Berlin'],
      ];
      for (const [args, input, message] of mode === 'server' ? refusals : refusals.slice(0, 1)) {
        const refused = await withInput(input, ...args);
        assert.deepEqual([refused.code, refused.stdout, refused.error], [1, '', { error: { message } }], args.join(' '));
      }
      const cleared = await withInput('', 'excluded_transaction_ids=');
      assert.deepEqual([cleared.json.excluded_transaction_ids, cleared.json.payment_fee_fixed], [[], 0], 'a refused change stored nothing; an empty value clears the list');
    });

    test('secret options given as - are read from standard input, one line each, never from the arguments', async () => {
      const withInput = (input: string, ...args: string[]) => runCli(dataDir, args, {}, undefined, input);
      const user = ['user', 'create', '--email', 'stdin@example.com', '--password', '-', '--workspace', '1'];
      assert.deepEqual((await withInput('a long password 1\n', ...user)).json, { email: 'stdin@example.com', workspace_id: 1, role: 'owner', scopes: null });
      assert.deepEqual((await withInput('another password\n', ...user)).error,
        { error: { message: 'A user stdin@example.com exists; give their current password to add a workspace' } }, 'the line is the password');
      assert.equal((await withInput('a long password 1\n', ...user)).code, 0);

      const google = ['ads', 'connect', '--workspace', '1', '--platform', 'google', '--customer-id', '123-456-7890', '--client-id', 'client-1',
        '--developer-token', '-', '--client-secret', '-', '--refresh-token', '-'];
      const connected = await withInput('dev-token-1\nclient-secret-1\nrefresh-token-1\n', ...google);
      assert.deepEqual(connected.json, { workspace_id: 1, platform: 'google', account_id: '1234567890', connected_accounts: [{ platform: 'google', account_id: '1234567890' }] });
      assert.doesNotMatch(connected.stdout + connected.stderr, /dev-token-1|client-secret-1|refresh-token-1/);
      const short = await withInput('dev-token-1\nclient-secret-1\n', ...google);
      assert.deepEqual([short.code, short.error], [1, { error: { message: '--refresh-token -: standard input has no line 3 for it' } }]);

      const shopify = ['integration', 'set', '--workspace', '1', '--platform', 'shopify', '--shop', 'stdin-shop.myshopify.com', '--secret', '-'];
      const set = await withInput('shpss_from_standard_input\n', ...shopify);
      assert.equal(set.code, 0, JSON.stringify(set.error));
      assert.doesNotMatch(set.stdout + set.stderr, /shpss_from_standard_input/);
      assert.deepEqual((await withInput('', ...shopify)).error, { error: { message: '--secret -: standard input has no line 1 for it' } });
    });

    test('user reset-password sets a new password, generated and printed once or read from standard input, and signs the user out', async () => {
      const signIn = async (password: string) => {
        const response = await fetch(`${server!.baseUrl}/dashboard/api/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'reset@example.com', password }),
        });
        return { status: response.status, cookie: String(response.headers.get('set-cookie')).split(';')[0]! };
      };
      const signedIn = async (cookie: string) => (await fetch(`${server!.baseUrl}/dashboard/api/me`, { headers: { cookie } })).status;
      assert.equal((await cli('user', 'create', '--email', 'reset@example.com', '--password', 'the first password', '--workspace', '1')).code, 0);
      const session = server ? await signIn('the first password') : null;
      if (session) assert.equal(await signedIn(session.cookie), 200);

      const generated = await cli('user', 'reset-password', '--email', 'Reset@Example.com');
      assert.equal(generated.code, 0, generated.stderr);
      assert.deepEqual(Object.keys(generated.json), ['email', 'password', 'sessions_signed_out']);
      assert.match(generated.json.password, /^[\w-]{16}$/);
      assert.deepEqual({ ...generated.json, password: '(generated)' }, { email: 'reset@example.com', password: '(generated)', sessions_signed_out: session ? 1 : 0 });
      if (session) assert.equal(await signedIn(session.cookie), 401, 'the session of the old password ended');
      await viaApi(async () => {
        assert.equal((await signIn('the first password')).status, 401);
      });

      const chosen = await runCli(dataDir, ['user', 'reset-password', '--email', 'reset@example.com', '--password', '-'], {}, undefined, 'my chosen password\n');
      assert.deepEqual(chosen.json, { email: 'reset@example.com', sessions_signed_out: 0 }, 'a chosen password is not printed');
      assert.doesNotMatch(chosen.stdout + chosen.stderr, /my chosen password/);
      await viaApi(async () => {
        assert.equal((await signIn(generated.json.password)).status, 401);
        assert.equal((await signIn('my chosen password')).status, 200);
      });

      assert.deepEqual((await cli('user', 'reset-password', '--email', 'nobody@example.com')).error, { error: { message: 'No dashboard user nobody@example.com' } });
      assert.deepEqual((await cli('user', 'reset-password', '--email', 'reset@example.com', '--password', 'short')).error, {
        error: { message: '--password must be 10 to 256 characters' },
      });
      assert.deepEqual((await cli('user', 'reset-password')).error, { error: { message: '--email is required' } });
    });

    test('demo fills an empty workspace once, ending today', async () => {
      const workspace = await cli('workspace', 'create', '--name', 'Demo');
      const result = await cli('demo', '--workspace', '2', '--days', '1');
      const today = new Date().toISOString().slice(0, 10);
      assert.equal(result.code, 0);
      assert.deepEqual({ ...result.json, rows: Object.keys(result.json.rows) }, {
        workspace_id: 2, days: 1, start_date: today, end_date: today,
        rows: ['events', 'conversions', 'orders', 'ads', 'products', 'expenses', 'weather'],
      });
      assert.ok(result.json.rows.ads > 0 && result.json.rows.products > 0);
      assert.equal(result.json.rows.weather, 1, "one day of the shop's weather");
      const again = await cli('demo', '--workspace', '2', '--days', '1');
      assert.deepEqual(again.error, { error: { message: 'Workspace 2 already has data; the demo fills only an empty workspace' } });
      if (mode === 'server') {
        const badDays = await cli('demo', '--workspace', '2', '--days', '0');
        assert.deepEqual(badDays.error, { error: { message: '--days must be an integer from 1 to 730' } });
      }
      const headers = { 'x-api-key': workspace.json.api_key, 'client-secret': workspace.json.client_secret };
      await viaApi(async () => {
        const { status, body } = await getJson(`${server!.baseUrl}/v3/ads?start_date=${today}&end_date=${today}`, headers);
        assert.equal(status, 200);
        // The demo's spend comes in as the four platforms' exports (the legacy bing account through Microsoft Advertising's).
        assert.deepEqual([...new Set(body.data.map((ad: { source: string }) => ad.source))].sort(), ['google', 'meta', 'microsoft', 'tiktok']);
      });
    });

    test('a time zone is an IANA name, stored in its canonical spelling; anything else is refused', async () => {
      const set = await cli('settings', 'set', '--workspace', '1', 'timezone=america/new_york');
      assert.deepEqual([set.code, set.json.timezone], [0, 'America/New_York']);
      const message = 'Invalid timezone: Mars/Olympus. Use an IANA time zone name such as Europe/Berlin';
      const refused = await cli('settings', 'set', '--workspace', '1', 'timezone=Mars/Olympus');
      assert.deepEqual([refused.code, refused.stdout, refused.error], [1, '', { error: { message: `timezone: ${message}` } }]);
      const created = await cli('workspace', 'create', '--name', 'Zoned', '--timezone', 'australia/sydney');
      const settings = await cli('settings', 'set', '--workspace', String(created.json.workspace_id), 'refund_netting=false');
      assert.equal(settings.json.timezone, 'Australia/Sydney');
      const unknown = await cli('workspace', 'create', '--name', 'Nowhere', '--timezone', 'Mars/Olympus');
      assert.deepEqual([unknown.code, unknown.stdout, unknown.error], [1, '', { error: { message } }]);
      assert.equal((await cli('settings', 'set', '--workspace', '1', 'timezone=UTC')).json.timezone, 'UTC');
    });

    if (mode === 'standalone') {
      test('a server started afterwards on the same data dir shows what the commands did', async () => {
        server = await startServer(dataDir);
        for (const check of deferred) await check();
      });
    }
  });
}
