/**
 * Fixture: workspace "Shop" with the storefront and catalog of fixtures.ts (plus broken/x, whose
 * reference file is not an image, so its jobs fail), workspace "Tight" whose storefront allows
 * one attempt per session and two a day and runs experiment "exp1" with 2 variants, and
 * workspace "Bare" with no storefront. Every refusal is checked for its exact code, status and
 * message, and that nothing was stored.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { hashSecret } from '../../src/store/app/secrets.ts';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { createLogger } from '../../src/log.ts';
import { openClickhouse } from '../../src/store/clickhouse.ts';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { ORIGIN, call, jobBody, personJpeg, putUpload, setUpShop, sha256, uploadBody, uploadPhoto, versionDaysAgo, manualTryOn, nextAddress, type Client } from './fixtures.ts';

let t: TestApp;
let shop: TestWorkspace;
let tight: TestWorkspace;
let bare: TestWorkspace;
let photo: Buffer;

before(async () => {
  t = await startTestApp({ tryon: manualTryOn() });
  shop = await createTestWorkspace(t.stores, 'Shop');
  tight = await createTestWorkspace(t.stores, 'Tight');
  bare = await createTestWorkspace(t.stores, 'Bare');
  await setUpShop(t, shop.id);
  await setUpShop(t, tight.id, { sessionAttempts: 1, dailyAttempts: 2, experiment: { id: 'exp1', variants: 2 } });
  const broken = path.join(t.config.dataDir, 'fixtures', 'broken.png');
  fs.writeFileSync(broken, 'this is not an image');
  await insertRows(t.stores, 'products', [
    { store_id: shop.id, product_handle: 'broken', variant_id: 'x', title: 'Broken', image_path_or_url: broken, cost: 0, version: versionDaysAgo(1) },
  ]);
  photo = await personJpeg(200, 300);
});

after(() => t.close());

/** Each client is another shopper, with an address of its own. */
const client = (changes: Partial<Client> = {}): Client => ({ workspaceId: shop.id, origin: ORIGIN, token: null, address: nextAddress(), ...changes });
const err = (code: string, message: string) => ({ error: { code, message } });
/** The same string with its last character replaced by a different one. */
const alter = (value: string) => `${value.slice(0, -1)}${value.endsWith('x') ? 'y' : 'x'}`;
const objectExists = (uploadKey: string) => fs.existsSync(path.join(t.config.dataDir, 'tryon', 'objects', uploadKey, 'photo'));
const uploadStatus = async (uploadKey: string) =>
  (await t.stores.db.selectFrom('tryon_uploads').select('status').where('upload_key', '=', uploadKey).executeTakeFirstOrThrow()).status;

describe('origin and session checks', () => {
  test('a wrong or missing Origin, or a workspace without storefront, gets 403 origin_not_allowed', async () => {
    const expected = err('origin_not_allowed', 'This origin is not a verified storefront of the workspace');
    for (const c of [client({ origin: 'https://evil.example' }), client({ origin: 'http://shop.example' }), client({ workspaceId: bare.id })]) {
      const response = await call(t, c, 'POST', '/try-on/v1/uploads', uploadBody(photo));
      assert.deepEqual([response.status, response.body], [403, expected]);
    }
    const noOrigin = await t.app.inject({ method: 'POST', url: '/try-on/v1/uploads', payload: { workspace_id: shop.id, ...uploadBody(photo) } });
    assert.deepEqual([noOrigin.statusCode, noOrigin.json()], [403, expected]);
    // Without Origin only a same-origin browser request passes, as the service's own origin (not verified here).
    for (const site of ['cross-site', 'same-site', 'none', 'same-origin']) {
      const poll = await t.app.inject({ method: 'GET', url: `/try-on/v1/jobs/job_x?workspace_id=${shop.id}`, headers: { 'sec-fetch-site': site } });
      assert.deepEqual([poll.statusCode, poll.json()], [403, expected], site);
    }
    assert.equal(await t.stores.db.selectFrom('tryon_sessions').select('id').where('workspace_id', '=', bare.id).executeTakeFirst(), undefined);
  });

  test('a request without workspace_id gets 400 invalid_request', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/try-on/v1/uploads', headers: { origin: ORIGIN }, payload: uploadBody(photo) });
    assert.deepEqual([response.statusCode, response.json()], [400, err('invalid_request', 'workspace_id is required')]);
  });

  test('a body that is not JSON gets 400 invalid_request', async () => {
    const response = await t.app.inject({
      method: 'POST', url: '/try-on/v1/jobs', headers: { origin: ORIGIN, 'content-type': 'application/json' }, payload: '{"workspace_id":',
    });
    assert.deepEqual([response.statusCode, response.json()], [400, err('invalid_request', 'The request is not valid JSON of the expected shape')]);
  });

  test('missing, forged and foreign session tokens get 401 session_invalid; an expired one 410 session_expired', async () => {
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    const missing = await call(t, client(), 'POST', '/try-on/v1/jobs', jobBody(reservation));
    assert.deepEqual([missing.status, missing.body], [401, err('session_invalid', 'X-Try-On-Session header is required')]);
    const forged = await call(t, client({ token: alter(c.token!) }), 'POST', '/try-on/v1/jobs', jobBody(reservation));
    assert.deepEqual([forged.status, forged.body], [401, err('session_invalid', 'The try-on session token is not valid')]);
    const other = client({ workspaceId: tight.id });
    await uploadPhoto(t, other, photo);
    const foreign = await call(t, client({ token: other.token }), 'GET', `/try-on/v1/jobs/${reservation.job_id}`);
    assert.deepEqual([foreign.status, foreign.body], [401, err('session_invalid', 'The try-on session token is not valid')]);

    await t.stores.db.updateTable('tryon_sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', (await t.stores.db.selectFrom('tryon_uploads').select('session_id').where('upload_key', '=', reservation.upload_key).executeTakeFirstOrThrow()).session_id)
      .execute();
    const expired = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
    assert.deepEqual([expired.status, expired.body], [410, err('session_expired', 'The try-on session has expired')]);
    assert.equal(await t.stores.db.selectFrom('tryon_jobs').select('id').where('job_id', '=', reservation.job_id).executeTakeFirst(), undefined);
  });

  test('a job of another session is not found', async () => {
    const a = client();
    const reservation = await uploadPhoto(t, a, photo);
    await call(t, a, 'POST', '/try-on/v1/jobs', jobBody(reservation));
    const b = client();
    await uploadPhoto(t, b, photo);
    const response = await call(t, b, 'GET', `/try-on/v1/jobs/${reservation.job_id}`);
    assert.deepEqual([response.status, response.body], [404, err('job_not_found', 'No try-on job with this id in this session')]);
    const deleted = await call(t, b, 'DELETE', `/try-on/v1/jobs/${reservation.job_id}`);
    assert.equal(deleted.status, 404);
    assert.equal(objectExists(reservation.upload_key), true);
  });
});

describe('upload reservation', () => {
  const cases: [string, Record<string, unknown>, number, ReturnType<typeof err>][] = [
    ['consent false', { consent: false }, 400, err('invalid_consent', 'consent must be true')],
    ['adult missing', { adult: undefined }, 400, err('invalid_consent', 'adult must be true')],
    ['an old consent version', { consent_version: 'c1' }, 400, err('invalid_consent', 'consent_version is not the current consent version')],
    ['more than 7 MB', { bytes: 7 * 1024 * 1024 + 1 }, 422, err('upload_invalid', 'bytes must be an integer from 1 to 7340032 (7 MB)')],
    ['a GIF', { mime_type: 'image/gif' }, 422, err('upload_invalid', 'mime_type must be image/jpeg or image/png')],
    ['a checksum that is not base64 SHA-256', { checksum_sha256: 'abc' }, 422, err('upload_invalid', 'checksum_sha256 must be the base64 SHA-256 of the file')],
    ['consent as a string', { consent: 'yes' }, 400, err('invalid_request', 'consent: Invalid input: expected boolean, received string')],
  ];
  for (const [name, change, status, body] of cases) {
    test(`refuses ${name} with ${body.error.code} and creates no session`, async () => {
      const sessions = await t.stores.db.selectFrom('tryon_sessions').select('id').execute();
      const response = await call(t, client(), 'POST', '/try-on/v1/uploads', uploadBody(photo, change));
      assert.deepEqual([response.status, response.body], [status, body]);
      assert.equal((await t.stores.db.selectFrom('tryon_sessions').select('id').execute()).length, sessions.length);
    });
  }
});

describe('signed upload URL', () => {
  async function reserve(body: Buffer, changes: Record<string, unknown> = {}) {
    const response = await call(t, client(), 'POST', '/try-on/v1/uploads', uploadBody(body, changes));
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body as { upload_key: string; upload_url: string; upload_headers: Record<string, string> };
  }

  test('an expired URL gets 403 url_expired', async () => {
    const r = await reserve(photo);
    const past = await t.app.tryon.context.storage.uploadUrl(
      { key: `${r.upload_key}/photo`, bytes: photo.length, mimeType: 'image/jpeg', checksumSha256: sha256(photo), expiresAt: new Date(Date.now() - 1000) },
      'http://localhost',
    );
    const response = await putUpload(t, past, photo, r.upload_headers);
    assert.deepEqual([response.status, response.body], [403, err('url_expired', 'The signed URL has expired')]);
    assert.equal(objectExists(r.upload_key), false);
  });

  test('a tampered signature or expiry gets 403 signature_invalid', async () => {
    const r = await reserve(photo);
    const url = new URL(r.upload_url);
    const tamperedSig = new URL(url);
    tamperedSig.searchParams.set('sig', alter(url.searchParams.get('sig')!));
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    for (const bad of [tamperedSig, later]) {
      const response = await putUpload(t, bad.href, photo, r.upload_headers);
      assert.deepEqual([response.status, response.body], [403, err('signature_invalid', 'The URL signature is not valid')]);
    }
    assert.equal(await uploadStatus(r.upload_key), 'reserved');
  });

  test('a wrong checksum header, a body that does not match it, a wrong length or type get 422 upload_invalid', async () => {
    const r = await reserve(photo);
    const other = Buffer.from(photo);
    other[other.length - 3] ^= 0xff;
    const attempts: [Buffer, Record<string, string>, string][] = [
      [photo, { 'x-storage-checksum-sha256': sha256(other) }, 'x-storage-checksum-sha256 does not match the reserved checksum'],
      [other, {}, 'The body does not match its SHA-256 checksum'],
      [photo.subarray(0, photo.length - 1), {}, 'Content-Length does not match the reserved size'],
      [photo, { 'content-type': 'image/png' }, 'Content-Type does not match the reserved mime_type'],
    ];
    for (const [body, headers, message] of attempts) {
      const response = await putUpload(t, r.upload_url, body, { ...r.upload_headers, ...headers });
      assert.deepEqual([response.status, response.body], [422, err('upload_invalid', message)]);
    }
    assert.equal(objectExists(r.upload_key), false);
    assert.equal(await uploadStatus(r.upload_key), 'reserved');
  });

  test('a PNG declared as JPEG, a non-image and a 10,000 x 10,000 image are refused and not stored', async () => {
    const png = await sharp(photo).png().toBuffer();
    const text = Buffer.from('GIF89a? no, just text pretending to be a photo');
    const huge = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer();
    const cases: [Buffer, string, string][] = [
      [png, 'image/jpeg', 'The file is image/png, not image/jpeg as declared'],
      [text, 'image/jpeg', 'The file is not a JPEG or PNG image'],
      [huge, 'image/png', 'The image has more than 40 megapixels'],
    ];
    for (const [body, mime, message] of cases) {
      const r = await reserve(body, { mime_type: mime });
      const response = await putUpload(t, r.upload_url, body, r.upload_headers);
      assert.deepEqual([response.status, response.body], [422, err('upload_invalid', message)]);
      assert.equal(objectExists(r.upload_key), false);
      assert.equal(await uploadStatus(r.upload_key), 'reserved');
    }
  });

  test('a second write to the same key gets 412 upload_exists; a PUT without If-None-Match gets 400', async () => {
    const r = await reserve(photo);
    const noPrecondition = await putUpload(t, r.upload_url, photo, { ...r.upload_headers, 'if-none-match': '' });
    assert.deepEqual([noPrecondition.status, noPrecondition.body], [400, err('invalid_request', 'If-None-Match: * is required')]);
    assert.equal((await putUpload(t, r.upload_url, photo, r.upload_headers)).status, 200);
    const stored = fs.readFileSync(path.join(t.config.dataDir, 'tryon', 'objects', r.upload_key, 'photo'));
    const second = await putUpload(t, r.upload_url, photo, r.upload_headers);
    assert.deepEqual([second.status, second.body], [412, err('upload_exists', 'An object already exists under this key')]);
    assert.deepEqual(fs.readFileSync(path.join(t.config.dataDir, 'tryon', 'objects', r.upload_key, 'photo')), stored);
  });
});

describe('signed media URL', () => {
  test('an expired or tampered result_url is refused', async () => {
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
    await t.app.tryon.worker.drain();
    const done = await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.job_id}`);
    const expired = new URL(await t.app.tryon.context.storage.downloadUrl(`${reservation.job_id}/result`, new Date(Date.now() - 1000), 'http://localhost'));
    const tampered = new URL(done.body.result_url);
    tampered.pathname = tampered.pathname.replace(reservation.job_id, alter(reservation.job_id));
    const get = (url: URL) => t.app.inject({ method: 'GET', url: url.pathname + url.search });
    assert.deepEqual([(await get(expired)).statusCode, (await get(expired)).json()], [403, err('url_expired', 'The signed URL has expired')]);
    assert.deepEqual([(await get(tampered)).statusCode, (await get(tampered)).json()], [403, err('signature_invalid', 'The URL signature is not valid')]);
  });
});

describe('job request', () => {
  test('products outside the catalog, without an image or of another workspace get 404 product_unavailable', async () => {
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    const cases: [Record<string, unknown>, string][] = [
      [{ product_handle: 'socks', variant_id: 'x' }, 'This product is not available for try-on'],
      [{ product_handle: 'tee', variant_id: 'green-s' }, 'This product is not available for try-on'],
      [{ product_handle: 'ghost', variant_id: 'x' }, 'This product has no reference image'],
    ];
    for (const [change, message] of cases) {
      const response = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation, change));
      assert.deepEqual([response.status, response.body], [404, err('product_unavailable', message)]);
    }
    await insertRows(t.stores, 'products', [
      { store_id: bare.id, product_handle: 'only-bare', variant_id: 'x', title: 'B', image_path_or_url: '/etc/hostname', cost: 0, version: versionDaysAgo(0) },
    ]);
    const foreign = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation, { product_handle: 'only-bare', variant_id: 'x' }));
    assert.deepEqual([foreign.status, foreign.body], [404, err('product_unavailable', 'This product is not available for try-on')]);
    assert.equal((await t.stores.db.selectFrom('tryon_jobs').select('id').where('upload_id', 'in', t.stores.db.selectFrom('tryon_uploads').select('id').where('upload_key', '=', reservation.upload_key)).execute()).length, 0);
  });

  test('a product whose catalog row is older than the coverage limit gets 409 coverage_stale', async () => {
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    const response = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation, { product_handle: 'hat', variant_id: 'one' }));
    assert.equal(response.status, 409);
    assert.equal(response.body.error.code, 'coverage_stale');
    assert.match(response.body.error.message, /^The catalog entry of this product was last refreshed at \d{4}-\d\d-\d\dT[\d:.]+Z; import products again$/);
  });

  test('a job before the photo was uploaded, or with a job_id of another upload, is refused', async () => {
    const c = client();
    const reserved = await call(t, c, 'POST', '/try-on/v1/uploads', uploadBody(photo));
    c.token = reserved.body.session_token;
    const early = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reserved.body));
    assert.deepEqual([early.status, early.body], [422, err('upload_invalid', 'The photo has not been uploaded')]);
    const second = await uploadPhoto(t, c, photo);
    const mixed = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(second, { job_id: reserved.body.job_id }));
    assert.deepEqual([mixed.status, mixed.body], [400, err('invalid_request', 'job_id does not belong to upload_key')]);
    const unknown = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(second, { upload_key: 'nope' }));
    assert.deepEqual([unknown.status, unknown.body], [422, err('upload_invalid', 'upload_key does not name an upload of this session')]);
    const noConsent = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(second, { consent_version: 'c1' }));
    assert.deepEqual([noConsent.status, noConsent.body], [400, err('invalid_consent', 'consent_version is not the current consent version')]);
  });

  test('with an experiment configured, experiment_id and variant_index are required', async () => {
    const c = client({ workspaceId: tight.id });
    const reservation = await uploadPhoto(t, c, photo);
    const missing = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
    assert.deepEqual([missing.status, missing.body], [400, err('invalid_request', "experiment_id must name the storefront's current experiment")]);
    const outOfRange = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation, { experiment_id: 'exp1', variant_index: 2 }));
    assert.deepEqual([outOfRange.status, outOfRange.body], [400, err('invalid_request', 'variant_index must be an integer from 0 to 1')]);
    const ok = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation, { experiment_id: 'exp1', variant_index: 1 }));
    assert.equal(ok.status, 202);
  });

  test('per-session and per-day attempt limits give 429 quota_exceeded', async () => {
    // Tight: 1 attempt per session, 2 per day; the experiment test above used one of the day's.
    const c = client({ workspaceId: tight.id });
    const reservation = await uploadPhoto(t, c, photo);
    const exp = { experiment_id: 'exp1', variant_index: 0 };
    assert.equal((await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation, exp))).status, 202);
    const session = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation, { ...exp, variant_id: 'blue-l' }));
    assert.deepEqual([session.status, session.body], [429, err('quota_exceeded', 'This try-on session has used its 1 attempts')]);
    const d = client({ workspaceId: tight.id });
    const next = await uploadPhoto(t, d, photo);
    const daily = await call(t, d, 'POST', '/try-on/v1/jobs', jobBody(next, exp));
    assert.deepEqual([daily.status, daily.body], [429, err('quota_exceeded', 'The storefront has reached its daily try-on limit')]);
    const sessionRow = await t.stores.db.selectFrom('tryon_sessions').select('attempts').where('token_hash', '=', hashSecret(d.token!)).executeTakeFirstOrThrow();
    assert.equal(sessionRow.attempts, 0);
  });
});

describe('failed jobs', () => {
  test('a generation failure shows a safe reason, releases the credit, and refuses leads with 409', async () => {
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation, { product_handle: 'broken', variant_id: 'x' }));
    const lead = { email: 'ana@example.com', marketing_consent: true, marketing_version: 'm1' };
    const pending = await call(t, c, 'POST', `/try-on/v1/jobs/${reservation.job_id}/leads`, lead);
    assert.deepEqual([pending.status, pending.body], [409, err('lead_not_allowed', 'Only a completed try-on accepts a contact request')]);
    await t.app.tryon.worker.drain();
    const polled = await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.job_id}`);
    assert.deepEqual(polled.body, { status: 'failed', reason: 'generation_failed' });
    const job = await t.stores.db.selectFrom('tryon_jobs').select(['credit']).where('job_id', '=', reservation.job_id).executeTakeFirstOrThrow();
    assert.equal(job.credit, 'released');
    const failed = await call(t, c, 'POST', `/try-on/v1/jobs/${reservation.job_id}/leads`, lead);
    assert.deepEqual([failed.status, failed.body], [409, err('lead_not_allowed', 'Only a completed try-on accepts a contact request')]);
    const badConsent = await call(t, c, 'POST', `/try-on/v1/jobs/${reservation.job_id}/leads`, { ...lead, marketing_version: 'm0' });
    assert.deepEqual([badConsent.status, badConsent.body], [400, err('invalid_consent', 'marketing_version is not the current marketing version')]);
    const badEmail = await call(t, c, 'POST', `/try-on/v1/jobs/${reservation.job_id}/leads`, { ...lead, email: 'not-an-address' });
    assert.deepEqual([badEmail.status, badEmail.body], [400, err('invalid_request', 'email: email must be a valid e-mail address')]);
    assert.equal((await t.stores.db.selectFrom('tryon_leads').select('id').where('job_id', '=', reservation.job_id).execute()).length, 0);
  });
});

describe('analytics store unavailable', () => {
  test('a job whose catalog read runs over the time limit gets 503 service_unavailable and stores nothing', async () => {
    // A second engine session on the same data dir whose time limit (1 µs) no query can meet.
    const slow = await openClickhouse(
      { url: t.config.clickhouseUrl, dataDir: path.join(t.config.dataDir, 'chdb'), chdbSessions: 1, timeoutMs: 0.001 },
      createLogger('silent'),
    );
    const limits = await createRateLimits(t.config.rate, null);
    const app = await buildApp({ config: t.config, stores: { ...t.stores, ch: slow }, limits, logger: createLogger('silent') });
    try {
      const c = client();
      const reservation = await uploadPhoto({ ...t, app }, c, photo);
      const refused = await call({ ...t, app }, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
      assert.deepEqual([refused.status, refused.body], [503, err('service_unavailable', 'Query timed out')]);
      assert.equal((await t.stores.db.selectFrom('tryon_jobs').select('job_id').where('job_id', '=', reservation.job_id).execute()).length, 0);
      const retried = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
      assert.equal(retried.status, 202, JSON.stringify(retried.body));
    } finally {
      await app.close();
      await limits.close();
      await slow.close();
    }
  });
});
