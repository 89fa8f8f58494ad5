import type { Range } from '../kit/calendar/range.ts';
import { AccessDenied } from '../kit/errors.ts';
import { adsRefusal, pixelChannels, pixelRefusal, visibleAdChannels, type Visibility } from './permissions.ts';

/**
 * What one analytics read covers: the workspace (the `store_id` column and bound parameter), the
 * date range, and the raw channels its rows may carry (`adv_source` on the pixel side, `source`
 * on ads rows), already narrowed to what the caller may see. Each surface builds it once per
 * request from its credentials, with the functions below; queries read it as is.
 */
export interface QueryScope {
  workspaceId: number;
  range: Range;
  /** Null: every channel (an unrestricted key that filters none). */
  channels: string[] | null;
}

/** Whose data a request reads and what its credentials may see. */
export interface Reader {
  workspaceId: number;
  visibility: Visibility;
}

/**
 * A pixel-side read over `range`, on the `requested` sources' channels or, without a filter,
 * every channel the reader sees; AccessDenied when it may not ask.
 */
export function pixelScope(reader: Reader, range: Range, requested?: readonly string[]): QueryScope {
  const refusal = pixelRefusal(reader.visibility, requested);
  if (refusal) throw new AccessDenied(refusal);
  return { workspaceId: reader.workspaceId, range, channels: pixelChannels(reader.visibility, requested) };
}

/** AccessDenied when the reader may not read ads filtered by `requested`. */
export function assertAdsAccess(visibility: Visibility, requested?: readonly string[]): void {
  const refusal = adsRefusal(visibility, requested);
  if (refusal) throw new AccessDenied(refusal);
}

/** An ads read over `range`, on every ad platform the reader sees; AccessDenied for a key that sees none. */
export function adScope(reader: Reader, range: Range): QueryScope {
  assertAdsAccess(reader.visibility);
  return { workspaceId: reader.workspaceId, range, channels: visibleAdChannels(reader.visibility) };
}
