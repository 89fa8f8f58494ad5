import type { Visibility } from '../analytics/permissions.ts';
import { adsRefusal, pixelChannels, pixelRefusal } from '../analytics/permissions.ts';
import { forbidden } from '../http/errors.ts';

/** The data API's side of src/analytics/permissions.ts: a refusal becomes a 403 `{message}`. */

/** The raw channels a pixel-side query may return (null: any); 403 when the key may not ask. */
export function pixelScope(visibility: Visibility, requested: readonly string[] | undefined): string[] | null {
  const refusal = pixelRefusal(visibility, requested);
  if (refusal) throw forbidden(refusal);
  return pixelChannels(visibility, requested);
}

/** 403 when the key may not read ads filtered by `requested`. */
export function assertAdsAccess(visibility: Visibility, requested: readonly string[] | undefined): void {
  const refusal = adsRefusal(visibility, requested);
  if (refusal) throw forbidden(refusal);
}
