/**
 * `import --kind ads` with the ad platforms' own report exports, run through the command line's
 * code (runCommand, as the CLI and the admin endpoint do) against real stores, checked through
 * GET /v3/ads.
 *
 * Fixtures (test/fixtures/ads/, written from each platform's documented export columns, see
 * docs/integrations.md): Meta Ads Manager (summary row first, currency in "Amount spent (USD)",
 * a quoted ad set name with a comma), Google Ads (title and date-range lines, "--" cells,
 * thousands separators, two "Total:" rows), TikTok Ads Manager ("Total of 2 results" row),
 * Microsoft Advertising (the API report's ten preamble lines and copyright footer). All in USD for
 * 2026-11-01 and 02: 10 ad days of 6 ads, spend 3,614.00 USD. Bad files are written by each test.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../../src/cli/run-command.ts';
import { createLogger } from '../../src/log.ts';
import { createTestWorkspace, injectGet, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/ads');
const fixture = (name: string) => path.join(FIXTURES, name);
let t: TestApp;

before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const cli = (...argv: string[]) => runCommand({ config: t.config, stores: t.stores, logger: createLogger('silent'), progress: () => undefined }, argv);
const importAds = (shop: TestWorkspace, file: string, ...extra: string[]) => cli('import', '--workspace', String(shop.id), '--kind', 'ads', '--file', file, ...extra);
const write = (name: string, text: string) => {
  const file = path.join(t.config.dataDir, name);
  fs.writeFileSync(file, text);
  return file;
};
const ads = async (shop: TestWorkspace) => (await injectGet(t, '/v3/ads?start_date=2026-11-01&end_date=2026-11-02&limit=100', shop.headers)).body;
const clean = (format: string, rows: number) => ({
  result: { kind: 'ads', format, rows_imported: rows, rows_already_imported: 0, rows_rejected: 0, errors: [] },
});

describe('import --kind ads reads the platforms’ exports', () => {
  test('detects each platform by its header and stores cents, counts and ids; /v3/ads shows the rows and totals', async () => {
    const shop = await createTestWorkspace(t.stores, 'Four platforms');
    assert.deepEqual(await importAds(shop, fixture('meta-ads-manager.csv')), clean('meta', 3));
    assert.deepEqual(await importAds(shop, fixture('google-ads.csv')), clean('google', 3));
    assert.deepEqual(await importAds(shop, fixture('tiktok-ads-manager.csv')), clean('tiktok', 2));
    assert.deepEqual(await importAds(shop, fixture('microsoft-advertising.csv')), clean('microsoft', 2));

    const body = await ads(shop);
    assert.deepEqual(body.totals, { total_ads: 6, total_spend: 361400, total_impressions: 195996, total_clicks: 4766, total_reach: 112600 });
    const bySource = (source: string) => body.data.filter((row: { source: string }) => row.source === source);
    assert.deepEqual(bySource('meta')[0], {
      store_id: String(shop.id), dt: '2026-11-01', adaccount_id: '1029384756', source: 'meta',
      campaign_id: '120210000000001013', campaign_name: 'Prospecting - Broad', adgroup_id: '120210000000002026', adgroup_name: 'US 25-44, mobile',
      ad_id: '120210000000003039', ad_name: 'UGC video', spend: '61240', impressions: '70100', clicks: '1302', reach: '45200',
    });
    assert.deepEqual(bySource('google')[0], {
      store_id: String(shop.id), dt: '2026-11-01', adaccount_id: '123-456-7890', source: 'google',
      campaign_id: '21000001013', campaign_name: 'Search - Brand', adgroup_id: '21000002026', adgroup_name: 'Brand exact',
      ad_id: '680001111111', ad_name: '', spend: '120450', impressions: '12345', clicks: '987', reach: '0',
    });
    assert.deepEqual(bySource('tiktok').map((r: { spend: string; clicks: string; reach: string }) => [r.spend, r.clicks, r.reach]), [['4560', '88', '7000'], ['5001', '95', '7600']]);
    assert.deepEqual(bySource('microsoft')[1], {
      store_id: String(shop.id), dt: '2026-11-02', adaccount_id: '180012345', source: 'microsoft',
      campaign_id: '51000001013', campaign_name: 'Search - Brand (Microsoft)', adgroup_id: '51000002026', adgroup_name: 'Brand',
      ad_id: '83000000001', ad_name: 'RSA - Brand MS', spend: '2810', impressions: '1100', clicks: '40', reach: '0',
    });
  });

  test('a re-export is a new version: the newest import per ad and day wins', async () => {
    const shop = await createTestWorkspace(t.stores, 'Restated');
    await importAds(shop, fixture('tiktok-ads-manager.csv'));
    const restated = fs.readFileSync(fixture('tiktok-ads-manager.csv'), 'utf8').replace(',USD,50.01,9900,95,7600', ',USD,52.00,9950,96,7610');
    assert.deepEqual(await importAds(shop, write('tiktok-restated.csv', restated), '--format', 'tiktok'), clean('tiktok', 2));
    assert.deepEqual((await ads(shop)).totals, { total_ads: 1, total_spend: 9760, total_impressions: 19050, total_clicks: 184, total_reach: 14610 });
  });

  test('a newer export replaces the account\'s days it covers: an ad day it no longer lists is no delivery; other accounts and days stay', async () => {
    const shop = await createTestWorkspace(t.stores, 'Withdrawn');
    const meta = fs.readFileSync(fixture('meta-ads-manager.csv'), 'utf8').trimEnd().split('\n');
    const [header, , day1, day2, retargeting] = meta as [string, string, string, string, string];
    const otherAccount = '2026-11-02,2026-11-02,Brand,7001,All,7002,Logo,7003,555,10.00,1000,800,10,5';
    assert.deepEqual(await importAds(shop, write('meta-1.csv', [header, day1, day2, retargeting, otherAccount].join('\n')), '--format', 'meta'), clean('meta', 4));
    // Meta restated the account: the retargeting ad's day is gone (its delivery was withdrawn), the other ad's days are final.
    const restated = [header, day1.replace('612.40', '600.00'), day2].join('\n');
    assert.deepEqual(await importAds(shop, write('meta-2.csv', restated), '--format', 'meta'), clean('meta', 2));
    const rows = () => ads(shop).then((body) => body.data.map((r: Record<string, string>) => [r.dt, r.adaccount_id, r.ad_id, r.spend, r.impressions, r.clicks, r.reach]));
    assert.deepEqual(await rows(), [
      ['2026-11-01', '1029384756', '120210000000003039', '60000', '70100', '1302', '45200'],
      ['2026-11-02', '1029384756', '120210000000003039', '64009', '80000', '1380', '51000'],
      ['2026-11-02', '1029384756', '120210000000010130', '0', '0', '0', '0'],
      ['2026-11-02', '555', '7003', '1000', '1000', '10', '800'],
    ]);
    // A file with a rejected row replaces nothing beyond its own rows: the rejected row may be the one that keeps a day.
    const partial = [header, day1.replace('612.40', '601.00'), day2.replace('640.09', 'n/a')].join('\n');
    const outcome = await importAds(shop, write('meta-3.csv', partial), '--format', 'meta');
    assert.equal('result' in outcome && (outcome.result as { rows_rejected: number }).rows_rejected, 1);
    assert.deepEqual((await rows()).slice(0, 2), [
      ['2026-11-01', '1029384756', '120210000000003039', '60100', '70100', '1302', '45200'],
      ['2026-11-02', '1029384756', '120210000000003039', '64009', '80000', '1380', '51000'],
    ]);
  });

  test('--format names the platform; a file of another platform is refused', async () => {
    const shop = await createTestWorkspace(t.stores, 'Named');
    assert.deepEqual(await importAds(shop, fixture('google-ads.csv'), '--format', 'google'), clean('google', 3));
    assert.deepEqual(await importAds(shop, fixture('google-ads.csv'), '--format', 'meta'), {
      error: { message: 'Meta Ads Manager export without the columns every row needs: Amount spent (header on line 3)' },
    });
    assert.deepEqual(await importAds(shop, fixture('google-ads.csv'), '--format', 'yahoo'), {
      error: { message: 'Unknown format: yahoo. Formats: ndjson, csv, meta, google, tiktok, microsoft, shopify' },
    });
    assert.deepEqual(await cli('import', '--workspace', String(shop.id), '--kind', 'orders', '--file', fixture('google-ads.csv'), '--format', 'google'), {
      error: { message: '--format google is an ads report: use it with --kind ads' },
    });
  });

  test('an unknown layout is refused with the way out', async () => {
    const shop = await createTestWorkspace(t.stores, 'Unknown');
    const file = write('unknown.csv', 'Date,Network,Money\n2026-11-01,Yahoo,12.00\n');
    assert.deepEqual(await importAds(shop, file), {
      error: {
        message:
          'Unknown ads file: its first 30 lines hold no header of a Meta Ads Manager, Google Ads, TikTok Ads Manager, Microsoft Advertising export, ' +
          'nor the columns dt, source, ad_id; name the platform with --format meta|google|tiktok|microsoft',
      },
    });
    assert.equal((await ads(shop)).totals.total_ads, 0);
  });

  test('a file without the columns a row needs is refused, naming them, and nothing is stored', async () => {
    const shop = await createTestWorkspace(t.stores, 'Missing');
    const file = write('meta-no-ids.csv', 'Campaign name,Ad set name,Ad name,Impressions,Reach,Clicks (all)\nSpring,US,Video,100,80,3\n');
    assert.deepEqual(await importAds(shop, file, '--format', 'meta'), {
      error: { message: 'Meta Ads Manager export without the columns every row needs: Day (or Reporting starts and Reporting ends), Ad ID, Amount spent (header on line 1)' },
    });
    assert.equal((await ads(shop)).totals.total_ads, 0);
  });

  test('amounts in another currency than the workspace’s are refused, from the header or from any row, and nothing is stored', async () => {
    const shop = await createTestWorkspace(t.stores, 'Currency');
    const meta = fs.readFileSync(fixture('meta-ads-manager.csv'), 'utf8').replace('Amount spent (USD)', 'Amount spent (EUR)');
    assert.deepEqual(await importAds(shop, write('meta-eur.csv', meta)), {
      error: { message: "The export's amounts are in EUR (line 1) but the workspace keeps USD; nothing was imported" },
    });
    // The first rows are in USD: only reading the whole file first keeps them out.
    const google = fs.readFileSync(fixture('google-ads.csv'), 'utf8').replace('USD,0.30,41,1', 'EUR,0.30,41,1');
    assert.deepEqual(await importAds(shop, write('google-mixed.csv', google)), {
      error: { message: "The export's amounts are in EUR (line 6) but the workspace keeps USD; nothing was imported" },
    });
    assert.equal((await ads(shop)).totals.total_ads, 0);
  });

  test('absurd days, malformed numbers and multi-day rows are rejected by line; the rest is imported and the exit code is 2', async () => {
    const shop = await createTestWorkspace(t.stores, 'Bad rows');
    const file = write('tiktok-bad.csv', [
      'By Day,Campaign name,Campaign ID,Ad group name,Ad group ID,Ad name,Ad ID,Currency,Cost,Impressions,Clicks (destination),Reach',
      '2026-11-01,C,1,G,2,A,3,USD,"1,000.005",1000,10,900',
      '1999-12-31,C,1,G,2,A,3,USD,1.00,10,1,9',
      '2026-02-30,C,1,G,2,A,3,USD,1.00,10,1,9',
      '2031-01-01,C,1,G,2,A,3,USD,1.00,10,1,9',
      '2026-11-02,C,1,G,2,A,3,USD,12.3.4,1O0,-1,9',
      '2026-11-02,C,1,G,2,A,,USD,1.00,10,1,9',
    ].join('\n'));
    const outcome = await importAds(shop, file);
    assert.deepEqual(outcome, {
      exitCode: 2,
      result: {
        kind: 'ads', format: 'tiktok', rows_imported: 1, rows_already_imported: 0, rows_rejected: 5,
        errors: [
          { line: 3, message: 'By Day: 1999-12-31 is outside 2000-01-01 to tomorrow' },
          { line: 4, message: 'By Day: expected a day like 2026-11-01, got "2026-02-30"' },
          { line: 5, message: 'By Day: 2031-01-01 is outside 2000-01-01 to tomorrow' },
          {
            line: 6,
            message:
              'Cost: expected an amount like 1,234.56, got "12.3.4"; Impressions: expected a whole number like 1,234, got "1O0"; ' +
              'Clicks (destination): expected a whole number like 1,234, got "-1"',
          },
          { line: 7, message: 'Ad ID: is required' },
        ],
      },
    });
    assert.deepEqual((await ads(shop)).data.map((r: { spend: string }) => r.spend), ['100001']);
  });

  test('a Meta row covering several days is rejected: the export must be split by day', async () => {
    const shop = await createTestWorkspace(t.stores, 'Range');
    const file = write('meta-range.csv', 'Reporting starts,Reporting ends,Ad name,Ad ID,Amount spent (USD)\n2026-11-01,2026-11-07,Video,9,10.00\n2026-11-02,2026-11-02,Video,9,2.00\n');
    const outcome = await importAds(shop, file);
    assert.deepEqual('result' in outcome && outcome.result, {
      kind: 'ads', format: 'meta', rows_imported: 1, rows_already_imported: 0, rows_rejected: 1,
      errors: [{ line: 2, message: 'Reporting starts 2026-11-01 and Reporting ends 2026-11-07 span several days: export one row per day' }],
    });
  });

  test('money is converted with the currency’s own minor unit (JPY has none)', async () => {
    const shop = await createTestWorkspace(t.stores, 'Yen', 'JPY');
    const file = write('google-jpy.csv', 'Day,Campaign,Ad group,Ad ID,Currency code,Cost,Impr.,Clicks\n2026-11-01,Brand,Exact,77,JPY,"12,345",900,12\n');
    assert.deepEqual(await importAds(shop, file), clean('google', 1));
    assert.equal((await ads(shop)).totals.total_spend, 12345);
  });

  test('our own ads CSV columns are still read as before', async () => {
    const shop = await createTestWorkspace(t.stores, 'Own');
    const file = write('own.csv', 'dt,source,ad_id,spend\n2026-11-01,meta,a1,1500\n');
    assert.deepEqual(await importAds(shop, file), clean('csv', 1));
  });
});
