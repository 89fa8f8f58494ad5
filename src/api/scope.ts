import type { Visibility } from '../analytics/permissions.ts';
import { adsRefusal, pixelChannels, pixelRefusal } from '../analytics/permissions.ts';
import type { QueryScope } from '../analytics/query-scope.ts';
import type { Range } from '../kit/paging.ts';
import { AccessDenied } from '../kit/errors.ts';

/** The data API's side of src/analytics/permissions.ts: a refusal becomes a 403 `{message}`. */

/**
 * A pixel-side read of the caller's workspace over `range`, on the `requested` sources' channels
 * or, without a filter, every channel the caller sees; 403 when it may not ask.
 */
export function pixelScope(
  caller: { workspaceId: number; visibility: Visibility },
  range: Range,
  requested: readonly string[] | undefined,
): QueryScope {
  const refusal = pixelRefusal(caller.visibility, requested);
  if (refusal) throw new AccessDenied(refusal);
  return { workspaceId: caller.workspaceId, range, channels: pixelChannels(caller.visibility, requested) };
}

/** 403 when the key may not read ads filtered by `requested`. */
export function assertAdsAccess(visibility: Visibility, requested: readonly string[] | undefined): void {
  const refusal = adsRefusal(visibility, requested);
  if (refusal) throw new AccessDenied(refusal);
}
