import { setShopIntegration, type ShopPlatform } from '../../store/app/shop-integrations.ts';
import { normaliseShopDomain, normaliseSiteUrl } from '../../collect/shop/shops.ts';
import { SHOPIFY_ORDER_TOPICS, WOO_ORDER_TOPICS } from '../../collect/shop/platform-webhooks.ts';
import { CommandError, requireOption, serviceUrl, workspaceOption, type Command, type CommandArgs } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

const MAX_SECRET_LENGTH = 500;

function shopOf(platform: ShopPlatform, args: CommandArgs): string {
  if (platform === 'shopify') {
    const shop = normaliseShopDomain(requireOption(args, 'shop'));
    if (!shop) throw new CommandError('--shop must be the shop\'s NAME.myshopify.com domain');
    return shop;
  }
  const site = normaliseSiteUrl(requireOption(args, 'site'));
  if (!site) throw new CommandError('--site must be the WordPress address of the shop, like https://shop.example');
  return site;
}

/**
 * `integration set --workspace ID --platform shopify --shop NAME.myshopify.com --secret S` or
 * `--platform woocommerce --site https://shop.example --secret S`: connects the shop's order
 * webhooks (docs/integrations.md). The secret is stored sealed and never printed back.
 */
export const setIntegrationCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const platform = requireOption(args, 'platform');
  if (platform !== 'shopify' && platform !== 'woocommerce') throw new CommandError('--platform must be shopify or woocommerce');
  const shop = shopOf(platform, args);
  const secret = requireOption(args, 'secret');
  if (secret.length > MAX_SECRET_LENGTH) throw new CommandError(`--secret must be at most ${MAX_SECRET_LENGTH} characters`);
  const workspace = await requireWorkspace(ctx, workspaceId);
  await setShopIntegration(ctx.stores.db, ctx.stores.secrets, { platform, shop, workspaceId, secret });
  const common = { platform, workspace_id: workspaceId, webhook_url: serviceUrl(ctx, `/webhooks/${platform}`) };
  if (platform === 'woocommerce') return { ...common, site: shop, topics: [...WOO_ORDER_TOPICS, 'order.deleted'] };
  return {
    ...common,
    shop,
    topics: [...SHOPIFY_ORDER_TOPICS, 'refunds/create'],
    pixel_url: serviceUrl(ctx, `/integrations/shopify/pixel.js?pixel_id=${encodeURIComponent(workspace.pixelId)}`),
  };
};
