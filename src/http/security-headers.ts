import type { FastifyInstance } from 'fastify';

/**
 * Content-Security-Policy directives. Every response starts from the strictest policy (nothing
 * loads, no form posts, no framing, no <base>); a page names only what it needs on top.
 */
export type CspDirectives = Record<string, readonly string[]>;

const STRICT: CspDirectives = {
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/** The strict policy with `allow` replacing or adding directives (`{'script-src': ["'self'"]}`). */
export function contentSecurityPolicy(allow: CspDirectives = {}): string {
  return Object.entries({ ...STRICT, ...allow })
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

const DEFAULT_HEADERS: Record<string, string> = {
  'content-security-policy': contentSecurityPolicy(),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/**
 * Sets the headers above on every response, before any handler runs. They go on the raw
 * response so that they also cover answers written outside Fastify's reply (routes that hijack
 * it, such as the OAuth bridge); a route that sets one of them itself (a page's own CSP) wins,
 * because headers given to `writeHead` replace those set earlier. For a JSON or image response
 * the policy only matters if someone opens it as a page, where it should run nothing.
 * docs/architecture.md ("Security headers") lists the pages and their policies.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of Object.entries(DEFAULT_HEADERS)) reply.raw.setHeader(name, value);
    done();
  });
}
