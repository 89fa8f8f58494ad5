import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_HOSTNAMES.has(hostname.toLowerCase());
}

/**
 * The server's public origin as OAuth metadata and discovery headers name it (docs/mcp.md):
 * STORELENS_PUBLIC_URL; without it the request's own origin when it is a loopback address (a
 * local setup reached as 127.0.0.1 or localhost), else the documented default
 * `http://localhost:PORT`. A client-chosen Host is never echoed, and nothing is kept per Host.
 */
export function publicBase(config: Config, request: FastifyRequest): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  try {
    const own = new URL(`${request.protocol}://${request.host}`);
    if (isLoopbackHostname(own.hostname)) return own.origin;
  } catch {
    // an unparsable Host: fall through to the default
  }
  return `http://localhost:${config.port}`;
}
