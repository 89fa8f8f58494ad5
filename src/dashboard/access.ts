import type { FastifyRequest } from 'fastify';
import { visibilityOf, type Visibility } from '../analytics/permissions.ts';
import { AccessDenied, InvalidInput } from '../kit/errors.ts';
import { UTC, canonicalTimeZone } from '../kit/calendar/zones.ts';
import type { Membership } from '../store/app/users.ts';

export const NO_WORKSPACE_ACCESS = 'You do not have access to this workspace';
export const OWNERS_ONLY = 'Only owners of this workspace can do this';

export interface WorkspaceAccess {
  workspaceId: number;
  role: Membership['role'];
  visibility: Visibility;
  /** The workspace's zone (canonical name): every view's days are its calendar days. */
  timeZone: string;
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
export function workspaceAccess(request: FastifyRequest): WorkspaceAccess {
  const user = request.dashboardUser!;
  const wanted = workspaceParam(request);
  const member = wanted === undefined ? user.memberships[0] : user.memberships.find((m) => m.workspaceId === wanted);
  if (!member) throw new AccessDenied(NO_WORKSPACE_ACCESS);
  return { workspaceId: member.workspaceId, role: member.role, visibility: memberVisibility(member), timeZone: memberTimeZone(member) };
}

/** The member's workspace zone as the analytics store spells it (a name stored before zones were checked falls back to UTC). */
export function memberTimeZone(member: Pick<Membership, 'timeZone'>): string {
  return canonicalTimeZone(member.timeZone) ?? UTC;
}

export function requireOwner(access: WorkspaceAccess): void {
  if (access.role !== 'owner') throw new AccessDenied(OWNERS_ONLY);
}

const BAD_WORKSPACE = 'workspace must be one workspace id (digits)';

/**
 * The `workspace` query parameter of any dashboard request, absent or empty when the user's first
 * workspace is meant. Anything else but one id is refused rather than read as absent: an array
 * (`workspace=1&workspace=2`, or `workspace[]=2`, which the query parser keeps under its own
 * name), a number in another notation, anything that is not digits.
 */
function workspaceParam(request: FastifyRequest): number | undefined {
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (Object.keys(query).some((name) => name.startsWith('workspace['))) throw new InvalidInput(BAD_WORKSPACE);
  const raw = Object.hasOwn(query, 'workspace') ? query.workspace : undefined;
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw)) throw new InvalidInput(BAD_WORKSPACE);
  return Number(raw);
}
