import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { InvalidClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { authenticateKey } from '../../http/auth.ts';
import { HttpError } from '../../http/errors.ts';
import type { AppDatabase } from '../../store/app-db.ts';
import { recordAudit } from '../../store/app/audit-log.ts';
import { findWorkspace } from '../../store/app/workspaces.ts';
import { saveCode, type WorkspaceGrant } from '../../store/app/oauth.ts';
import type { ClientDocuments } from './client-documents.ts';
import { findOAuthClient } from './clients.ts';

const MAX_WORKSPACES = 20;

/**
 * The client, registered or described by its metadata document, if it has this redirect URI: a
 * consent never redirects anywhere else.
 */
export async function consentClient(db: AppDatabase, documents: ClientDocuments, clientId: string, redirectUri: string): Promise<OAuthClientInformationFull | undefined> {
  const client = await findOAuthClient(db, documents, clientId).catch((error: unknown) => {
    if (error instanceof InvalidClientError) return undefined;
    throw error;
  });
  return client?.redirect_uris.some((uri) => redirectUriMatches(redirectUri, uri)) ? client : undefined;
}

/**
 * The workspaces typed into the consent form, each API key authenticated with its client secret;
 * a refusal names the first row that failed. A workspace named twice is granted once.
 */
export async function grantWorkspaces(db: AppDatabase, keys: string[], secrets: string[]): Promise<{ grants: WorkspaceGrant[] } | { refusal: string }> {
  if (keys.length === 0 || keys.length !== secrets.length) return { refusal: 'Add at least one workspace with its API key and client secret.' };
  if (keys.length > MAX_WORKSPACES) return { refusal: `At most ${MAX_WORKSPACES} workspaces per connection.` };
  const grants = new Map<number, WorkspaceGrant>();
  for (const [i, apiKey] of keys.entries()) {
    try {
      const auth = await authenticateKey(db, apiKey, secrets[i]!);
      const workspace = await findWorkspace(db, auth.workspaceId);
      grants.set(auth.workspaceId, { workspace_id: auth.workspaceId, workspace_name: workspace?.name ?? '', key_id: auth.keyId, scopes: auth.scopes });
    } catch (error) {
      if (error instanceof HttpError) return { refusal: `Workspace ${i + 1}: ${error.message}` };
      throw error;
    }
  }
  return { grants: [...grants.values()] };
}

/** The authorization code of a consent, audited as `oauth.connect` in every workspace it connects. */
export async function issueConsentCode(
  db: AppDatabase,
  consent: { clientId: string; clientName: string; redirectUri: string; codeChallenge: string; resource: string; grants: WorkspaceGrant[] },
): Promise<string> {
  const { clientId, clientName, redirectUri, codeChallenge, resource, grants } = consent;
  const code = await saveCode(db, { clientId, redirectUri, codeChallenge, resource, grants });
  for (const grant of grants) {
    await recordAudit(db, {
      workspaceId: grant.workspace_id,
      actor: `key:${grant.key_id}`,
      action: 'oauth.connect',
      target: `oauth_client:${clientId}`,
      details: { client_name: clientName, scopes: grant.scopes },
    });
  }
  return code;
}
