import { NO_AUDIT_ACCESS, requireEveryChannel, seesChannel } from '../../../analytics/permissions.ts';
import { AccessDenied } from '../../../kit/errors.ts';
import type { ToolContext } from './tool.ts';

export function requireAuditAccess(ctx: ToolContext): void {
  if (!ctx.visibility.admin) throw new AccessDenied(NO_AUDIT_ACCESS);
}

export function seesOrganic(ctx: ToolContext): boolean {
  return seesChannel(ctx.visibility, '');
}

/** Order-level data (platform orders, loyalty): past this check the caller's scopes cover every channel. */
export function requireAllChannels(ctx: ToolContext, what: string): void {
  requireEveryChannel(ctx.visibility, what);
}
