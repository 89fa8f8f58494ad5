import fs from 'node:fs/promises';
import path from 'node:path';
import { callOutbound } from '../kit/outbound.ts';
import { findCatalogProduct } from '../analytics/queries/tryon/find-catalog-product.ts';
import type { Storefront } from '../store/app/tryon-storefronts.ts';
import { TryOnError } from './errors.ts';
import type { TryOnContext } from './context.ts';

const MAX_REFERENCE_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface CatalogEntry {
  productHandle: string;
  variantId: string;
  /** As imported: an absolute path, a path relative to `<data dir>/tryon/catalog`, or an http(s) URL. */
  reference: string;
  refreshedAt: Date;
}

const isUrl = (ref: string) => /^https?:\/\//i.test(ref);

export function localReferencePath(root: string, ref: string): string {
  return path.isAbsolute(ref) ? ref : path.join(root, 'catalog', ref);
}

/**
 * The catalog entry a job may use. Only products imported for this workspace are offered;
 * the client never names an image. Coverage is stale when the product's newest import is older
 * than the storefront's coverage_max_age_days.
 */
export async function catalogEntry(ctx: TryOnContext, storefront: Storefront, productHandle: string, variantId: string): Promise<CatalogEntry> {
  const row = await findCatalogProduct(ctx.stores.ch, { workspaceId: storefront.workspaceId, productHandle, variantId });
  if (!row) throw new TryOnError('product_unavailable', 'This product is not available for try-on');
  const reference = row.image_path_or_url.trim();
  if (!reference) throw new TryOnError('product_unavailable', 'This product has no reference image');
  if (!isUrl(reference)) {
    const stat = await fs.stat(localReferencePath(ctx.root, reference)).catch(() => null);
    if (!stat?.isFile()) throw new TryOnError('product_unavailable', 'This product has no reference image');
  }
  const refreshedAt = new Date(Number(BigInt(row.version) / 1000n));
  if (ctx.now().getTime() - refreshedAt.getTime() > storefront.coverageMaxAgeDays * DAY_MS) {
    throw new TryOnError('coverage_stale', `The catalog entry of this product was last refreshed at ${refreshedAt.toISOString()}; import products again`);
  }
  return { productHandle, variantId, reference, refreshedAt };
}

/**
 * Reads a reference image: a local file, or an http(s) URL fetched within a deadline over the
 * whole call and a size bound counted as it streams in (redirects followed, as a CDN needs).
 */
export async function loadReference(root: string, reference: string, signal: AbortSignal): Promise<Buffer> {
  if (!isUrl(reference)) return fs.readFile(localReferencePath(root, reference));
  const response = await callOutbound(reference, { signal, deadlineMs: FETCH_TIMEOUT_MS, maxBytes: MAX_REFERENCE_BYTES, maxRedirects: 5 });
  if (response.status < 200 || response.status >= 300) throw new Error(`reference image answered ${response.status}`);
  return response.body;
}
