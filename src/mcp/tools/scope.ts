import {
  NO_AUDIT_ACCESS,
  adsRefusal,
  pixelChannels,
  pixelRefusal,
  seesChannel,
  visibleAdChannels,
} from '../../analytics/permissions.ts';
import type { QueryScope } from '../../analytics/query-scope.ts';
import { AccessDenied } from '../../kit/errors.ts';
import type { Range } from '../../kit/paging.ts';
import type { ToolContext } from './types.ts';

/** A pixel-side read of the caller's workspace over `range`, on the channels it may read. Same rules as the data API. */
export function pixelScope(ctx: ToolContext, range: Range): QueryScope {
  const refusal = pixelRefusal(ctx.visibility, undefined);
  if (refusal) throw new AccessDenied(refusal);
  return { workspaceId: ctx.workspaceId, range, channels: pixelChannels(ctx.visibility, undefined) };
}

/** An ads read of the caller's workspace over `range`, on the ad platforms it may read; refuses a key that sees none, as /v3/ads does. */
export function adScope(ctx: ToolContext, range: Range): QueryScope {
  const refusal = adsRefusal(ctx.visibility, undefined);
  if (refusal) throw new AccessDenied(refusal);
  return { workspaceId: ctx.workspaceId, range, channels: visibleAdChannels(ctx.visibility) };
}

export function requireAuditAccess(ctx: ToolContext): void {
  if (!ctx.visibility.admin) throw new AccessDenied(NO_AUDIT_ACCESS);
}

export function seesOrganic(ctx: ToolContext): boolean {
  return seesChannel(ctx.visibility, '');
}

/**
 * Order-level data (platform orders, loyalty) is not split by channel: it needs admin or
 * read:profit-free full visibility. Past this check the caller's scopes cover every channel.
 */
export function requireAllChannels(ctx: ToolContext, what: string): void {
  if (ctx.visibility.channels !== null) throw new AccessDenied(`You do not have access to ${what}: it needs an admin:admin key`);
}
