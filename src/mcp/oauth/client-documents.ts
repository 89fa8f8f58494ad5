/**
 * Client ID Metadata Documents (docs/mcp.md; MCP authorization 2025-11-25, IETF
 * draft-ietf-oauth-client-id-metadata-document): a client may use an https URL as its
 * `client_id`, and that URL serves the client's metadata as JSON. The document is fetched when
 * the client first shows up, checked, and kept for as long as its Cache-Control allows, within
 * bounds; a failed fetch or a refused document is never kept.
 */
import { LRUCache } from 'lru-cache';
import * as z from 'zod';
import { InvalidClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { OAuthClientMetadataSchema, SafeUrlSchema, type OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Config } from '../../config.ts';
import { describeIssues } from '../../kit/zod-issues.ts';
import { clientMetadataProblem } from './client-rules.ts';
import { fetchDocument } from './fetch-document.ts';

/** The size the draft recommends reading at most. */
const MAX_DOCUMENT_BYTES = 5 * 1024;
export const MIN_CACHE_SECONDS = 300;
export const MAX_CACHE_SECONDS = 86_400;
const MAX_CLIENT_ID_LENGTH = 2000;
const MAX_KEPT_DOCUMENTS = 1000;

/** A `client_id` that names a metadata document rather than a registration (registered ids are UUIDs). */
export function isClientIdUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/**
 * Why a `client_id` URL cannot name a document, or undefined. It must be the normal form of an
 * https URL with a path (what `new URL()` writes back: no default port, dot segment or upper-case
 * host), so the URL fetched is the `client_id` itself, character for character.
 */
function clientIdProblem(clientId: string): string | undefined {
  if (clientId.length > MAX_CLIENT_ID_LENGTH) return `must be at most ${MAX_CLIENT_ID_LENGTH} characters`;
  if (!URL.canParse(clientId)) return 'is not a URL';
  const url = new URL(clientId);
  if (url.protocol !== 'https:') return 'must use https';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (url.hash || clientId.includes('#')) return 'must not have a fragment';
  if (url.pathname === '/') return 'must have a path naming its metadata document';
  if (url.href !== clientId) return `must be written in its normal form (${url.href})`;
  return undefined;
}

/**
 * How long a fetched document is kept: its `Cache-Control: max-age`, held between 5 minutes
 * (long enough for one connection, consent to token, to fetch it once) and one day. `no-store`,
 * `no-cache` or no max-age: the lower bound.
 */
export function cacheSeconds(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '').toLowerCase().split(',').map((directive) => directive.trim());
  const maxAge = directives.find((directive) => directive.startsWith('max-age='));
  const fresh = directives.includes('no-store') || directives.includes('no-cache') ? 0 : Number(maxAge?.slice(8).replace(/"/g, '') ?? 0);
  return Math.min(MAX_CACHE_SECONDS, Math.max(MIN_CACHE_SECONDS, Number.isFinite(fresh) ? fresh : 0));
}

const documentSchema = OAuthClientMetadataSchema.extend({
  client_id: z.string(),
  redirect_uris: z.array(SafeUrlSchema).min(1),
});

/** The document's client, or why it is refused. */
function documentClient(clientId: string, body: string): OAuthClientInformationFull | string {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return 'is not JSON';
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'is not a JSON object';
  if ('client_secret' in raw || 'client_secret_expires_at' in raw) return 'must not contain client_secret: a metadata document establishes no shared secret';
  const parsed = documentSchema.safeParse(raw);
  if (!parsed.success) return `is invalid: ${describeIssues(parsed.error)}`;
  const document = parsed.data;
  if (document.client_id !== clientId) return 'has a client_id other than the URL it was fetched from';
  const method = document.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') {
    return `has token_endpoint_auth_method ${method}: only none is accepted (a metadata document establishes no shared secret, and private_key_jwt is not supported)`;
  }
  const problem = clientMetadataProblem(document);
  if (problem) return `is invalid: ${problem.message}`;
  return { ...document, token_endpoint_auth_method: 'none' };
}

export interface ClientDocuments {
  /** The client a `client_id` URL names; throws InvalidClientError saying why it cannot be used. */
  resolve(clientId: string): Promise<OAuthClientInformationFull>;
}

/** Documents fetched and kept by this process; the fetch limits are read from `config` at each fetch. */
export function createClientDocuments(config: Pick<Config, 'oauthClientDocuments'>): ClientDocuments {
  const kept = new LRUCache<string, OAuthClientInformationFull>({
    max: MAX_KEPT_DOCUMENTS,
    ttl: MIN_CACHE_SECONDS * 1000,
    ignoreFetchAbort: true,
    fetchMethod: async (clientId, _stale, { options }) => {
      const url = new URL(clientId);
      const { timeoutMs, privateHosts } = config.oauthClientDocuments;
      let answer;
      try {
        answer = await fetchDocument(url, { timeoutMs, maxBytes: MAX_DOCUMENT_BYTES, allowPrivate: privateHosts.includes(url.hostname) });
      } catch (error) {
        throw new InvalidClientError(`The client's metadata document could not be fetched: ${(error as Error).message}`);
      }
      if (answer.status !== 200) {
        const redirect = answer.status >= 300 && answer.status < 400 ? ' (redirects are not followed)' : '';
        throw new InvalidClientError(`The client's metadata document answered HTTP ${answer.status}${redirect}; it must answer 200`);
      }
      const client = documentClient(clientId, answer.body);
      if (typeof client === 'string') throw new InvalidClientError(`The client's metadata document ${client}`);
      options.ttl = cacheSeconds(answer.headers.get('cache-control') ?? undefined) * 1000;
      return client;
    },
  });
  return {
    async resolve(clientId) {
      const problem = clientIdProblem(clientId);
      if (problem) throw new InvalidClientError(`client_id ${problem}`);
      return (await kept.fetch(clientId))!;
    },
  };
}
