import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { bundleShopScript } from '../../kit/browser-bundle.ts';
import { InvalidInput, NotFound } from '../../kit/errors.ts';
import { findWorkspaceByPixelId } from '../../store/app/workspaces.ts';

/** What the pasted code says of itself (bundling keeps no ordinary comment). */
const PASTE_INSTRUCTIONS = `// Storelens custom pixel for Shopify.
// Paste into Shopify admin > Settings > Customer events > Add custom pixel. It forwards Shopify's
// customer events to Storelens with the same visitor and session as the Storelens theme pixel.`;

/** The custom pixel code for one workspace, ready to paste into Shopify's Customer events: readable, so unminified. */
async function shopifyPixelCode(pixelId: string, collectUrl: string): Promise<string> {
  const template = await bundleShopScript(new URL('./shopify-pixel.js', import.meta.url), { minify: false, banner: PASTE_INSTRUCTIONS });
  return template.replace('__PIXEL_ID__', JSON.stringify(pixelId)).replace('__COLLECT_URL__', JSON.stringify(collectUrl));
}

const query = z.object({ pixel_id: z.string().min(1).max(100) });

/** `GET /integrations/shopify/pixel.js?pixel_id=px_...`: the code above, as JavaScript. */
export const shopifyPixelRoute: FastifyPluginAsync = async (app) => {
  app.get('/integrations/shopify/pixel.js', async (request, reply) => {
    const parsed = query.safeParse(request.query);
    if (!parsed.success) throw new InvalidInput('pixel_id: is required');
    const workspace = await findWorkspaceByPixelId(app.stores.db, parsed.data.pixel_id);
    if (!workspace) throw new NotFound('Unknown pixel id');
    const base = (app.config.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(await shopifyPixelCode(workspace.pixelId, `${base}/collect`));
  });
};
