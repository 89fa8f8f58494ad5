import type { Config } from '../config.ts';
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
