import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig, type TryOnConfig } from '../../src/config.ts';
import { upsertStorefront, type StorefrontChanges } from '../../src/store/app/tryon-storefronts.ts';
import { insertRows, type TestApp } from '../helper.ts';

export const ORIGIN = 'https://shop.example';

/** Try-on settings for tests: the defaults, with no background loops unless asked for. */
export const manualTryOn = (changes: Partial<TryOnConfig> = {}): TryOnConfig => ({
  ...loadConfig({}).tryon,
  workerIntervalMs: 0,
  sweepIntervalMs: 0,
  ...changes,
});

/** Microsecond import version `days` ago, as the import framework writes it. */
export const versionDaysAgo = (days: number) => (Date.now() - days * 86_400_000) * 1000;

/** A person-like JPEG: a skin-toned ellipse on a grey backdrop, with EXIF GPS tags. */
export async function personJpeg(width = 400, height = 600): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#9aa0a6"/>
    <ellipse cx="${width / 2}" cy="${height * 0.6}" rx="${width * 0.3}" ry="${height * 0.4}" fill="#e0b090"/></svg>`;
  return sharp(Buffer.from(svg))
    .jpeg()
    .withExif({ IFD0: { Make: 'Phone', Model: 'Camera' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 0/1' } })
    .toBuffer();
}

/** The product's reference image: a solid pure-blue PNG, easy to find in a composite. */
export async function referencePng(file: string): Promise<string> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await sharp({ create: { width: 200, height: 240, channels: 3, background: { r: 0, g: 0, b: 255 } } }).png().toFile(file);
  return file;
}

export const sha256 = (body: Buffer) => crypto.createHash('sha256').update(body).digest('base64');

/**
 * Storefront `ORIGIN` with consent version c2 and marketing version m1, and a catalog:
 * tee/red-m and tee/blue-l (fresh, local reference image), hat/one (imported 60 days ago: stale coverage),
 * ghost/x (no reference image).
 */
export async function setUpShop(t: TestApp, workspaceId: number, changes: StorefrontChanges = {}): Promise<void> {
  await upsertStorefront(t.stores.db, workspaceId, { origins: [ORIGIN], consentVersion: 'c2', marketingVersion: 'm1', ...changes });
  const image = await referencePng(path.join(t.config.dataDir, 'fixtures', `shirt-${workspaceId}.png`));
  await insertRows(t.stores, 'products', [
    { store_id: workspaceId, product_handle: 'tee', variant_id: 'red-m', title: 'Tee', image_path_or_url: image, cost: 900, version: versionDaysAgo(1) },
    { store_id: workspaceId, product_handle: 'tee', variant_id: 'blue-l', title: 'Tee', image_path_or_url: image, cost: 900, version: versionDaysAgo(2) },
    { store_id: workspaceId, product_handle: 'hat', variant_id: 'one', title: 'Hat', image_path_or_url: image, cost: 500, version: versionDaysAgo(60) },
    { store_id: workspaceId, product_handle: 'ghost', variant_id: 'x', title: 'Ghost', image_path_or_url: '', cost: 0, version: versionDaysAgo(1) },
  ]);
}

export interface Client {
  workspaceId: number;
  origin: string;
  token: string | null;
  /** The shopper's address (inject's socket address); default 127.0.0.1. */
  address?: string;
}

let shoppers = 0;
/** A fresh client address, for tests that act as many shoppers (open reservations count per client). */
export const nextAddress = () => `10.200.${Math.floor(++shoppers / 250)}.${(shoppers % 250) + 1}`;

export async function call(t: TestApp, client: Client, method: 'GET' | 'POST' | 'DELETE', url: string, body?: Record<string, unknown>) {
  const headers: Record<string, string> = { origin: client.origin };
  if (client.token) headers['x-try-on-session'] = client.token;
  const withWorkspace = method === 'POST' ? undefined : `${url}${url.includes('?') ? '&' : '?'}workspace_id=${client.workspaceId}`;
  const response = await t.app.inject({
    method,
    url: withWorkspace ?? url,
    headers,
    ...(client.address ? { remoteAddress: client.address } : {}),
    ...(method === 'POST' ? { payload: { workspace_id: client.workspaceId, ...body } } : {}),
  });
  return { status: response.statusCode, body: response.body ? response.json() : null, headers: response.headers };
}

export const uploadBody = (photo: Buffer, changes: Record<string, unknown> = {}) => ({
  consent: true,
  adult: true,
  consent_version: 'c2',
  bytes: photo.length,
  mime_type: 'image/jpeg',
  checksum_sha256: sha256(photo),
  ...changes,
});

/** PUTs bytes to a signed upload URL with the given headers (defaults: what the reservation asked). */
export async function putUpload(t: TestApp, uploadUrl: string, body: Buffer, headers: Record<string, string>) {
  const url = new URL(uploadUrl);
  const response = await t.app.inject({ method: 'PUT', url: url.pathname + url.search, headers: { origin: ORIGIN, ...headers }, payload: body });
  return { status: response.statusCode, body: response.body ? response.json() : null, headers: response.headers };
}

/** Reserves, uploads and returns what a job request needs. */
export async function uploadPhoto(t: TestApp, client: Client, photo: Buffer) {
  const reservation = await call(t, client, 'POST', '/try-on/v1/uploads', uploadBody(photo));
  if (reservation.status !== 200) throw new Error(`reservation failed: ${JSON.stringify(reservation.body)}`);
  client.token = reservation.body.session_token;
  const put = await putUpload(t, reservation.body.upload_url, photo, reservation.body.upload_headers);
  if (put.status !== 200) throw new Error(`upload failed: ${JSON.stringify(put.body)}`);
  return reservation.body as { job_id: string; upload_key: string; session_token: string; upload_url: string; expires_at: string };
}

export const jobBody = (reservation: { job_id: string; upload_key: string }, changes: Record<string, unknown> = {}) => ({
  job_id: reservation.job_id,
  upload_key: reservation.upload_key,
  product_handle: 'tee',
  variant_id: 'red-m',
  consent: true,
  consent_version: 'c2',
  ...changes,
});

export async function getMedia(t: TestApp, mediaUrl: string) {
  const url = new URL(mediaUrl);
  return t.app.inject({ method: 'GET', url: url.pathname + url.search });
}
