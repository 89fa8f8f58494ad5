import { z } from 'zod';
import type { SecretBox } from '../store/secret-box.ts';
import { HttpError } from './errors.ts';

/**
 * Signed, expiring download links (docs/exports.md, "Download links"): what a key may export,
 * sealed with the service's secret box (AES-256-GCM, `STORELENS_SECRET_KEY`), so the link itself
 * is the credential until it expires. The sealed payload holds the key's permissions as they were
 * when the link was made and the request; it cannot be read or changed without the key.
 */
export const DOWNLOAD_PATH = '/v3/export/download';

/** How long a link works. */
export const LINK_TTL_MS = 15 * 60_000;

export interface DownloadGrant {
  workspaceId: number;
  /** The key that asked: its rate limits apply, and a revoked key's links stop working. */
  keyId: number;
  /** Its scopes when the link was made. */
  scopes: string[];
  kind: string;
  /** The export's query parameters. */
  query: Record<string, string>;
  expiresAt: number;
}

const PURPOSE = 'storelens-download';

const payload = z.strictObject({
  purpose: z.literal(PURPOSE),
  workspaceId: z.number().int().positive(),
  keyId: z.number().int().positive(),
  scopes: z.array(z.string()),
  kind: z.string(),
  query: z.record(z.string(), z.string()),
  expiresAt: z.number(),
});

export const INVALID_LINK = 'Invalid download link';
export const EXPIRED_LINK = 'Download link expired';

/** A link for `grant` under `base` (the service's public URL), valid for LINK_TTL_MS from `now`. */
export function signDownload(secrets: SecretBox, base: string, grant: Omit<DownloadGrant, 'expiresAt'>, now: number): { url: string; expiresAt: number } {
  const expiresAt = now + LINK_TTL_MS;
  const token = secrets.seal(JSON.stringify({ purpose: PURPOSE, ...grant, expiresAt }));
  return { url: `${base}${DOWNLOAD_PATH}?token=${encodeURIComponent(token)}`, expiresAt };
}

/** The grant a token carries; 401 when it was not sealed by this service or was changed, 410 once expired. */
export function openDownload(secrets: SecretBox, token: string, now: number): DownloadGrant {
  let grant: z.output<typeof payload>;
  try {
    grant = payload.parse(JSON.parse(secrets.open(token)));
  } catch {
    throw new HttpError(401, INVALID_LINK);
  }
  if (grant.expiresAt <= now) throw new HttpError(410, EXPIRED_LINK);
  return { workspaceId: grant.workspaceId, keyId: grant.keyId, scopes: grant.scopes, kind: grant.kind, query: grant.query, expiresAt: grant.expiresAt };
}
