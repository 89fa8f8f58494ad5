import { CustomOAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { isLoopbackHostname } from '../public-base.ts';

/**
 * Schemes that belong to a browser, the operating system or a protocol, never to one app: a
 * redirect there could read the code from a file, a page of ours or another origin. Any other
 * scheme is a native app's private-use scheme (RFC 8252 section 7.1): reverse-domain names such
 * as `com.example.app:` are the recommended form, but desktop MCP clients register single words
 * (Cursor's `cursor:`), and the code is still bound to the client's PKCE verifier.
 */
const NOT_AN_APP_SCHEME = new Set([
  'file:', 'blob:', 'about:', 'data:', 'javascript:', 'vbscript:', 'filesystem:', 'view-source:', 'ftp:', 'ws:', 'wss:',
  'mailto:', 'tel:', 'sms:', 'jar:', 'intent:', 'chrome:', 'chrome-extension:', 'moz-extension:', 'resource:', 'ms-settings:',
]);
const MAX_REDIRECT_URIS = 10;
const MAX_REDIRECT_URI_LENGTH = 2000;
const MAX_CLIENT_NAME_LENGTH = 200;

/**
 * Why a redirect URI may not be used, or undefined when it may (docs/mcp.md): https, plain http
 * only on a loopback address (RFC 8252 section 7.3), or a native app's private-use scheme
 * (section 7.1). The SDK's metadata schema has already refused anything that is not a URL.
 */
function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `redirect_uri must be at most ${MAX_REDIRECT_URI_LENGTH} characters`;
  const url = new URL(uri);
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) {
    return `redirect_uri ${uri} must use https (plain http only on 127.0.0.1, [::1] or localhost)`;
  }
  if (NOT_AN_APP_SCHEME.has(url.protocol)) {
    return `redirect_uri ${uri} must use https, http on a loopback address, or the app's own scheme such as com.example.app:/callback`;
  }
  if (url.hash) return `redirect_uri ${uri} must not have a fragment`;
  return undefined;
}

/**
 * Why a client's metadata is refused, as an RFC 7591 section 3.2.2 error code and description,
 * or undefined: the same rules for a registration and for a Client ID Metadata Document.
 */
export function clientMetadataProblem(client: Pick<OAuthClientMetadata, 'redirect_uris' | 'client_name'>): CustomOAuthError | undefined {
  if (client.redirect_uris.length > MAX_REDIRECT_URIS) {
    return new CustomOAuthError('invalid_redirect_uri', `A client registers at most ${MAX_REDIRECT_URIS} redirect_uris`);
  }
  for (const uri of client.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return new CustomOAuthError('invalid_redirect_uri', problem);
  }
  if ((client.client_name?.length ?? 0) > MAX_CLIENT_NAME_LENGTH) {
    return new CustomOAuthError('invalid_client_metadata', `client_name must be at most ${MAX_CLIENT_NAME_LENGTH} characters`);
  }
  return undefined;
}
