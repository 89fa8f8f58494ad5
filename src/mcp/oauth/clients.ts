import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AppDatabase } from '../../store/app-db.ts';
import { findClient } from '../../store/app/oauth.ts';
import { isClientIdUrl, type ClientDocuments } from './client-documents.ts';

/**
 * The client a `client_id` names, without its secret: a metadata document's URL is resolved
 * through the document (throwing InvalidClientError when it cannot be used), any other id is
 * looked up among the registrations.
 */
export async function findOAuthClient(db: AppDatabase, documents: ClientDocuments, clientId: string): Promise<OAuthClientInformationFull | undefined> {
  if (isClientIdUrl(clientId)) return documents.resolve(clientId);
  return (await findClient(db, clientId))?.metadata as OAuthClientInformationFull | undefined;
}
