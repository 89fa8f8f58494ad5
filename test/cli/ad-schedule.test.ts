/**
 * The server's daily ad pull, end to end: a server process started with a short schedule check
 * and the ad platform URLs pointing at the local stand-in (test/fixtures/ads/fake-platforms.ts);
 * `ads connect` goes through the running server, and the schedule, not a command, pulls the last
 * 28 days of Meta account act_111 (two ads a day) into /v3/ads.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { getJson, runCli, startServer, tempDataDir, type Server } from './run-cli.ts';
import { startFakePlatforms, type FakePlatforms } from '../fixtures/ads/fake-platforms.ts';

let dataDir: string;
let server: Server;
let fake: FakePlatforms;

before(async () => {
  fake = await startFakePlatforms();
  dataDir = tempDataDir();
  server = await startServer(dataDir, {
    STORELENS_ADS_SCHEDULE_CHECK_MS: '100',
    STORELENS_ADS_RETRY_MS: '1',
    STORELENS_META_API_URL: `${fake.url}/meta/v24.0`,
  });
});

after(async () => {
  await server.stop();
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a connected account is pulled by the server on its own: the last 28 days show in /v3/ads', { timeout: 180_000 }, async () => {
  const created = await runCli(dataDir, ['workspace', 'create', '--name', 'Scheduled']);
  const headers = { 'x-api-key': created.json.api_key, 'client-secret': created.json.client_secret };
  const connected = await runCli(dataDir, ['ads', 'connect', '--workspace', '1', '--platform', 'meta', '--account', '111', '--access-token', 'meta-token']);
  assert.equal(connected.code, 0, connected.stderr);
  const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const url = `${server.baseUrl}/v3/ads?start_date=${day(40)}&end_date=${day(0)}&limit=500`;
  // Wait for the schedule's first pass (no command asks for it); the test fails by its own time limit if it never comes.
  let body: any;
  for (;;) {
    body = (await getJson(url, headers)).body;
    if (body.totals.total_ads > 0 && body.data.length === 56) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.deepEqual(body.totals, { total_ads: 2, total_spend: 28 * 1234 + 28 * 50, total_impressions: 28 * 1040, total_clicks: 28 * 21, total_reach: 28 * 830 });
  assert.deepEqual([body.data[0].dt, body.data.at(-1).dt], [day(27), day(0)]);
  assert.equal(fake.state.requests.filter((r) => r.method === 'POST').length, 1, 'one report run for the 28 days');
});
