import type { FastifyRequest } from 'fastify';
import { visibilityOf, type Visibility } from '../analytics/permissions.ts';
import { AccessDenied } from '../kit/errors.ts';
import type { Membership } from '../store/app/users.ts';

export const NO_WORKSPACE_ACCESS = 'You do not have access to this workspace';
export const OWNERS_ONLY = 'Only owners of this workspace can do this';

export interface WorkspaceAccess {
  workspaceId: number;
  role: Membership['role'];
  visibility: Visibility;
}

/**
 * What a member sees, through the data API's own permission code: an owner what an admin:admin
 * key sees; a viewer every channel without profit, or, created with scopes, what those scopes
 * give (channel scopes narrow; read:profit alone keeps every channel and adds profit).
 */
export function memberVisibility(member: Pick<Membership, 'role' | 'scopes'>): Visibility {
  if (member.role === 'owner') return visibilityOf(['admin:admin']);
  const scopes = member.scopes ?? [];
  const granted = visibilityOf(scopes);
  const narrowsChannels = scopes.some((s) => s.startsWith('read:') && s !== 'read:profit');
  return narrowsChannels ? granted : { admin: false, profit: granted.profit, write: false, channels: null };
}

/**
 * The workspace a dashboard request is about: `workspace` from the query string, or the user's
 * first one. A workspace the user is not a member of (existing or not) is refused alike.
 */
export function workspaceAccess(request: FastifyRequest, raw: unknown): WorkspaceAccess {
  const user = request.dashboardUser!;
  let member: Membership | undefined;
  if (raw === undefined || raw === '') member = user.memberships[0];
  else if (typeof raw === 'string' && /^\d{1,15}$/.test(raw)) member = user.memberships.find((m) => m.workspaceId === Number(raw));
  if (!member) throw new AccessDenied(NO_WORKSPACE_ACCESS);
  return { workspaceId: member.workspaceId, role: member.role, visibility: memberVisibility(member) };
}

export function requireOwner(access: WorkspaceAccess): void {
  if (access.role !== 'owner') throw new AccessDenied(OWNERS_ONLY);
}

/** The `workspace` query parameter of any dashboard request. */
export function workspaceParam(request: FastifyRequest): unknown {
  return (request.query as Record<string, unknown> | undefined)?.workspace;
}
