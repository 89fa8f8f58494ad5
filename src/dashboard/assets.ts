import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface Asset {
  body: string;
  type: string;
  etag: string;
}

let bundle: Promise<Record<string, Asset>> | null = null;

/**
 * The browser code (src/dashboard/client, Preact + htm + uPlot) bundled and minified once per
 * process at start-up, as the pixel is: no build step before `npm start`. Two files: app.js and
 * app.css (uPlot's stylesheet plus ours).
 */
export function dashboardAssets(): Promise<Record<string, Asset>> {
  bundle ??= build({
    entryPoints: [
      { in: fileURLToPath(new URL('./client/main.ts', import.meta.url)), out: 'app' },
      { in: fileURLToPath(new URL('./client/style.css', import.meta.url)), out: 'app' },
    ],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    write: false,
    outdir: 'out',
    logLevel: 'silent',
  }).then((result) => {
    const assets: Record<string, Asset> = {};
    for (const file of result.outputFiles) {
      const name = file.path.slice(file.path.lastIndexOf('/') + 1);
      const type = name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
      const etag = `"${crypto.createHash('sha256').update(file.contents).digest('base64url').slice(0, 22)}"`;
      assets[name] = { body: file.text, type, etag };
    }
    return assets;
  });
  return bundle;
}
