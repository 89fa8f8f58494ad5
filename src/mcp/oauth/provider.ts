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
import { codeChallengeOf, consumeCode, findClient, findToken, issueTokens, revokeToken, saveClient } from './store.ts';

/**
 * Why a redirect URI may not be registered, or undefined when it may (docs/mcp.md): https, plain
 * http only on a loopback address (RFC 8252 section 7.3), or a native app's private-use scheme
 * such as `cursor://` (RFC 8252 section 7.1). The SDK has already refused javascript:, data: and
 * vbscript: URIs and anything that is not a URL.
 */
export function redirectUriProblem(uri: string): string | undefined {
  const url = new URL(uri);
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) {
    return `redirect_uri ${uri} must use https (plain http only on 127.0.0.1, [::1] or localhost)`;
  }
  if (url.hash) return `redirect_uri ${uri} must not have a fragment`;
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
        for (const uri of client.redirect_uris) {
          const problem = redirectUriProblem(uri);
          if (problem) throw new CustomOAuthError('invalid_redirect_uri', problem);
        }
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

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    const found = await codeChallengeOf(this.db, code);
    if (!found || found.clientId !== client.client_id) throw new InvalidGrantError('Invalid or expired authorization code');
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
    if (!stored || stored.clientId !== client.client_id) throw new InvalidGrantError('Invalid or expired authorization code');
    if (redirectUri !== undefined && redirectUri !== stored.redirectUri) throw new InvalidGrantError('redirect_uri does not match the authorization request');
    if (resource && stored.resource && resource.href !== stored.resource) throw new InvalidGrantError('resource does not match the authorization request');
    return issueTokens(this.db, { clientId: client.client_id, grants: stored.grants, resource: stored.resource || resource?.href || '' });
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, _scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    const found = await findToken(this.db, 'refresh', refreshToken);
    if (!found || found.clientId !== client.client_id) throw new InvalidGrantError('Invalid or expired refresh token');
    if (resource && found.resource && resource.href !== found.resource) throw new InvalidGrantError('resource does not match the original grant');
    await revokeToken(this.db, refreshToken);
    return issueTokens(this.db, found);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const found = await findToken(this.db, 'access', token);
    if (!found) throw new InvalidGrantError('Invalid or expired access token');
    return { token, clientId: found.clientId, scopes: [] };
  }

  /** RFC 7009: a client revokes only its own tokens; anything else is ignored silently. */
  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    await revokeToken(this.db, request.token, client.client_id);
  }
}
