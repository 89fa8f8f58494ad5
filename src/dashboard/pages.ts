import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { NotFound } from '../kit/errors.ts';
import { contentSecurityPolicy } from '../http/security-headers.ts';
import { dashboardAssets } from './assets.ts';
import { isSignedIn } from './auth.ts';
import { VIEWS } from './views.ts';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Storelens</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/dashboard/app.css">
<script type="module" src="/dashboard/app.js"></script>
</head>
<body><div id="app" data-signed-in="SIGNED_IN"><p class="loading">Loading…</p></div><noscript>The Storelens dashboard needs JavaScript.</noscript></body>
</html>
`;

/**
 * No inline script or style anywhere: the page loads one script and one stylesheet from this
 * origin; uPlot and Preact set styles through the DOM, which style-src does not govern.
 */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy({
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'form-action': ["'self'"],
});

const FAVICON = fs.readFileSync(new URL('./client/favicon.svg', import.meta.url));

export async function pageRoutes(app: FastifyInstance): Promise<void> {
  // Bundle while the rest of the app starts; the first request waits for it if it must.
  void dashboardAssets().catch((error) => app.log.error({ err: error }, 'dashboard bundle failed'));
  // The page says whether a session came with it, so a signed-out browser shows the sign-in form
  // without first asking /dashboard/api/me for a 401 that its console would report as an error.
  // Every view's path serves the same page; the browser code draws the view (or sign-in).
  for (const { path } of VIEWS) {
    app.get(path, async (request, reply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('content-security-policy', CONTENT_SECURITY_POLICY)
        .send(PAGE.replace('SIGNED_IN', String(await isSignedIn(app, request)))));
  }
  app.get('/favicon.svg', async (_request, reply) => reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON));
  // What browsers ask for on pages that name no icon (the API reference, the OAuth consent page).
  app.get('/favicon.ico', async (_request, reply) => reply.redirect('/favicon.svg', 301));
  app.get<{ Params: { file: string } }>('/dashboard/:file', async (request, reply) => {
    const asset = (await dashboardAssets())[request.params.file];
    if (!asset) throw new NotFound('Not found');
    reply.type(asset.type).header('etag', asset.etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.send(asset.body);
  });
}
