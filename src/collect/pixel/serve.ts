import fs from 'node:fs';
import { transform } from 'esbuild';
import type { FastifyInstance } from 'fastify';
import type { CorsRule } from '../../http/cors.ts';

const minified = new Map<string, Promise<string>>();

/** A browser script of this folder minified once per process. */
function script(file: string): Promise<string> {
  let code = minified.get(file);
  if (!code) {
    code = transform(fs.readFileSync(new URL(file, import.meta.url), 'utf8'), { minify: true, target: 'es2017' }).then((result) => result.code);
    minified.set(file, code);
  }
  return code;
}

/**
 * Serves a browser script of this folder at `url` to any page (`cors`), cached by browsers for an
 * hour: the pixel (`./pixel.js`, about 4 KB minified) and the widgets it loads on first need.
 */
export function scriptRoute(app: FastifyInstance, url: string, file: string, cors: CorsRule): void {
  app.get(url, { config: { cors } }, async (_request, reply) =>
    reply.type('application/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(await script(file)),
  );
}
