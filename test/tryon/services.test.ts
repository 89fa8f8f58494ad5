/**
 * The upload and job services called directly, for the refusals the HTTP tests do not reach.
 * Fixture: workspace "Shop" with the storefront and catalog of fixtures.ts, allowing two uploads
 * per session.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { hashSecret } from '../../src/store/app/secrets.ts';
import { findSessionByHash, findUploadByKey } from '../../src/store/app/tryon-sessions.ts';
import { findStorefront, type Storefront } from '../../src/store/app/tryon-storefronts.ts';
import { TryOnError } from '../../src/tryon/errors.ts';
import { requestJob } from '../../src/tryon/jobs.ts';
import { purgeUpload } from '../../src/tryon/media.ts';
import { reserveUpload } from '../../src/tryon/uploads.ts';
import { createTestWorkspace, startTestApp, type TestApp } from '../helper.ts';
import { jobBody, manualTryOn, personJpeg, setUpShop, uploadBody } from './fixtures.ts';

let t: TestApp;
let storefront: Storefront;
let photo: Buffer;

before(async () => {
  t = await startTestApp({ tryon: manualTryOn() });
  const shop = await createTestWorkspace(t.stores, 'Shop');
  await setUpShop(t, shop.id, { sessionAttempts: 2 });
  storefront = (await findStorefront(t.stores.db, shop.id))!;
  photo = await personJpeg(200, 300);
});

after(() => t.close());

const reserve = (session: Parameters<typeof reserveUpload>[1]['session'], clientKey: string) =>
  reserveUpload(t.app.tryon.context, {
    storefront,
    session,
    body: { workspace_id: storefront.workspaceId, ...uploadBody(photo) },
    clientKey,
    baseUrl: 'http://localhost',
  });

const sessionOf = async (token: string) => ({ row: (await findSessionByHash(t.stores.db, hashSecret(token)))!, token });

const refusal = (code: string, message: string) => (error: unknown) =>
  error instanceof TryOnError && error.code === code && error.message === message;

test('a session holds as many uploads as the storefront allows attempts; one more is quota_exceeded', async () => {
  const first = await reserve(null, 'client-a');
  const session = await sessionOf(first.session_token);
  const second = await reserve(session, 'client-a');
  assert.equal(second.session_token, first.session_token);
  assert.notEqual(second.upload_key, first.upload_key);
  await assert.rejects(reserve(session, 'client-a'), refusal('quota_exceeded', 'This try-on session has reached its upload limit'));
});

test('a job for a photo the sweeper already removed is upload_invalid', async () => {
  const reservation = await reserve(null, 'client-b');
  const session = await sessionOf(reservation.session_token);
  const upload = (await findUploadByKey(t.stores.db, reservation.upload_key))!;
  await purgeUpload(t.app.tryon.context, upload, 'expire');
  await assert.rejects(
    requestJob(t.app.tryon.context, t.app.tryon.worker, {
      storefront,
      session: session.row,
      body: { workspace_id: storefront.workspaceId, ...jobBody(reservation) },
    }),
    refusal('upload_invalid', 'The photo of this upload was deleted'),
  );
});
