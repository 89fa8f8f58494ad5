import type { FastifyInstance } from 'fastify';
import type { CorsRule } from '../../http/cors.ts';
import { bundleShopScript } from '../../kit/browser-bundle.ts';

/**
 * Serves a browser script of this folder at `url` to any page (`cors`), cached by browsers for an
 * hour: the pixel (`./pixel.js`, about 4.3 KB minified) and the widgets it loads on first need.
 */
export function scriptRoute(app: FastifyInstance, url: string, file: string, cors: CorsRule): void {
  app.get(url, { config: { cors } }, async (_request, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(await bundleShopScript(new URL(file, import.meta.url), { minify: true })),
  );
}
