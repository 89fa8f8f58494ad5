/**
 * `ads connect` and `ads sync` against a local stand-in for the Meta Marketing API and the Google
 * Ads API (test/fixtures/ads/fake-platforms.ts: the documented answer shapes, its data described
 * there), through runCommand on real stores, checked through GET /v3/ads.
 * Workspaces: "Meta shop" (act_111), "Google shop" (customer 123-456-7890 through manager
 * 111-222-3333), "Broken" (an expired Meta token, a revoked Google refresh token), all in USD.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCommand } from '../../src/cli/run-command.ts';
import { createLogger } from '../../src/log.ts';
import { syncWorkspace } from '../../src/collect/ads/sync.ts';
import { readDataVersion } from '../../src/store/app/data-versions.ts';
import { createTestWorkspace, injectGet, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { startFakePlatforms, type FakePlatforms } from '../fixtures/ads/fake-platforms.ts';
import { MAX_ANSWER_BYTES } from '../../src/collect/ads/api/call.ts';

let t: TestApp;
let fake: FakePlatforms;
const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);

before(async () => {
  fake = await startFakePlatforms();
  t = await startTestApp();
  t.config.ads = {
    metaApiUrl: `${fake.url}/meta/v24.0`,
    googleAdsApiUrl: `${fake.url}/google/v22`,
    googleTokenUrl: `${fake.url}/google/token`,
    retryBaseMs: 1,
    scheduleCheckMs: 0,
  };
});
after(async () => {
  await t.close();
  await fake.close();
});

async function cli(...argv: string[]) {
  const progress: string[] = [];
  const outcome = await runCommand({ config: t.config, stores: t.stores, logger: createLogger('silent'), progress: (m) => progress.push(m) }, argv);
  return { outcome, progress };
}
const connectMeta = (shop: TestWorkspace, token = 'meta-token') =>
  cli('ads', 'connect', '--workspace', String(shop.id), '--platform', 'meta', '--account', 'act_111', '--access-token', token);
const connectGoogle = (shop: TestWorkspace, refresh = 'refresh-1', developer = 'dev-token') =>
  cli('ads', 'connect', '--workspace', String(shop.id), '--platform', 'google', '--customer-id', '123-456-7890', '--login-customer-id', '111-222-3333',
    '--developer-token', developer, '--client-id', 'client-1', '--client-secret', 'client-secret', '--refresh-token', refresh);
const sync = (shop: TestWorkspace, days: string) => cli('ads', 'sync', '--workspace', String(shop.id), '--days', days);
const ads = async (shop: TestWorkspace, from = daysAgo(40)) => (await injectGet(t, `/v3/ads?start_date=${from}&end_date=${today()}&limit=500`, shop.headers)).body;

describe('ad platform APIs', () => {
  test('Meta: a short range reads the insights pages (after a rate limit), each ad and day becomes an ads row', async () => {
    const shop = await createTestWorkspace(t.stores, 'Meta shop');
    const connected = await connectMeta(shop);
    assert.deepEqual(connected.outcome, {
      result: { workspace_id: shop.id, platform: 'meta', account_id: 'act_111', connected_accounts: [{ platform: 'meta', account_id: 'act_111' }] },
    });
    fake.state.metaRateLimitOnce = true;
    const { outcome, progress } = await sync(shop, '3');
    assert.deepEqual(outcome, {
      result: {
        workspace_id: shop.id, start_date: daysAgo(2), end_date: today(),
        accounts: [{ platform: 'meta', account_id: 'act_111', rows_imported: 6, rows_rejected: 0, errors: [] }],
      },
    });
    assert.ok(progress.some((line) => /^meta act_111: rate limited \(Meta error 80000: .*\); retrying in/.test(line)), progress.join('\n'));
    assert.deepEqual(progress.filter((line) => / page \d/.test(line)), ['meta act_111: page 1, 2 rows', 'meta act_111: page 2, 2 rows', 'meta act_111: page 3, 2 rows']);
    assert.equal(await readDataVersion(t.stores.db, shop.id), 1, 'a pull that stored rows raises the data version');
    const body = await ads(shop);
    assert.deepEqual(body.totals, { total_ads: 2, total_spend: 3 * 1234 + 3 * 50, total_impressions: 3 * 1040, total_clicks: 63, total_reach: 3 * 830 });
    assert.deepEqual(body.data[0], {
      store_id: String(shop.id), dt: daysAgo(2), adaccount_id: '111', source: 'meta', campaign_id: '6001', campaign_name: 'Prospecting',
      adgroup_id: '7001', adgroup_name: 'Broad', ad_id: '9001', ad_name: 'Video', spend: '1234', impressions: '1000', clicks: '20', reach: '800',
    });
  });

  test('Meta: a long range runs an async report until "Job Completed"; a re-pull is a new version of the rows it covers', async () => {
    const shop = await createTestWorkspace(t.stores, 'Meta long');
    await connectMeta(shop);
    fake.state.metaSpend = '10.00';
    const { outcome, progress } = await sync(shop, '28');
    assert.equal('result' in outcome && (outcome.result as { accounts: { rows_imported: number }[] }).accounts[0]!.rows_imported, 56);
    const runLines = progress.filter((line) => line.includes('report run'));
    assert.deepEqual(runLines.map((line) => line.replace(/run \d+/, 'run N')), [
      'meta act_111: report run N 40% (Job Running)',
      'meta act_111: report run N 80% (Job Running)',
      'meta act_111: report run N 100% (Job Completed)',
    ]);
    assert.equal((await ads(shop)).totals.total_spend, 28 * 1000 + 28 * 50);
    // The platform restates: the next pull replaces the covered days and leaves older ones.
    fake.state.metaSpend = '11.00';
    await sync(shop, '3');
    const body = await ads(shop);
    assert.deepEqual([body.totals.total_ads, body.totals.total_spend], [2, 25 * 1000 + 3 * 1100 + 28 * 50]);
    fake.state.metaSpend = '12.34';
  });

  test('Meta: a re-pull replaces the account\'s days it covers: an ad it no longer lists had no delivery on them', async () => {
    const shop = await createTestWorkspace(t.stores, 'Meta withdrawn');
    await connectMeta(shop);
    fake.state.metaSpend = '10.00';
    await sync(shop, '5');
    fake.state.metaWithoutCarousel = true;
    await sync(shop, '2');
    fake.state.metaWithoutCarousel = false;
    fake.state.metaSpend = '12.34';
    const body = await ads(shop);
    const carousel = body.data.filter((r: { ad_id: string }) => r.ad_id === '9002').map((r: Record<string, string>) => [r.spend, r.impressions, r.clicks, r.reach]);
    assert.deepEqual(carousel, [['50', '40', '1', '30'], ['50', '40', '1', '30'], ['50', '40', '1', '30'], ['0', '0', '0', '0'], ['0', '0', '0', '0']]);
    assert.equal(body.totals.total_spend, 5 * 1000 + 3 * 50);
  });

  test('Meta: an expired token (error 190) is a clear error and nothing is stored', async () => {
    const shop = await createTestWorkspace(t.stores, 'Broken meta');
    await connectMeta(shop, 'expired');
    const { outcome } = await sync(shop, '3');
    assert.deepEqual(outcome, {
      error: {
        message:
          'meta act_111: Meta refused the access token (error 190/463: Error validating access token: Session has expired on Sunday, 22-Nov-26 10:00:00 PST.); ' +
          'it has expired or was revoked: create a new token and run ads connect again',
      },
    });
    assert.equal((await ads(shop)).totals.total_ads, 0);
    assert.equal(await readDataVersion(t.stores.db, shop.id), 0, 'nothing stored, nothing to raise');
    const status = await cli('ads', 'status', '--workspace', String(shop.id));
    const [account] = (status.outcome as { result: { accounts: Record<string, string | null>[] } }).result.accounts;
    assert.deepEqual(Object.keys(account!), ['platform', 'account_id', 'connected_at', 'last_sync_at', 'last_sync_error']);
    assert.match(account!.last_sync_at!, /^\d{4}-\d{2}-\d{2}T/);
    assert.match(account!.last_sync_error!, /^meta act_111: Meta refused the access token \(error 190\/463/);
    assert.ok(!JSON.stringify(status.outcome).includes('"expired"'), 'no credentials in the status');
  });

  test('Meta: a malformed insights row (impossible day, spend no number) is rejected by row, the rest stored, exit code 2', async () => {
    const shop = await createTestWorkspace(t.stores, 'Malformed');
    await connectMeta(shop);
    fake.state.metaBadRow = true;
    const { outcome } = await sync(shop, '1');
    fake.state.metaBadRow = false;
    assert.deepEqual(outcome, {
      exitCode: 2,
      result: {
        workspace_id: shop.id, start_date: today(), end_date: today(),
        accounts: [{
          platform: 'meta', account_id: 'act_111', rows_imported: 2, rows_rejected: 1,
          errors: [{ row: 1, message: 'spend: expected an amount like 1,234.56, got "twelve"' }],
        }],
      },
    });
    assert.equal((await ads(shop)).totals.total_spend, 1234 + 50);
  });

  test('Google: the refresh token buys an access token, the GAQL stream (after RESOURCE_EXHAUSTED) gives cost micros as cents', async () => {
    const shop = await createTestWorkspace(t.stores, 'Google shop');
    await connectGoogle(shop);
    fake.state.googleRateLimitOnce = true;
    fake.state.requests.length = 0;
    const { outcome, progress } = await sync(shop, '5');
    assert.deepEqual(outcome, {
      result: {
        workspace_id: shop.id, start_date: daysAgo(4), end_date: today(),
        accounts: [{ platform: 'google', account_id: '1234567890', rows_imported: 5, rows_rejected: 0, errors: [] }],
      },
    });
    assert.ok(progress.some((line) => line.startsWith('google 1234567890: rate limited (RESOURCE_EXHAUSTED: ')), progress.join('\n'));
    const search = fake.state.requests.filter((r) => r.path.endsWith('googleAds:searchStream'));
    assert.equal(search.length, 2);
    assert.deepEqual([search[1]!.headers['developer-token'], search[1]!.headers['login-customer-id']], ['dev-token', '1112223333']);
    const body = await ads(shop);
    assert.deepEqual(body.totals, { total_ads: 1, total_spend: 5 * 250, total_impressions: 1500, total_clicks: 45, total_reach: 0 });
    assert.deepEqual(body.data.at(-1), {
      store_id: String(shop.id), dt: today(), adaccount_id: '1234567890', source: 'google', campaign_id: '501', campaign_name: 'Search - Brand',
      adgroup_id: '601', adgroup_name: 'Brand exact', ad_id: '7001', ad_name: 'RSA - Brand', spend: '250', impressions: '300', clicks: '9', reach: '0',
    });
  });

  test('Google: a revoked refresh token and an invalid developer token (UNAUTHENTICATED) are clear errors', async () => {
    const revoked = await createTestWorkspace(t.stores, 'Revoked');
    await connectGoogle(revoked, 'refresh-old');
    assert.deepEqual((await sync(revoked, '2')).outcome, {
      error: { message: 'google 1234567890: Google refused the refresh token (invalid_grant: Token has been expired or revoked.); authorise again and run ads connect with the new refresh token' },
    });
    const badDeveloper = await createTestWorkspace(t.stores, 'Bad developer token');
    await connectGoogle(badDeveloper, 'refresh-1', 'not-approved');
    assert.deepEqual((await sync(badDeveloper, '2')).outcome, {
      error: { message: 'google 1234567890: Google Ads refused the credentials (UNAUTHENTICATED: The developer token is not valid.); check the developer token and authorise again (ads connect)' },
    });
  });

  test('Google: an answer that never ends is cut at the size bound as it streams in, a clear error', async () => {
    const shop = await createTestWorkspace(t.stores, 'Endless');
    await connectGoogle(shop);
    fake.state.googleEndlessOnce = true;
    assert.deepEqual((await sync(shop, '2')).outcome, { error: { message: `google 1234567890: the API answered more than ${MAX_ANSWER_BYTES} bytes` } });
  });

  test('with one account failing and one working, the pull reports both and exits 2', async () => {
    const shop = await createTestWorkspace(t.stores, 'Half');
    await connectMeta(shop, 'expired');
    await connectGoogle(shop);
    const { outcome } = await sync(shop, '1');
    assert.equal('exitCode' in outcome && outcome.exitCode, 2);
    const accounts = ('result' in outcome ? outcome.result : null) as { accounts: { platform: string; rows_imported: number; error?: string }[] };
    assert.deepEqual(accounts.accounts.map((a) => [a.platform, a.rows_imported, a.error?.slice(0, 40)]), [
      ['google', 1, undefined],
      ['meta', 0, 'meta act_111: Meta refused the access to'],
    ]);
  });

  test('a pull stopped from our side (shutdown) ends at its next wait and is not recorded, so it stays due', async () => {
    const shop = await createTestWorkspace(t.stores, 'Stopped');
    await connectMeta(shop);
    fake.state.runningPolls = Number.MAX_SAFE_INTEGER;
    const stop = new AbortController();
    const progress = (message: string) => {
      if (message.includes('(Job Running)')) stop.abort();
    };
    const result = await syncWorkspace({ config: t.config.ads, stores: t.stores, progress, signal: stop.signal }, shop.id, 28);
    fake.state.runningPolls = 2;
    assert.deepEqual(result.accounts, [{ platform: 'meta', account_id: 'act_111', rows_imported: 0, rows_rejected: 0, errors: [], error: 'meta act_111: stopped' }]);
    const row = await t.stores.db.selectFrom('ad_connections').selectAll().where('workspace_id', '=', shop.id).executeTakeFirstOrThrow();
    assert.deepEqual([row.last_sync_at, row.last_sync_error], [null, null]);
  });

  test('credentials are stored sealed, never in clear; bad options are refused', async () => {
    const shop = await createTestWorkspace(t.stores, 'Sealed');
    await connectMeta(shop, 'meta-token');
    const row = await t.stores.db.selectFrom('ad_connections').selectAll().where('workspace_id', '=', shop.id).executeTakeFirstOrThrow();
    assert.match(row.credentials, /^v1:/);
    assert.ok(!row.credentials.includes('meta-token'));
    const cases: [string[], string][] = [
      [['--platform', 'tiktok'], '--platform must be meta or google'],
      [['--platform', 'meta', '--account', 'acct-1', '--access-token', 'x'], '--account must be a Meta ad account id (act_<digits> or digits)'],
      [['--platform', 'meta', '--account', 'act_1'], '--access-token is required'],
      [['--platform', 'google', '--customer-id', '12345'], '--customer-id must be a Google Ads customer id (123-456-7890)'],
    ];
    for (const [args, message] of cases) {
      assert.deepEqual((await cli('ads', 'connect', '--workspace', String(shop.id), ...args)).outcome, { error: { message } });
    }
    const none = await createTestWorkspace(t.stores, 'None');
    assert.deepEqual((await sync(none, '3')).outcome, { error: { message: `Workspace ${none.id} has no connected ad accounts; add one with ads connect` } });
    assert.deepEqual((await sync(none, '0')).outcome, { error: { message: '--days must be an integer from 1 to 400' } });
  });
});
