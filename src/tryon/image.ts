import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata } from 'sharp';
import { TryOnError } from './errors.ts';

export const MAX_UPLOAD_BYTES = 7 * 1024 * 1024;
/** Decoding stops above this many pixels (a 10,000 x 10,000 image is refused). */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Stored photos are scaled down to fit this square; it is plenty for a try-on. */
const MAX_SIDE = 2048;

export const MIME_TYPES = ['image/jpeg', 'image/png'] as const;
export type PhotoMime = (typeof MIME_TYPES)[number];

/**
 * Checks what a photo really is and re-encodes it: magic bytes must match the declared type,
 * decoding is bounded by a pixel limit, orientation is applied and every metadata block
 * (EXIF, GPS, XMP, ICC comments) is dropped, because sharp writes none unless asked to.
 */
export async function sanitizePhoto(body: Buffer, declared: string): Promise<Buffer> {
  const detected = await fileTypeFromBuffer(body);
  if (!detected || !(MIME_TYPES as readonly string[]).includes(detected.mime)) {
    throw new TryOnError('upload_invalid', 'The file is not a JPEG or PNG image');
  }
  if (detected.mime !== declared) {
    throw new TryOnError('upload_invalid', `The file is ${detected.mime}, not ${declared} as declared`);
  }
  const image = sharp(body, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  const tooLarge = new TryOnError('upload_invalid', `The image has more than ${MAX_INPUT_PIXELS / 1_000_000} megapixels`);
  let meta: Metadata;
  try {
    meta = await image.metadata();
  } catch (error) {
    throw /pixel limit/i.test((error as Error).message) ? tooLarge : new TryOnError('upload_invalid', 'The image cannot be decoded');
  }
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) throw tooLarge;
  try {
    const pipeline = image.rotate().resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true });
    return detected.mime === 'image/png' ? await pipeline.png().toBuffer() : await pipeline.jpeg({ quality: 90 }).toBuffer();
  } catch {
    throw new TryOnError('upload_invalid', 'The image cannot be decoded');
  }
}
