import fs from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { contentSecurityPolicy } from '../http/security-headers.ts';
import type { TryOnContext } from './context.ts';

const clientAsset = (name: string) => fs.readFileSync(new URL(`./client/${name}`, import.meta.url), 'utf8');

/**
 * The demo storefront at /demo/storefront. It shares its origin with the OAuth consent page,
 * where people type keys and secrets, so it runs only its own files: scripts and styles from
 * this origin, calls and images to this origin and to the media storage's, nothing inline.
 */
export const demoStorefrontRoutes: FastifyPluginAsync<{ ctx: TryOnContext }> = async (app, { ctx }) => {
  const page = clientAsset('storefront.html');
  const assets = {
    'storefront.js': { type: 'text/javascript; charset=utf-8', body: clientAsset('storefront.js') },
    'storefront.css': { type: 'text/css; charset=utf-8', body: clientAsset('storefront.css') },
  };
  app.get('/demo/storefront', async (_request, reply) => {
    const media = await ctx.storage.urlOrigin();
    const services = ["'self'", ...(media ? [media] : [])];
    const policy = contentSecurityPolicy({
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': services,
      'connect-src': services,
    });
    return reply.type('text/html; charset=utf-8').header('content-security-policy', policy).send(page);
  });
  for (const [name, asset] of Object.entries(assets)) {
    app.get(`/demo/${name}`, async (_request, reply) => reply.type(asset.type).send(asset.body));
  }
};
