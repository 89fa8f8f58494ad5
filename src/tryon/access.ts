import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashSecret } from '../store/app/secrets.ts';
import { findSessionByHash, type TryOnSession } from '../store/app/tryon-sessions.ts';
import { findStorefront, type Storefront } from '../store/app/tryon-storefronts.ts';
import { serviceOrigin, type TryOnContext } from './context.ts';
import { TryOnError } from './errors.ts';
import { workspaceId } from './schema.ts';

export const SESSION_HEADER = 'x-try-on-session';

/** `workspace_id` from the JSON body or the query string. */
export function requestWorkspaceId(request: FastifyRequest): number {
  const body = request.body as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const raw = body && typeof body === 'object' && 'workspace_id' in body ? body.workspace_id : query?.workspace_id;
  if (raw === undefined) throw new TryOnError('invalid_request', 'workspace_id is required');
  const parsed = workspaceId.safeParse(raw);
  if (!parsed.success) throw new TryOnError('invalid_request', 'workspace_id must be a positive integer');
  return parsed.data;
}

export function allowOrigin(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
}

/**
 * The page the request comes from: its Origin header, or the service's own origin for a browser
 * request that says `Sec-Fetch-Site: same-origin` (a browser sends no Origin on a same-origin
 * GET, and no page can set either header).
 */
function requestOrigin(ctx: TryOnContext, request: FastifyRequest): string | null {
  if (request.headers.origin) return request.headers.origin;
  return request.headers['sec-fetch-site'] === 'same-origin' ? serviceOrigin(ctx, request) : null;
}

/**
 * The request's origin must be one of the storefront's verified origins. A workspace without
 * a storefront has none, so every origin is refused.
 */
export async function verifiedStorefront(ctx: TryOnContext, request: FastifyRequest, reply: FastifyReply): Promise<Storefront> {
  const id = requestWorkspaceId(request);
  const origin = requestOrigin(ctx, request);
  const storefront = await findStorefront(ctx.stores.db, id);
  if (!origin || !storefront || !storefront.origins.includes(origin)) {
    throw new TryOnError('origin_not_allowed', 'This origin is not a verified storefront of the workspace');
  }
  allowOrigin(reply, origin);
  return storefront;
}

/** The session named by `X-Try-On-Session`; its token is compared by hash only. */
export async function requireSession(ctx: TryOnContext, request: FastifyRequest, storefront: Storefront): Promise<TryOnSession> {
  const token = request.headers[SESSION_HEADER];
  if (typeof token !== 'string' || token === '') throw new TryOnError('session_invalid', 'X-Try-On-Session header is required');
  const session = await findSessionByHash(ctx.stores.db, hashSecret(token));
  if (!session || Number(session.workspace_id) !== storefront.workspaceId) {
    throw new TryOnError('session_invalid', 'The try-on session token is not valid');
  }
  if (session.expires_at <= ctx.now().toISOString()) throw new TryOnError('session_expired', 'The try-on session has expired');
  return session;
}
