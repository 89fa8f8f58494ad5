/**
 * `npm start` on a fresh data dir with the demo on (one day, STORELENS_DEMO_DAYS=1): it seeds a
 * "Demo Store", prints working credentials, a dashboard sign-in, a curl line and the pixel snippet, and then serves.
 * Its four demo workflows were each run once by the engine while seeding.
 * A second server on the same port fails with a clear message; SIGTERM shuts down cleanly, and a
 * restart on the same data dir seeds nothing.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { getJson, runCli, startServer, tempDataDir } from './run-cli.ts';

const dataDir = tempDataDir();
const otherDir = tempDataDir();
after(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(otherDir, { recursive: true, force: true });
});

test('a new data dir gets a seeded Demo Store whose printed credentials work; restarts seed nothing', async () => {
  const server = await startServer(dataDir, { STORELENS_DEMO: '1', STORELENS_DEMO_DAYS: '1' });
  try {
    const out = server.stdout();
    const apiKey = /api key: +(\S+)/.exec(out)?.[1];
    const secret = /client secret: +(\S+)/.exec(out)?.[1];
    const pixelId = /pixel id: +(\S+)/.exec(out)?.[1];
    assert.ok(apiKey && secret && pixelId, out);
    assert.match(out, /Demo workspace 1 \("Demo Store"\) is ready\./);
    assert.ok(
      out.includes(`curl -s '${server.baseUrl}/v3/conversions?group_by=adv_source' -H 'x-api-key: ${apiKey}' -H 'client-secret: ${secret}'`),
      out,
    );
    assert.ok(out.includes(`<script async src="${server.baseUrl}/pixel.js" data-pixel-id="${pixelId}"></script>`), out);
    assert.match(server.stderr(), /demo: 1\/1 days generated/);
    const [, email, password] = /Dashboard: \S+ +\(email (\S+), password (\S+)\)/.exec(out) ?? [];
    const signIn = await fetch(`${server.baseUrl}/dashboard/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    assert.equal(signIn.status, 200, 'the printed demo sign-in works');
    assert.deepEqual((await signIn.json()).workspaces.map((w: { id: number; role: string }) => [w.id, w.role]), [[1, 'owner']]);

    const today = new Date().toISOString().slice(0, 10);
    const headers = { 'x-api-key': apiKey, 'client-secret': secret };
    const events = await getJson(`${server.baseUrl}/v3/events?start_date=${today}&end_date=${today}&limit=5`, headers);
    assert.equal(events.status, 200);
    assert.deepEqual(Object.keys(events.body), ['data', 'pagination']);
    const ads = await getJson(`${server.baseUrl}/v3/ads?start_date=${today}&end_date=${today}&limit=500`, headers);
    assert.equal(ads.status, 200);
    assert.ok(ads.body.data.length > 0);

    const call = async (name: string, args: object) => {
      const response = await fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}:${secret}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
      return ((await response.json()) as { result: { structuredContent: any } }).result.structuredContent;
    };
    const { workflows } = await call('workflows.get-rules', {});
    const { executions } = await call('workflows.get-executions', {});
    const names = new Map<string, string>(workflows.map((w: any) => [w.id, w.name]));
    assert.deepEqual(workflows.map((w: any) => [w.name, w.enabled]), [
      ['Morning note', true], ['Spend above 500 yesterday', true], ['Meta ROAS below 2 yesterday', true], ['New sales to the list', true], ['Tired creatives', true],
    ]);
    assert.deepEqual(executions.map((e: any) => names.get(e.workflow_id)), ['Morning note', 'Spend above 500 yesterday', 'Meta ROAS below 2 yesterday', 'New sales to the list', 'Tired creatives']);
    const metaRoas = executions[2].outcome.values;
    assert.deepEqual([metaRoas.metric, metaRoas.source, metaRoas.period, metaRoas.operator, metaRoas.threshold], ['roas', 'meta', 'yesterday', 'below', 2]);
    assert.equal(executions[0].status, 'fired');
    assert.deepEqual(executions.filter((e: any) => !['fired', 'not_fired'].includes(e.status)), [], 'no demo workflow failed');
    assert.match(server.stderr(), /demo: 5 workflows enabled and run by the engine/);
    // The other families answer too: a saved report with its view, evaluated segments, a running geo test, the traffic's creators, a loyalty program with members, a live form with its leads
    // (test/mcp/demo-store-tools.test.ts calls every read tool on the demo store).
    const { dashboards } = await call('dashboards.get-dashboards', {});
    assert.deepEqual(dashboards.map((d: any) => d.name), ['Revenue and ROAS by source']);
    const { segments } = await call('segments.get-segments', {});
    assert.deepEqual(segments.map((s: any) => [s.name, typeof s.member_count]), [['Repeat buyers', 'number'], ['Found us through meta', 'number']]);
    const { tests } = await call('geo-testing.get-tests', {});
    assert.deepEqual(tests.map((g: any) => [g.treatment, g.control, g.status, g.results.method]), [[['DE', 'NL'], ['GB', 'CA'], 'running', 'difference_in_differences']]);
    const { creators, revenue_basis } = await call('creators.get-creators', { date_from: today, date_to: today });
    // The four creators of the traffic, stored by the demo's assistant (a 4-digit tracking code each), linked by the owner to
    // the code their links and coupons carry, in the program the owner applied: 10 % of their revenue.
    assert.deepEqual(creators.filter((c: any) => c.creator === null), []);
    assert.deepEqual(creators.map((c: any) => [c.creator.name, /^\d{4}$/.test(c.code), c.codes[1]]).sort(), [
      ['Jonas', true, 'JONAS'], ['Lena', true, 'LENA'], ['Maya', true, 'MAYA'], ['Theo', true, 'THEO'],
    ]);
    for (const c of creators) assert.equal(c.commission, Math.round((Math.round(c.revenue * 100) * 10) / 100) / 100, c.creator.name);
    assert.equal(typeof revenue_basis.report_revenue, 'number');
    const { programs } = await call('loyalty.get-programs', {});
    assert.deepEqual(programs.map((p: any) => [p.name, p.points_per_unit]), [['Demo points', 1]]);
    assert.ok(programs[0].members > 0 && programs[0].points_earned > 0, JSON.stringify(programs[0]));
    const { forms } = await call('forms.get-forms', {});
    assert.deepEqual(forms.map((f: any) => [f.name, f.status, f.submissions]), [['Newsletter signup', 'live', 3]]);

    const port = new URL(server.baseUrl).port;
    const clash = await runCli(otherDir, ['start'], { PORT: port, HOST: '127.0.0.1', STORELENS_DEMO: '0' });
    assert.deepEqual([clash.code, clash.error], [1, { error: { message: `Port ${port} is already in use; stop the other process or set PORT` } }]);
  } finally {
    assert.equal(await server.stop(), 0);
  }
  assert.equal(fs.existsSync(path.join(dataDir, 'server.json')), false);
  assert.equal(fs.existsSync(path.join(dataDir, 'demo-seeding')), false, 'the seeding marker is gone once the demo is complete');

  const again = await startServer(dataDir, { STORELENS_DEMO: '1', STORELENS_DEMO_DAYS: '1' });
  try {
    assert.equal(again.stdout(), '');
    assert.doesNotMatch(again.stderr(), /seeding/);
  } finally {
    assert.equal(await again.stop(), 0);
  }
});
