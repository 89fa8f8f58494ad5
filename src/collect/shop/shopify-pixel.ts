import fs from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { InvalidInput, NotFound } from '../../kit/errors.ts';
import { findWorkspaceByPixelId } from '../../store/app/workspaces.ts';

const template = fs.readFileSync(new URL('./shopify-pixel.js', import.meta.url), 'utf8');

/** The custom pixel code for one workspace, ready to paste into Shopify's Customer events. */
export function shopifyPixelCode(pixelId: string, collectUrl: string): string {
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
      .send(shopifyPixelCode(workspace.pixelId, `${base}/collect`));
  });
};
