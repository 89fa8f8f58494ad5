/**
 * Visitor cities (docs/collection.md section 2, docs/operations.md "Visitor cities"). Fixture: a
 * test app behind a trusted proxy (X-Forwarded-For believed) with the city header
 * `x-visitor-city` and the country header `x-visitor-country` configured, and small city
 * databases written by test/support/mmdb.ts, installed with `geo update` through the admin route
 * (what the CLI does while a server runs), with made-up names: 81.2.69.0/24 is Testbury, GB in the
 * GeoIP2 record shape (later Testbury Heath), 2a02:8108::/32 `Testdorf (Bezirk Mitte)`, DE in
 * ip-location-db's flat shape.
 * A second app on the same stores trusts no proxy and configures no city header. Sessions'
 * cities are read from the stored sessions (the report's city breakdown reads the same field).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { DESKTOP_UA, eventually, todayRange } from './helpers.ts';
import { writeMmdb, type MmdbNetwork } from '../support/mmdb.ts';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits, type RateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { adminToken } from '../../src/server/runtime-files.ts';
import { runCommand } from '../../src/cli/run-command.ts';
import { landingField } from '../../src/analytics/queries/sessions/session-sql.ts';
import { cityDatabase } from '../../src/collect/geo/city-database.ts';
import { dbIpLiteUrls, DOWNLOAD_LIMITS, installCityDatabase } from '../../src/collect/geo/install.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TYPE = 'Storelens-Test-City';
// Made-up city names, so that nothing here can come from the bundled database.
const TESTBURY: MmdbNetwork = { cidr: '81.2.69.0/24', data: { city: { names: { en: 'Testbury' } }, country: { iso_code: 'GB' }, location: { latitude: 51.5 } } };
const TESTDORF: MmdbNetwork = { cidr: '2a02:8108::/32', data: { city: 'Testdorf (Bezirk Mitte)', country_code: 'DE', state1: 'Testland' } };
const TESTBURY_HEATH: MmdbNetwork = { cidr: '81.2.69.0/24', data: { city: { names: { en: 'Testbury Heath' } }, country: { iso_code: 'GB' } } };

let t: TestApp;
let shop: TestWorkspace;
let plain: { app: FastifyInstance; dataDir: string; limits: RateLimits };
let fixtures: string;
let session = 9_100;

function fixture(name: string, content: Buffer): string {
  const file = path.join(fixtures, name);
  fs.writeFileSync(file, content);
  return file;
}

const v1 = () => writeMmdb({ databaseType: TYPE, networks: [TESTBURY, TESTDORF] });
const v2 = () => writeMmdb({ databaseType: TYPE, networks: [TESTBURY_HEATH, TESTDORF] });

before(async () => {
  t = await startTestApp({
    trustProxy: true,
    cityHeader: 'x-visitor-city',
    countryHeader: 'x-visitor-country',
    collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 },
  });
  shop = await createTestWorkspace(t.stores);
  fixtures = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-geo-'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-geo-plain-'));
  const limits = await createRateLimits(t.config.rate, null);
  const config = { ...t.config, dataDir, trustProxy: false, cityHeader: null, countryHeader: 'cf-ipcountry' };
  plain = { app: await buildApp({ config, stores: t.stores, limits, logger: createLogger('silent'), runCommand }), dataDir, limits };
});

after(async () => {
  await plain.app.close();
  await plain.limits.close();
  fs.rmSync(plain.dataDir, { recursive: true, force: true });
  fs.rmSync(fixtures, { recursive: true, force: true });
  await t.close();
});

/** Runs a CLI command line inside the app, as the CLI does while a server runs; answers its outcome line. */
async function admin(app: FastifyInstance, dataDir: string, ...argv: string[]): Promise<any> {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/cli',
    remoteAddress: '127.0.0.1',
    headers: { authorization: `Bearer ${adminToken(dataDir)}` },
    payload: { argv },
  });
  assert.equal(response.statusCode, 200, response.body);
  return JSON.parse(response.body.trim().split('\n').at(-1)!);
}

const geoUpdate = (...args: string[]) => admin(t.app, t.config.dataDir, 'geo', 'update', ...args);

/** Posts one pageview (and a purchase when asked) in a new session; answers the session id. */
async function visit(headers: Record<string, string>, options: { app?: FastifyInstance; remoteAddress?: string; purchase?: boolean } = {}): Promise<string> {
  const id = String(++session);
  const items = [{ type: 'event', name: 'pageview', url: 'https://shop.example/', ts: Date.now() - 5_000 }];
  if (options.purchase) items.push({ type: 'conversion', name: 'purchase', url: 'https://shop.example/thanks', ts: Date.now() - 4_000, transaction_id: `T-${id}`, revenue: 1000, currency: 'USD' } as never);
  const response = await (options.app ?? t.app).inject({
    method: 'POST',
    url: '/collect',
    remoteAddress: options.remoteAddress ?? '127.0.0.1',
    headers: { 'content-type': 'text/plain', 'user-agent': DESKTOP_UA, ...headers },
    payload: JSON.stringify({ pixel_id: shop.pixelId, visitor_id: id, session_id: id, entry_url: 'https://shop.example/', items }),
  });
  assert.equal(response.statusCode, 202, response.body);
  return id;
}

/** [country, city] of each session, from the stored sessions, once all of them are there. */
async function places(ids: string[]): Promise<Record<string, [string, string]>> {
  const read = async () => Object.fromEntries((await t.stores.ch.query<{ id: string; country: string; city: string }>(
    'test-session-places',
    `SELECT toString(session_id) AS id, ${landingField('country_code')} AS country, ${landingField('city')} AS city
     FROM sessions FINAL WHERE store_id = {s:UInt64} AND session_id IN {ids:Array(UInt64)}`,
    { s: shop.id, ids: ids.map(Number) },
  )).map((r) => [r.id, [r.country, r.city] as [string, string]]));
  return eventually(read, (found) => Object.keys(found).length === ids.length);
}

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const installed = () => path.join(t.config.dataDir, 'geo', 'city.mmdb');

describe('visitor cities', () => {
  test('geo update installs a gzipped city database from a file; the running collector uses it at once', async () => {
    const database = v1();
    const file = fixture('city-v1.mmdb.gz', zlib.gzipSync(database));
    assert.deepEqual(await geoUpdate('--file', file), {
      result: { file: installed(), source: file, database_type: TYPE, built_at: '2026-11-01T00:00:00.000Z', ip_version: 6, bytes: database.length },
    });
    const id = await visit({ 'x-forwarded-for': '81.2.69.142' });
    assert.deepEqual((await places([id]))[id], ['GB', 'Testbury']);
    assert.deepEqual(fs.readdirSync(path.dirname(installed())), ['city.mmdb']);
  });

  test('behind a trusted proxy the X-Forwarded-For address gives the session its city and country', async () => {
    const london = await visit({ 'x-forwarded-for': '81.2.69.142, 10.0.0.1' });
    const berlin = await visit({ 'x-forwarded-for': '2a02:8108::7' });
    const mapped = await visit({ 'x-forwarded-for': '::ffff:81.2.69.20' });
    assert.deepEqual(await places([london, berlin, mapped]), {
      [london]: ['GB', 'Testbury'],
      // The district DB-IP names after the city is left out.
      [berlin]: ['DE', 'Testdorf'],
      [mapped]: ['GB', 'Testbury'],
    });
  });

  test('the configured headers win; a database city that contradicts the header country is not taken', async () => {
    const headerCity = await visit({ 'x-forwarded-for': '81.2.69.142', 'x-visitor-city': 'Manchester' });
    const utf8 = await visit({ 'x-forwarded-for': '81.2.69.142', 'x-visitor-country': 'BR', 'x-visitor-city': Buffer.from('São Paulo').toString('latin1') });
    const encoded = await visit({ 'x-forwarded-for': '81.2.69.142', 'x-visitor-country': 'BR', 'x-visitor-city': 'S%C3%A3o%20Paulo' });
    const contradicted = await visit({ 'x-forwarded-for': '81.2.69.142', 'x-visitor-country': 'DE' });
    const agreed = await visit({ 'x-forwarded-for': '81.2.69.142', 'x-visitor-country': 'gb' });
    assert.deepEqual(await places([headerCity, utf8, encoded, contradicted, agreed]), {
      // No country header: the country still comes from the address.
      [headerCity]: ['GB', 'Manchester'],
      [utf8]: ['BR', 'São Paulo'],
      [encoded]: ['BR', 'São Paulo'],
      [contradicted]: ['DE', ''],
      [agreed]: ['GB', 'Testbury'],
    });
  });

  test('private, reserved, unknown and malformed addresses give no place, and no address is stored anywhere', async () => {
    const ids = [
      await visit({ 'x-forwarded-for': '10.1.2.3' }),
      await visit({ 'x-forwarded-for': '203.0.113.9' }),
      await visit({ 'x-forwarded-for': '192.168.0.1' }),
      await visit({ 'x-forwarded-for': 'fe80::1' }),
      await visit({ 'x-forwarded-for': 'not-an-address' }),
      // Public, but in neither fixture network: the installed database covers every address.
      await visit({ 'x-forwarded-for': '8.8.8.8' }),
    ];
    const sale = await visit({ 'x-forwarded-for': '81.2.69.77' }, { purchase: true });
    assert.deepEqual(Object.values(await places(ids)), ids.map(() => ['', '']));
    const conversions = await eventually(
      () => t.app.inject({ method: 'GET', url: `/v3/conversions?${todayRange()}&transaction_id=T-${sale}`, headers: shop.headers }).then((r) => r.json().data as Array<Record<string, string>>),
      (rows) => rows.length === 1,
    );
    assert.deepEqual(conversions.map((c) => [c.transaction_country_code, c.transaction_city]), [['GB', 'Testbury']]);
    for (const table of ['events', 'conversions', 'sessions']) {
      const rows = await t.stores.ch.query(`test-no-address-${table}`, `SELECT * FROM ${table} WHERE store_id = {s:UInt64}`, { s: shop.id });
      assert.ok(rows.length > 0);
      const text = JSON.stringify(rows);
      for (const address of ['81.2.69', '2a02:8108', '10.1.2.3', '203.0.113', '8.8.8.8']) assert.equal(text.includes(address), false, `${table} holds ${address}`);
    }
  });

  test('without a trusted proxy the connection address counts, X-Forwarded-For is not believed, and an unconfigured city header is ignored', async () => {
    const file = fixture('city-plain.mmdb', v1());
    assert.equal((await admin(plain.app, plain.dataDir, 'geo', 'update', '--file', file)).result.database_type, TYPE);
    const fromSocket = await visit({ 'x-forwarded-for': '2a02:8108::7', 'cf-ipcity': 'Paris', 'x-visitor-city': 'Paris' }, { app: plain.app, remoteAddress: '81.2.69.142' });
    const spoofed = await visit({ 'x-forwarded-for': '81.2.69.142' }, { app: plain.app, remoteAddress: '127.0.0.1' });
    assert.deepEqual(await places([fromSocket, spoofed]), { [fromSocket]: ['GB', 'Testbury'], [spoofed]: ['', ''] });
  });

  test('geo update refuses what is not a city database and keeps the installed one', async () => {
    const kept = sha(installed());
    const text = fixture('notes.txt', Buffer.from('not a database\n'));
    const broken = fixture('broken.mmdb.gz', Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    const country = fixture('country.mmdb', writeMmdb({ databaseType: 'Storelens-Test-Country', networks: [TESTBURY] }));
    assert.deepEqual(await geoUpdate('--file', text), { error: { message: `${text} is not a MaxMind DB (.mmdb) file` } });
    assert.deepEqual(await geoUpdate('--file', country), { error: { message: `${country} is a Storelens-Test-Country database, not a city database` } });
    assert.match((await geoUpdate('--file', broken)).error.message, new RegExp(`^${broken} is gzipped but does not unpack: `));
    assert.deepEqual(await geoUpdate('--file', path.join(fixtures, 'missing.mmdb')), { error: { message: `--file: ${path.join(fixtures, 'missing.mmdb')} does not exist` } });
    assert.deepEqual(await geoUpdate('--file', text, '--url', 'http://127.0.0.1:9/x'), { error: { message: '--file and --url: give one source, not both' } });
    assert.deepEqual(await geoUpdate('--url'), { error: { message: '--url needs a value' } });
    assert.equal(sha(installed()), kept);
    assert.deepEqual(fs.readdirSync(path.dirname(installed())), ['city.mmdb']);
  });

  test('geo update --url downloads a newer database (gzipped, as DB-IP publishes it) and the next request uses it; a missing file is refused', async () => {
    const newer = zlib.gzipSync(v2());
    const server = http.createServer((request, response) => {
      if (request.url === '/free/dbip-city-lite-2026-11.mmdb.gz') response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(newer);
      else response.writeHead(404).end('Not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const missing = `${base}/free/dbip-city-lite-2026-12.mmdb.gz`;
      assert.deepEqual(await geoUpdate('--url', missing), { error: { message: `${missing} answered 404` } });
      const url = `${base}/free/dbip-city-lite-2026-11.mmdb.gz`;
      assert.deepEqual(await geoUpdate('--url', url), {
        result: { file: installed(), source: url, database_type: TYPE, built_at: '2026-11-01T00:00:00.000Z', ip_version: 6, bytes: v2().length },
      });
    } finally {
      server.close();
    }
    const id = await visit({ 'x-forwarded-for': '81.2.69.142' });
    assert.deepEqual((await places([id]))[id], ['GB', 'Testbury Heath']);
  });

  test('geo update --url is bounded: an answer declared past 256 MiB is refused at its headers, a dribble is cut at the deadline, an endless one at the bound; the installed file stays', async () => {
    const dribbling = new Set<NodeJS.Timeout>();
    const server = http.createServer((request, response) => {
      if (request.url === '/huge.mmdb.gz') {
        response.writeHead(200, { 'content-length': String(DOWNLOAD_LIMITS.maxBytes + 1) }).flushHeaders();
      } else if (request.url === '/dribble.mmdb.gz') {
        response.writeHead(200).flushHeaders();
        const timer = setInterval(() => response.write('x'), 20);
        dribbling.add(timer);
        response.on('close', () => clearInterval(timer));
      } else {
        response.writeHead(200);
        const more = () => { while (response.write(Buffer.alloc(16_384))); };
        response.on('drain', more);
        more();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const kept = sha(installed());
    try {
      assert.deepEqual(await geoUpdate('--url', `${base}/huge.mmdb.gz`), { error: { message: `${base}/huge.mmdb.gz: answer larger than ${DOWNLOAD_LIMITS.maxBytes} bytes` } });
      const small = { deadlineMs: 300, maxBytes: 65_536 };
      await assert.rejects(installCityDatabase(t.config.dataDir, { urls: [`${base}/dribble.mmdb.gz`] }, undefined, small), { message: `${base}/dribble.mmdb.gz: no complete answer within 300 ms` });
      await assert.rejects(installCityDatabase(t.config.dataDir, { urls: [`${base}/endless.mmdb.gz`] }, undefined, { ...small, deadlineMs: 60_000 }), { message: `${base}/endless.mmdb.gz: answer larger than 65536 bytes` });
    } finally {
      for (const timer of dribbling) clearInterval(timer);
      server.closeAllConnections();
      server.close();
    }
    assert.equal(sha(installed()), kept);
    assert.deepEqual(fs.readdirSync(path.dirname(installed())), ['city.mmdb']);
  });

  test('geo update runs from the command line on a data dir without a server', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-geo-cli-'));
    try {
      const file = fixture('city-cli.mmdb', v1());
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'geo', 'update', '--file', file], {
        cwd: ROOT,
        env: { ...process.env, STORELENS_DATA_DIR: dataDir, LOG_LEVEL: 'error' },
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stderr);
      const target = path.join(dataDir, 'geo', 'city.mmdb');
      assert.deepEqual(JSON.parse(run.stdout), { file: target, source: file, database_type: TYPE, built_at: '2026-11-01T00:00:00.000Z', ip_version: 6, bytes: v1().length });
      assert.equal(sha(target), sha(file));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('the bundled database places a public address in its country, with a city', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-geo-bundled-'));
    try {
      const place = await cityDatabase(dataDir, createLogger('silent')).lookup('8.8.8.8');
      assert.equal(place?.country, 'US');
      assert.match(place?.city ?? '', /^[^()]+$/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('the default source is DB-IP\'s city database of this month, then of the month before', () => {
    assert.deepEqual(dbIpLiteUrls(new Date('2026-01-03T10:00:00Z')), [
      'https://download.db-ip.com/free/dbip-city-lite-2026-01.mmdb.gz',
      'https://download.db-ip.com/free/dbip-city-lite-2025-12.mmdb.gz',
    ]);
  });
});
