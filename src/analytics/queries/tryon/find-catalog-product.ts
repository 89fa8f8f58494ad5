import type { Clickhouse } from '../../../store/clickhouse.ts';

export const QUERY_NAME = 'find-catalog-product';

export interface FindCatalogProductParams {
  workspaceId: number;
  productHandle: string;
  variantId: string;
}

export interface CatalogProductRow {
  product_handle: string;
  variant_id: string;
  title: string;
  image_path_or_url: string;
  /** Import version of the newest row: microseconds since the epoch (the import's time). */
  version: string;
}

/** The newest imported catalog row of one product variant, or none. */
export async function findCatalogProduct(ch: Clickhouse, params: FindCatalogProductParams): Promise<CatalogProductRow | undefined> {
  const rows = await ch.query<CatalogProductRow>(
    QUERY_NAME,
    `SELECT product_handle, variant_id, title, image_path_or_url, toString(version) AS version
     FROM products FINAL
     WHERE store_id = {store_id:UInt64} AND product_handle = {productHandle:String} AND variant_id = {variantId:String}
     LIMIT 1`,
    { store_id: params.workspaceId, productHandle: params.productHandle, variantId: params.variantId },
  );
  return rows[0];
}
