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
import { findUsage } from '../../src/store/app/tryon-jobs.ts';
import { ORIGIN, call, getMedia, jobBody, personJpeg, setUpShop, uploadPhoto, type Client } from './fixtures.ts';

let t: TestApp;
let shop: TestWorkspace;
let photo: Buffer;
const today = () => new Date().toISOString().slice(0, 10);

before(async () => {
  t = await startTestApp({ tryon: { ...(await import('../../src/config.ts')).loadConfig({}).tryon, workerIntervalMs: 0, sweepIntervalMs: 0 } });
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
