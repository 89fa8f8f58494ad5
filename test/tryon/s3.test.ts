/**
 * Fixture: an app configured with STORELENS_TRYON_STORAGE=s3 semantics (bucket "media",
 * path-style endpoint) pointing at a minimal S3 stand-in started by this file: it keeps objects
 * in memory, answers 412 to If-None-Match: * on an existing key and 400 BadDigest when the body
 * does not match x-amz-checksum-sha256 (it does not check signatures: the presigned URL's signed
 * headers are asserted instead). Workspace "Shop" with the storefront and catalog of fixtures.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { loadConfig } from '../../src/config.ts';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { ORIGIN, call, jobBody, personJpeg, setUpShop, uploadBody, type Client } from './fixtures.ts';

let t: TestApp;
let shop: TestWorkspace;
let s3: http.Server;
let endpoint: string;
const objects = new Map<string, Buffer>();

before(async () => {
  s3 = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const key = decodeURIComponent(new URL(req.url!, 'http://s3').pathname);
      const body = Buffer.concat(chunks);
      if (req.method === 'PUT') {
        if (req.headers['if-none-match'] === '*' && objects.has(key)) return res.writeHead(412).end('<Error><Code>PreconditionFailed</Code></Error>');
        const checksum = req.headers['x-amz-checksum-sha256'];
        if (checksum && checksum !== crypto.createHash('sha256').update(body).digest('base64')) return res.writeHead(400).end('<Error><Code>BadDigest</Code></Error>');
        objects.set(key, body);
        return res.writeHead(200, { etag: '"x"' }).end();
      }
      if (req.method === 'GET') {
        const found = objects.get(key);
        if (!found) return res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code><Message>none</Message></Error>');
        return res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': found.length }).end(found);
      }
      if (req.method === 'DELETE') {
        objects.delete(key);
        return res.writeHead(204).end();
      }
      res.writeHead(405).end();
    });
  });
  await new Promise<void>((resolve) => s3.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(s3.address() as AddressInfo).port}`;
  const tryon = loadConfig({
    STORELENS_TRYON_STORAGE: 's3', STORELENS_TRYON_S3_BUCKET: 'media', STORELENS_TRYON_S3_ENDPOINT: endpoint,
    STORELENS_TRYON_S3_FORCE_PATH_STYLE: '1', STORELENS_TRYON_S3_ACCESS_KEY_ID: 'test', STORELENS_TRYON_S3_SECRET_ACCESS_KEY: 'test-secret',
    STORELENS_TRYON_WORKER_INTERVAL_MS: '0', STORELENS_TRYON_SWEEP_INTERVAL_MS: '0',
  }).tryon;
  t = await startTestApp({ tryon });
  shop = await createTestWorkspace(t.stores, 'Shop');
  await setUpShop(t, shop.id);
});

after(async () => {
  s3.close();
  await t.close();
});

test('with S3 storage the photo goes to a presigned PUT that signs type, length, checksum and If-None-Match; jobs read it back', async () => {
  assert.equal(t.app.tryon.context.storage.kind, 's3');
  const photo = await personJpeg(200, 300);
  const c: Client = { workspaceId: shop.id, origin: ORIGIN, token: null };
  const reservation = await call(t, c, 'POST', '/try-on/v1/uploads', uploadBody(photo));
  assert.equal(reservation.status, 200);
  c.token = reservation.body.session_token;
  const url = new URL(reservation.body.upload_url);
  assert.equal(url.pathname, `/media/${reservation.body.upload_key}/photo`);
  assert.equal(url.searchParams.get('X-Amz-Expires'), '120');
  assert.deepEqual(url.searchParams.get('X-Amz-SignedHeaders')!.split(';'), ['content-length', 'content-type', 'host', 'if-none-match', 'x-amz-checksum-sha256']);
  assert.equal([...url.searchParams.keys()].some((k) => /crc32/i.test(k)), false);
  assert.deepEqual(reservation.body.upload_headers, { 'content-type': 'image/jpeg', 'x-amz-checksum-sha256': uploadBody(photo).checksum_sha256, 'if-none-match': '*' });

  const put = (body: Buffer) => fetch(url, { method: 'PUT', headers: reservation.body.upload_headers, body: new Uint8Array(body) });
  assert.equal((await put(photo)).status, 200);
  assert.equal((await put(photo)).status, 412);

  const accepted = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation.body));
  assert.equal(accepted.status, 202);
  const stored = objects.get(`/media/${reservation.body.upload_key}/photo`)!;
  assert.equal((await sharp(stored).metadata()).exif, undefined, 'the object was replaced by its sanitized copy');
  assert.equal(await t.app.tryon.worker.drain(), 1);
  const done = await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.body.job_id}`);
  const resultUrl = new URL(done.body.result_url);
  assert.equal(resultUrl.searchParams.get('X-Amz-Expires'), '60');
  assert.equal(resultUrl.pathname, `/media/${reservation.body.job_id}/result`);
  assert.equal((await fetch(resultUrl)).status, 200);

  await call(t, c, 'DELETE', `/try-on/v1/jobs/${reservation.body.job_id}`);
  assert.deepEqual([...objects.keys()], []);
});

test('with S3 storage a non-image in the bucket is refused at job time and deleted', async () => {
  const junk = Buffer.from('definitely not a jpeg, only text');
  const c: Client = { workspaceId: shop.id, origin: ORIGIN, token: null };
  const reservation = await call(t, c, 'POST', '/try-on/v1/uploads', uploadBody(junk));
  c.token = reservation.body.session_token;
  assert.equal((await fetch(reservation.body.upload_url, { method: 'PUT', headers: reservation.body.upload_headers, body: junk })).status, 200);
  const refused = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation.body));
  assert.deepEqual([refused.status, refused.body], [422, { error: { code: 'upload_invalid', message: 'The file is not a JPEG or PNG image' } }]);
  assert.equal(objects.has(`/media/${reservation.body.upload_key}/photo`), false);
});

test('with S3 storage the demo storefront may call and show the bucket, and nothing else', async () => {
  const page = await t.app.inject({ method: 'GET', url: '/demo/storefront' });
  const policy = String(page.headers['content-security-policy']);
  assert.match(policy, new RegExp(`; img-src 'self' ${endpoint}; connect-src 'self' ${endpoint}$`));
  assert.match(policy, /; script-src 'self'; style-src 'self';/);
});
