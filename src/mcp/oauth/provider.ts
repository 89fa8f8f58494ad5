import crypto from 'node:crypto';
import type { Response } from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { CustomOAuthError, InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AppDatabase } from '../../store/app-db.ts';
import { isLoopbackHostname } from '../public-base.ts';
import { consentPage } from './consent-page.ts';
import {
  consumeCode, findClient, findCode, findRefreshToken, findToken, findTokenForRevocation, issueTokens, revokeGrant, revokeOneToken, saveClient,
} from '../../store/app/oauth.ts';

const CODE_REUSED = 'This authorization code was used before: every token issued from it is revoked';
const REFRESH_REUSED = 'This refresh token was used or revoked before: every token of its grant is revoked';

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
 * Why a redirect URI may not be registered, or undefined when it may (docs/mcp.md): https, plain
 * http only on a loopback address (RFC 8252 section 7.3), or a native app's private-use scheme
 * (section 7.1). The SDK has already refused anything that is not a URL.
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

/** Why a registration is refused (RFC 7591 section 3.2.2 error code and description), or undefined. */
function registrationProblem(client: Pick<OAuthClientInformationFull, 'redirect_uris' | 'client_name'>): CustomOAuthError | undefined {
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

/**
 * Our side of the MCP SDK's OAuth 2.1 authorization server (`mcpAuthRouter`): the SDK parses and
 * checks every request (registration metadata, authorize parameters, PKCE S256, grant types) and
 * calls these methods for storage and for the consent step.
 */
export class StorelensOAuthProvider implements OAuthServerProvider {
  constructor(private readonly db: AppDatabase) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    const db = this.db;
    return {
      async getClient(clientId: string) {
        const found = await findClient(db, clientId);
        // The secret is checked against its hash before the SDK sees the request (see sdk-handlers.ts),
        // so the SDK gets the client without it.
        return found ? (found.metadata as OAuthClientInformationFull) : undefined;
      },
      async registerClient(client: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>) {
        // RFC 7591 section 3.2.2: the SDK sends this as a 400 {error, error_description}.
        const problem = registrationProblem(client);
        if (problem) throw problem;
        const full = { ...client, client_id: crypto.randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) } as OAuthClientInformationFull;
        await saveClient(db, full);
        return full;
      },
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const html = consentPage({
      clientId: client.client_id,
      clientName: client.client_name ?? client.client_id,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      state: params.state ?? '',
      resource: params.resource?.href ?? '',
      nonce: crypto.randomBytes(16).toString('base64'),
      rows: [{ apiKey: '' }],
      error: '',
    });
    res.status(200).set(html.headers).type('html').send(html.body);
  }

  /**
   * The PKCE challenge of an unused, unexpired code (the SDK checks the verifier before
   * exchanging). A code presented again after its exchange was intercepted or replayed: every
   * token issued from it is revoked (OAuth 2.1 section 4.1.3, RFC 6819 section 4.4.1.1).
   */
  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    const found = await findCode(this.db, code);
    if (found?.used) {
      await revokeGrant(this.db, found.grantId);
      throw new InvalidGrantError(CODE_REUSED);
    }
    if (!found || found.expired || found.clientId !== client.client_id) throw new InvalidGrantError('Invalid or expired authorization code');
    return found.codeChallenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    const stored = await consumeCode(this.db, code);
    if (!stored) {
      // Another exchange of the same code got there first.
      const found = await findCode(this.db, code);
      if (found?.used) await revokeGrant(this.db, found.grantId);
      throw new InvalidGrantError(found?.used ? CODE_REUSED : 'Invalid or expired authorization code');
    }
    if (stored.clientId !== client.client_id) throw new InvalidGrantError('Invalid or expired authorization code');
    if (redirectUri !== undefined && redirectUri !== stored.redirectUri) throw new InvalidGrantError('redirect_uri does not match the authorization request');
    if (resource && stored.resource && resource.href !== stored.resource) throw new InvalidGrantError('resource does not match the authorization request');
    return issueTokens(this.db, { clientId: client.client_id, grants: stored.grants, resource: stored.resource || resource?.href || '', grantId: stored.grantId });
  }

  /**
   * Refresh-token rotation: the new pair replaces every token of the grant, so the previous
   * access token ends with it. A refresh token presented after its rotation is a stolen or
   * replayed one: the whole grant is revoked and the connection must consent again.
   */
  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, _scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    const found = await findRefreshToken(this.db, refreshToken);
    if (found?.revoked) {
      await revokeGrant(this.db, found.grantId);
      throw new InvalidGrantError(REFRESH_REUSED);
    }
    if (!found || found.clientId !== client.client_id) throw new InvalidGrantError('Invalid or expired refresh token');
    if (resource && found.resource && resource.href !== found.resource) throw new InvalidGrantError('resource does not match the original grant');
    // Of two concurrent refreshes with one token, one wins; the other is a reuse.
    if (!(await revokeOneToken(this.db, refreshToken))) {
      await revokeGrant(this.db, found.grantId);
      throw new InvalidGrantError(REFRESH_REUSED);
    }
    await revokeGrant(this.db, found.grantId);
    return issueTokens(this.db, found);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const found = await findToken(this.db, 'access', token);
    if (!found) throw new InvalidGrantError('Invalid or expired access token');
    return { token, clientId: found.clientId, scopes: [] };
  }

  /**
   * RFC 7009: a client revokes only its own tokens; anything else is ignored silently. Revoking
   * a refresh token ends its grant, access tokens included (section 2.1); revoking an access
   * token ends that token.
   */
  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const found = await findTokenForRevocation(this.db, request.token);
    if (!found || found.clientId !== client.client_id) return;
    if (found.kind === 'refresh') await revokeGrant(this.db, found.grantId);
    else await revokeOneToken(this.db, request.token);
  }
}
