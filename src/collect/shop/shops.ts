/**
 * How a shop is named, the same way in `integration set` and in the webhooks' headers
 * (docs/integrations.md): a Shopify shop by its `name.myshopify.com` domain, a WooCommerce shop
 * by its WordPress address without scheme or trailing slash (`shop.example`, `example.com/store`).
 */

const SHOPIFY_DOMAIN = /^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/;

/** `name.myshopify.com` in lower case, or null. */
export function normaliseShopDomain(value: string): string | null {
  const domain = value.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/+$/, '');
  return SHOPIFY_DOMAIN.test(domain) ? domain : null;
}

/** Host (lower case, with port) and path of an http(s) URL, without trailing slash; or null. */
export function normaliseSiteUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return null;
  return `${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
}
