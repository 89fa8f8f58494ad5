import sharp, { type OutputInfo } from 'sharp';
import { MAX_INPUT_PIXELS } from '../image.ts';
import { GenerationError, type Generator } from './generator.ts';

const OUTPUT_WIDTH = 1024;

/**
 * The default, offline generator: places the product's reference image on the person photo
 * (centred, at chest height, 45 % of the photo's width) and re-encodes the result as JPEG.
 * It is a real edit of the photo, deterministic and fast, and needs no provider.
 */
export function createCompositor(): Generator {
  return {
    kind: 'compositor',
    async generate({ person, reference, signal }) {
      let base: { data: Buffer; info: OutputInfo };
      try {
        base = await sharp(person, { limitInputPixels: MAX_INPUT_PIXELS })
          .resize({ width: OUTPUT_WIDTH, withoutEnlargement: true })
          .removeAlpha()
          .toBuffer({ resolveWithObject: true });
      } catch {
        throw new GenerationError('input_unreadable', 'person photo cannot be decoded');
      }
      signal.throwIfAborted();
      const { width, height } = base.info;
      const overlayWidth = Math.max(1, Math.round(width * 0.45));
      let overlay: { data: Buffer; info: OutputInfo };
      try {
        overlay = await sharp(reference, { limitInputPixels: MAX_INPUT_PIXELS })
          .resize({ width: overlayWidth, height: Math.max(1, Math.round(height * 0.6)), fit: 'inside' })
          .ensureAlpha()
          .png()
          .toBuffer({ resolveWithObject: true });
      } catch {
        throw new GenerationError('generation_failed', 'reference image cannot be decoded');
      }
      signal.throwIfAborted();
      const left = Math.round((width - overlay.info.width) / 2);
      const top = Math.min(Math.round(height * 0.3), Math.max(0, height - overlay.info.height));
      const image = await sharp(base.data)
        .composite([{ input: overlay.data, left, top }])
        .jpeg({ quality: 88 })
        .toBuffer();
      return { image, mimeType: 'image/jpeg' };
    },
  };
}
