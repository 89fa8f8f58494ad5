import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { CorsRule } from '../http/cors.ts';
import { isLoopbackHostname } from './public-base.ts';

/**
 * The MCP transport's rule against DNS rebinding (docs/mcp.md, "Origin"): a browser request to the
 * tool endpoint must come from the public URL's origin, a loopback origin, or one listed in
 * STORELENS_MCP_ALLOWED_ORIGINS. Requests without an Origin header (every non-browser client)
 * are not affected; the caller checks for that.
 */
export function originAllowed(origin: string, config: Config): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (isLoopbackHostname(url.hostname)) return true;
  if (config.publicUrl && safeOrigin(config.publicUrl) === url.origin) return true;
  return config.mcpAllowedOrigins.includes(url.origin);
}

function safeOrigin(value: string): string | undefined {
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}

/**
 * The origin hook, before anything else: a foreign Origin is a 403, so a DNS-rebound page never
 * reaches the JSON-RPC layer.
 */
export function originHook(config: Config) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !originAllowed(origin, config)) return reply.code(403).send({ message: 'Origin not allowed' });
  };
}

/**
 * CORS of the tool endpoint: a page on an allowed origin may POST with the headers MCP clients
 * send and read the answer, the discovery and rate-limit headers included.
 */
export function toolEndpointCors(config: Config): CorsRule {
  return {
    origin: async (origin: string | undefined) => origin !== undefined && originAllowed(origin, config),
    methods: 'POST',
    allowedHeaders: 'authorization, content-type, accept, mcp-protocol-version, mcp-method, mcp-name, x-api-key, client-secret',
    exposedHeaders: 'www-authenticate, retry-after, ratelimit, ratelimit-policy',
    maxAge: 600,
  };
}
