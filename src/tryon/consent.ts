import type { Storefront } from '../store/app/tryon-storefronts.ts';
import { TryOnError } from './errors.ts';

/** The shopper's consent to process the photo, in the storefront's current consent version. */
export function checkConsent(storefront: Storefront, body: { consent?: boolean; adult?: boolean; consent_version?: string }, needAdult: boolean): void {
  if (body.consent !== true) throw new TryOnError('invalid_consent', 'consent must be true');
  if (needAdult && body.adult !== true) throw new TryOnError('invalid_consent', 'adult must be true');
  if (body.consent_version !== storefront.consentVersion) {
    throw new TryOnError('invalid_consent', 'consent_version is not the current consent version');
  }
}
