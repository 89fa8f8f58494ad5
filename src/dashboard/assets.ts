import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { bundleBrowserCode } from '../kit/browser-bundle.ts';

export interface Asset {
  body: string;
  type: string;
  etag: string;
}

let bundle: Promise<Record<string, Asset>> | null = null;

/**
 * The browser code (src/dashboard/client on src/ui, Preact + htm + uPlot) bundled and minified once per
 * process at start-up, as the pixel is: no build step before `npm start`. Two files: app.js and
 * app.css (uPlot's stylesheet plus ours).
 */
export function dashboardAssets(): Promise<Record<string, Asset>> {
  bundle ??= bundleBrowserCode({
    script: fileURLToPath(new URL('./client/main.ts', import.meta.url)),
    stylesheet: fileURLToPath(new URL('../ui/style.css', import.meta.url)),
    format: 'esm',
  }).then(({ js, css }) => ({
    'app.js': asset(js, 'text/javascript; charset=utf-8'),
    'app.css': asset(css, 'text/css; charset=utf-8'),
  }));
  return bundle;
}

function asset(body: string, type: string): Asset {
  return { body, type, etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}
