import type { Visibility } from '../analytics/permissions.ts';
import { canRequest, seesAnyPixelData } from '../analytics/permissions.ts';
import { channelsOfAll } from '../analytics/sources.ts';
import { forbidden } from '../http/errors.ts';

export const NO_PIXEL_ACCESS = 'You do not have access to pixel data';
export const NO_SOURCE_ACCESS = 'You do not have access to the requested sources';

/** Refuses a filter naming any source the key cannot see. */
export function assertCanRequest(visibility: Visibility, sources: readonly string[] | undefined): void {
  if (sources?.some((s) => !canRequest(visibility, s))) throw forbidden(NO_SOURCE_ACCESS);
}

/**
 * The raw channels a pixel-side query may return: the requested ones, or all the key sees.
 * Null means unrestricted (admin key, no filter).
 */
export function pixelChannels(visibility: Visibility, requested: readonly string[] | undefined): string[] | null {
  if (!seesAnyPixelData(visibility)) throw forbidden(NO_PIXEL_ACCESS);
  assertCanRequest(visibility, requested);
  if (requested?.length) return channelsOfAll(requested);
  return visibility.channels === null ? null : [...visibility.channels];
}
