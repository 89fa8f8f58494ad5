/**
 * Fixture: workspace "Shop" with a storefront at https://shop.example (consent c2, marketing m1)
 * and a catalog of tee/red-m (fresh, local blue reference image), hat/one (stale) and ghost/x
 * (no image); a second workspace "Other" with its own storefront and catalog. The worker runs
 * only when a test drains it. Photos are generated JPEGs that carry EXIF GPS tags.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import sharp from 'sharp';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { claimJob, findUsage, finishJob } from '../../src/store/app/tryon-jobs.ts';
import { ORIGIN, call, getMedia, jobBody, manualTryOn, personJpeg, putUpload, referencePng, setUpShop, uploadBody, uploadPhoto, type Client } from './fixtures.ts';
import { runCommand } from '../../src/cli/run-command.ts';
import { createLogger } from '../../src/log.ts';

let t: TestApp;
let shop: TestWorkspace;
let photo: Buffer;
const today = () => new Date().toISOString().slice(0, 10);

before(async () => {
  t = await startTestApp({ tryon: manualTryOn() });
  shop = await createTestWorkspace(t.stores, 'Shop');
  await setUpShop(t, shop.id);
  photo = await personJpeg();
});

after(() => t.close());

const client = (): Client => ({ workspaceId: shop.id, origin: ORIGIN, token: null });

describe('try-on flow', () => {
  test('upload, job, poll and result: the photo is stored without metadata and the result really edits it', async () => {
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    assert.match(reservation.job_id, /^job_[\w-]{24}$/);
    assert.match(reservation.session_token, /^tos_[\w-]{43}$/);
    const ttl = Date.parse(reservation.expires_at) - Date.now();
    assert.ok(ttl > 100_000 && ttl <= 120_000, `upload URL lives two minutes, got ${ttl} ms`);

    const stored = fs.readFileSync(path.join(t.config.dataDir, 'tryon', 'objects', reservation.upload_key, 'photo'));
    const storedMeta = await sharp(stored).metadata();
    assert.equal(storedMeta.exif, undefined);
    assert.equal((await sharp(photo).metadata()).exif !== undefined, true);

    const accepted = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
    assert.equal(accepted.status, 202);
    assert.deepEqual(accepted.body, { job_id: reservation.job_id, status: 'pending' });
    assert.equal(accepted.headers['access-control-allow-origin'], ORIGIN);

    assert.deepEqual((await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.job_id}`)).body, { status: 'pending' });
    assert.equal(await t.app.tryon.worker.drain(), 1);

    const first = await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.job_id}`);
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body), ['status', 'result_url']);
    assert.equal(first.body.status, 'done');
    const expires = Number(new URL(first.body.result_url).searchParams.get('expires')) * 1000;
    assert.ok(expires - Date.now() <= 60_000 && expires - Date.now() > 50_000, 'result_url lives at most 60 s');

    const media = await getMedia(t, first.body.result_url);
    assert.equal(media.statusCode, 200);
    assert.equal(media.headers['content-type'], 'image/jpeg');
    const { data, info } = await sharp(media.rawPayload).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    const [r, g, b] = at(Math.round(info.width / 2), Math.round(info.height * 0.45));
    assert.ok(b > 200 && r < 40 && g < 40, `the product sits on the photo, got ${[r, g, b]}`);
    const [br, , bb] = at(5, 5);
    assert.ok(br > 130 && bb < 200, 'the backdrop of the photo is still there');

    const usage = await findUsage(t.stores.db, shop.id, today());
    assert.deepEqual(
      { attempts: usage?.attempts, reserved: usage?.credits_reserved, committed: usage?.credits_committed, released: usage?.credits_released },
      { attempts: 1, reserved: 0, committed: 1, released: 0 },
    );
  });
});

describe('png photos', () => {
  test('a PNG photo is stored as a clean PNG and generates like a JPEG', async () => {
    const png = await sharp(photo).png().toBuffer();
    const c = client();
    const reservation = await call(t, c, 'POST', '/try-on/v1/uploads', uploadBody(png, { mime_type: 'image/png' }));
    c.token = reservation.body.session_token;
    assert.equal((await putUpload(t, reservation.body.upload_url, png, reservation.body.upload_headers)).status, 200);
    const stored = fs.readFileSync(path.join(t.config.dataDir, 'tryon', 'objects', reservation.body.upload_key, 'photo'));
    assert.equal((await sharp(stored).metadata()).format, 'png');
    await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation.body));
    await t.app.tryon.worker.drain();
    assert.equal((await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.body.job_id}`)).body.status, 'done');
  });
});

describe('jobs', () => {
  test('repeating an accepted job returns the same job_id and charges nothing again; a style change is a new job', async () => {
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    const before = await findUsage(t.stores.db, shop.id, today());
    const first = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
    const again = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
    assert.deepEqual([first.status, again.status], [202, 202]);
    assert.deepEqual(again.body, { job_id: reservation.job_id, status: 'pending' });
    const style = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation, { variant_id: 'blue-l' }));
    assert.equal(style.status, 202);
    assert.notEqual(style.body.job_id, reservation.job_id);
    const afterUsage = await findUsage(t.stores.db, shop.id, today());
    assert.equal(afterUsage!.attempts - before!.attempts, 2);
    assert.equal(afterUsage!.credits_reserved - before!.credits_reserved, 2);
    assert.equal(await t.app.tryon.worker.drain(), 2);
    const settled = await findUsage(t.stores.db, shop.id, today());
    assert.equal(settled!.credits_reserved, 0);
    assert.equal(settled!.credits_committed - before!.credits_committed, 2);
  });

  test('concurrent job requests for one photo: duplicates share a job, other variants get their own, each charged once', async () => {
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    const before = await findUsage(t.stores.db, shop.id, today());
    const answers = await Promise.all([
      call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation)),
      call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation, { variant_id: 'blue-l' })),
      call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation)),
      call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation, { variant_id: 'blue-l' })),
    ]);
    assert.deepEqual(answers.map((a) => a.status), [202, 202, 202, 202]);
    assert.equal(answers[0].body.job_id, answers[2].body.job_id);
    assert.equal(answers[1].body.job_id, answers[3].body.job_id);
    assert.notEqual(answers[0].body.job_id, answers[1].body.job_id);
    assert.ok([answers[0].body.job_id, answers[1].body.job_id].includes(reservation.job_id));
    const afterUsage = await findUsage(t.stores.db, shop.id, today());
    assert.equal(afterUsage!.attempts - before!.attempts, 2);
    assert.equal(await t.app.tryon.worker.drain(), 2);
  });

  test('every poll of a done job gives a fresh signed result_url', async () => {
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
    await t.app.tryon.worker.drain();
    const one = await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.job_id}`);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const two = await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.job_id}`);
    assert.notEqual(one.body.result_url, two.body.result_url);
    assert.equal((await getMedia(t, two.body.result_url)).statusCode, 200);
    assert.equal(one.headers['cache-control'], 'no-store');
  });

  test('DELETE cancels, removes the photo and the result, and a worker finishing later cannot publish', async () => {
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
    const before = await findUsage(t.stores.db, shop.id, today());
    // A worker takes the job, then the shopper deletes while it generates.
    const held = await claimJob(t.stores.db, 'slow-worker', new Date(), 30_000);
    assert.equal(held?.job_id, reservation.job_id);
    const deleted = await call(t, c, 'DELETE', `/try-on/v1/jobs/${reservation.job_id}`);
    assert.deepEqual([deleted.status, deleted.body], [200, { status: 'cancelled' }]);
    assert.equal(await finishJob(t.stores.db, held!.id, 'slow-worker', { status: 'done', resultKey: `${held!.job_id}/result` }, new Date()), false);
    assert.deepEqual((await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.job_id}`)).body, { status: 'cancelled' });
    assert.equal(fs.existsSync(path.join(t.config.dataDir, 'tryon', 'objects', reservation.upload_key, 'photo')), false);
    const after = await findUsage(t.stores.db, shop.id, today());
    assert.equal(after!.credits_released - before!.credits_released, 1);
    assert.equal(await t.app.tryon.worker.drain(), 0);
  });

  test('deleting a done job removes its result: the old result_url stops working', async () => {
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
    await t.app.tryon.worker.drain();
    const done = await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.job_id}`);
    await call(t, c, 'DELETE', `/try-on/v1/jobs/${reservation.job_id}`);
    const media = await getMedia(t, done.body.result_url);
    assert.deepEqual([media.statusCode, media.json()], [404, { error: { code: 'media_not_found', message: 'This media no longer exists' } }]);
    const repeat = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
    assert.deepEqual(repeat.body, { job_id: reservation.job_id, status: 'cancelled' });
  });
});

describe('catalog', () => {
  test('a product imported with `import --kind products` and a relative image path is available for try-on', async () => {
    await referencePng(path.join(t.config.dataDir, 'tryon', 'catalog', 'cap.png'));
    const file = path.join(t.config.dataDir, 'products.ndjson');
    fs.writeFileSync(file, `${JSON.stringify({ product_handle: 'cap', variant_id: 'navy', title: 'Cap', image_path_or_url: 'cap.png', cost: 300 })}\n`);
    const ctx = { config: t.config, stores: t.stores, logger: createLogger('silent'), progress: () => undefined };
    const imported = await runCommand(ctx, ['import', '--workspace', String(shop.id), '--kind', 'products', '--file', file]);
    assert.equal((imported as { result: { rows_imported: number } }).result.rows_imported, 1);
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    const accepted = await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation, { product_handle: 'cap', variant_id: 'navy' }));
    assert.deepEqual([accepted.status, accepted.body], [202, { job_id: reservation.job_id, status: 'pending' }]);
    await t.app.tryon.worker.drain();
    assert.equal((await call(t, c, 'GET', `/try-on/v1/jobs/${reservation.job_id}`)).body.status, 'done');
  });
});

describe('leads', () => {
  test('a done job takes one e-mail: created, the same again not created, another refused; stored unconfirmed', async () => {
    const c = client();
    const reservation = await uploadPhoto(t, c, photo);
    await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation));
    await t.app.tryon.worker.drain();
    const lead = { email: 'Ana@Example.com', marketing_consent: true, marketing_version: 'm1' };
    const url = `/try-on/v1/jobs/${reservation.job_id}/leads`;
    const first = await call(t, c, 'POST', url, lead);
    assert.deepEqual([first.status, first.body], [200, { status: 'received', created: true }]);
    const same = await call(t, c, 'POST', url, { ...lead, email: 'ana@example.com' });
    assert.deepEqual([same.status, same.body], [200, { status: 'received', created: false }]);
    const other = await call(t, c, 'POST', url, { ...lead, email: 'bo@example.com' });
    assert.deepEqual([other.status, other.body], [409, { error: { code: 'lead_not_allowed', message: 'This result already has a contact request' } }]);

    const ctx = { config: t.config, stores: t.stores, logger: createLogger('silent'), progress: () => undefined };
    const exported = (await runCommand(ctx, ['leads', 'export', '--workspace', String(shop.id)])) as { result: { leads: { job_id: string; received_at: string }[] } };
    const ours = exported.result.leads.filter((l) => l.job_id === reservation.job_id);
    assert.deepEqual(ours, [{ email: 'ana@example.com', marketing_version: 'm1', status: 'unconfirmed', received_at: ours[0]?.received_at, job_id: reservation.job_id }]);
    assert.ok(Math.abs(Date.parse(ours[0]!.received_at) - Date.now()) < 60_000, 'received_at is the arrival time');
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    assert.deepEqual(await runCommand(ctx, ['leads', 'export', '--workspace', String(shop.id), '--since', tomorrow]), { result: { workspace_id: shop.id, leads: [], form_leads: [] } });
    assert.deepEqual(await runCommand(ctx, ['leads', 'export', '--workspace', String(shop.id), '--since', 'last week']),
      { error: { message: '--since must be a day YYYY-MM-DD or a timestamp' } });
    const elsewhere = await createTestWorkspace(t.stores, 'Other shop');
    assert.deepEqual(await runCommand(ctx, ['leads', 'export', '--workspace', String(elsewhere.id)]), { result: { workspace_id: elsewhere.id, leads: [], form_leads: [] } });
  });
});

describe('browser surface', () => {
  test('a preflight from any origin is answered; the real answer is readable only by the verified origin', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/try-on/v1/jobs',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-try-on-session' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], ORIGIN);
    assert.match(String(preflight.headers['access-control-allow-headers']), /x-try-on-session/);
    const wrong = await call(t, { ...client(), origin: 'https://evil.example' }, 'POST', '/try-on/v1/uploads', {});
    assert.equal(wrong.headers['access-control-allow-origin'], undefined);
  });

  test('GET /try-on/v1/tracking.js serves the module, which reports the five funnel events and no session token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/try-on/v1/tracking.js' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/javascript/);
    for (const name of ['tryon_opened', 'tryon_uploaded', 'tryon_generated', 'tryon_failed', 'tryon_lead']) assert.ok(response.body.includes(`"${name}"`));
    assert.equal(/session_token|x-try-on-session/i.test(response.body.replace(/\/\*[\s\S]*?\*\//g, '')), false);
  });

  test('the demo storefront page and its script are served', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/demo/storefront' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<input id="photo" type="file"/);
    const script = await t.app.inject({ method: 'GET', url: '/demo/storefront.js' });
    assert.match(script.body, /\/uploads/);
  });

  test('a same-origin poll without Origin counts as the service\'s own origin, when that origin is verified', async () => {
    const own = await createTestWorkspace(t.stores, 'Own origin');
    await setUpShop(t, own.id, { origins: ['http://localhost'] });
    const c: Client = { workspaceId: own.id, origin: 'http://localhost', token: null };
    const reservation = await uploadPhoto(t, c, photo);
    assert.equal((await call(t, c, 'POST', '/try-on/v1/jobs', jobBody(reservation))).status, 202);
    const poll = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/try-on/v1/jobs/${reservation.job_id}?workspace_id=${own.id}`, headers: { host: 'localhost', 'x-try-on-session': c.token!, ...headers } });
    const sameOrigin = await poll({ 'sec-fetch-site': 'same-origin' });
    assert.deepEqual([sameOrigin.statusCode, sameOrigin.json()], [200, { status: 'pending' }]);
    const crossSite = await poll({ 'sec-fetch-site': 'cross-site' });
    assert.equal(crossSite.json().error.code, 'origin_not_allowed');
  });

  test('unknown paths under /try-on/v1 answer in the try-on error shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/try-on/v1/nope' });
    assert.deepEqual([response.statusCode, response.json()], [404, { error: { code: 'not_found', message: 'Not found' } }]);
  });
});
