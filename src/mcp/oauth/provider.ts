import crypto from 'node:crypto';
import type { Response } from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AppDatabase } from '../../store/app-db.ts';
import type { ClientDocuments } from './client-documents.ts';
import { clientMetadataProblem } from './client-rules.ts';
import { findOAuthClient } from './clients.ts';
import { consentPage } from './consent-page.ts';
import {
  consumeCode, findCode, findRefreshToken, findToken, findTokenForRevocation, issueTokens, revokeGrant, revokeOneToken, saveClient,
} from '../../store/app/oauth.ts';

const CODE_REUSED = 'This authorization code was used before: every token issued from it is revoked';
const REFRESH_REUSED = 'This refresh token was used or revoked before: every token of its grant is revoked';

/**
 * Our side of the MCP SDK's OAuth 2.1 authorization server (`mcpAuthRouter`): the SDK parses and
 * checks every request (registration metadata, authorize parameters, PKCE S256, grant types) and
 * calls these methods for storage and for the consent step.
 */
export class StorelensOAuthProvider implements OAuthServerProvider {
  constructor(
    private readonly db: AppDatabase,
    private readonly documents: ClientDocuments,
  ) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    const { db, documents } = this;
    return {
      // A registered client's secret is checked against its hash before the SDK sees the request
      // (see sdk-handlers.ts), so the SDK gets the client without it. A document's refusal is the
      // SDK's 400 invalid_client, before any redirect.
      getClient: (clientId: string) => findOAuthClient(db, documents, clientId),
      async registerClient(client: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>) {
        // RFC 7591 section 3.2.2: the SDK sends this as a 400 {error, error_description}.
        const problem = clientMetadataProblem(client);
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
