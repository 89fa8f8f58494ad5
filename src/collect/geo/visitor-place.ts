/**
 * Where a visitor is, for the rows of one collector request (docs/collection.md section 2): the
 * proxy's or CDN's headers when configured and present, else the place of the client address
 * (`request.ip`: X-Forwarded-For counts only with STORELENS_TRUST_PROXY=1) in the city database.
 */
import { countryFrom } from '../visitor.ts';
import { cleanCity, type CityDatabase, type Place } from './city-database.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A city name from a proxy header. Node reads header bytes as Latin-1, so a name the proxy sent
 * as UTF-8 (`São Paulo`) is decoded again; some CDNs percent-encode it instead (`S%C3%A3o%20Paulo`).
 */
export function cityFrom(header: string | string[] | undefined): string {
  let value = (Array.isArray(header) ? header[0] : header ?? '').trim();
  if (/%[0-9A-Fa-f]{2}/.test(value)) {
    try {
      value = decodeURIComponent(value);
    } catch {
      // not percent-encoding after all: kept as sent
    }
  } else if (/[\u0080-\u00ff]/.test(value)) {
    try {
      value = strictUtf8.decode(Buffer.from(value, 'latin1'));
    } catch {
      // Latin-1 text, not UTF-8 bytes: kept as sent
    }
  }
  // Control characters never belong to a name.
  return cleanCity(value.replace(/[\u0000-\u001f\u007f]/g, ''));
}

export interface PlaceHeaders {
  country: string | string[] | undefined;
  /** Undefined when no city header is configured. */
  city: string | string[] | undefined;
}

/**
 * The headers win; what they leave empty comes from the database. A city from the database is
 * taken only when its country is the visitor's country, so a city never contradicts the country
 * stored beside it. An address that is not public, or that the database does not know, gives ''.
 */
export async function visitorPlace(database: CityDatabase, ip: string, headers: PlaceHeaders): Promise<Place> {
  const country = countryFrom(headers.country);
  const city = cityFrom(headers.city);
  if (country && city) return { country, city };
  const found = await database.lookup(ip);
  if (!found) return { country, city };
  const place = { country: country || found.country, city };
  if (!place.city && found.country === place.country) place.city = found.city;
  return place;
}
