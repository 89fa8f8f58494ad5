/**
 * `geo update` (docs/operations.md, "Visitor cities"): installs a newer IP-to-city database as
 * `<data dir>/geo/city.mmdb`, which the collector then prefers over the bundled one. The source
 * is a file or a URL, plain or gzipped; by default DB-IP's free IP to City Lite of the current
 * month (of the month before while the new one is not out yet), published monthly under CC BY 4.0
 * in the MaxMind DB format. The file is checked (a MaxMind DB whose type names a city database)
 * before it replaces the installed one, in one rename, so a failed update changes nothing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import maxmind from 'maxmind';
import { InvalidInput } from '../../kit/errors.ts';
import { callOutbound, OutboundCut } from '../../kit/outbound.ts';
import { syncDirectory } from '../dead-letters.ts';
import { installedDatabaseFile } from './city-database.ts';

export interface InstalledDatabase {
  file: string;
  source: string;
  database_type: string;
  built_at: string;
  ip_version: number;
  bytes: number;
}

/** Larger than any city database in use (DB-IP's is ~130 MB, MaxMind's GeoLite2 City ~60 MB). */
const MAX_BYTES = 1024 ** 3;

/**
 * Bounds of a download (docs/operations.md, "Visitor cities"): the whole call within 15 minutes
 * (DB-IP's ~130 MB at ~150 KB/s) and at most 256 MiB of answer, which is held in memory until
 * written. The URL is the operator's own choice, so a private address (a mirror inside the
 * network) is allowed.
 */
export const DOWNLOAD_LIMITS = { deadlineMs: 15 * 60_000, maxBytes: 256 * 1024 ** 2 };

/** DB-IP's free city database of the month `at` falls in, and of the month before. */
export function dbIpLiteUrls(at: Date): string[] {
  const month = (date: Date) => date.toISOString().slice(0, 7);
  const before = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1));
  return [at, before].map((date) => `https://download.db-ip.com/free/dbip-city-lite-${month(date)}.mmdb.gz`);
}

function sizeLimit(source: string): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > MAX_BYTES ? new InvalidInput(`${source} is larger than ${MAX_BYTES / 1024 ** 2} MB`) : null, chunk);
    },
  });
}

/** The source's bytes as a stream; for a URL list, the first that the server has. */
async function openSource(
  source: { file: string } | { urls: string[] },
  progress: (message: string) => void,
  limits: typeof DOWNLOAD_LIMITS,
): Promise<{ name: string; body: Readable }> {
  if ('file' in source) {
    if (!fs.existsSync(source.file)) throw new InvalidInput(`--file: ${source.file} does not exist`);
    return { name: source.file, body: fs.createReadStream(source.file) };
  }
  for (const [i, url] of source.urls.entries()) {
    progress(`geo: downloading ${url}`);
    const answer = await callOutbound(url, { ...limits, maxRedirects: 5 }).catch((error: unknown) => {
      throw error instanceof OutboundCut ? new InvalidInput(`${url}: ${error.message}`) : error;
    });
    if (answer.status === 404 && i < source.urls.length - 1) continue;
    if (answer.status < 200 || answer.status > 299) throw new InvalidInput(`${url} answered ${answer.status}`);
    return { name: url, body: Readable.from([answer.body]) };
  }
  throw new InvalidInput('no source to download');
}

async function isGzip(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r+');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

export async function installCityDatabase(
  dataDir: string,
  source: { file: string } | { urls: string[] },
  progress: (message: string) => void = () => undefined,
  limits = DOWNLOAD_LIMITS,
): Promise<InstalledDatabase> {
  const target = installedDatabaseFile(dataDir);
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.city-${crypto.randomBytes(6).toString('hex')}`);
  const [raw, plain] = [`${temp}.download`, `${temp}.mmdb`];
  try {
    const { name, body } = await openSource(source, progress, limits);
    await pipeline(body, sizeLimit(name), fs.createWriteStream(raw, { mode: 0o600 }));
    if (await isGzip(raw)) {
      await pipeline(fs.createReadStream(raw), zlib.createGunzip(), sizeLimit(name), fs.createWriteStream(plain, { mode: 0o600 })).catch((error: Error) => {
        throw error instanceof InvalidInput ? error : new InvalidInput(`${name} is gzipped but does not unpack: ${error.message}`);
      });
    } else {
      await fs.promises.rename(raw, plain);
    }
    const metadata = await maxmind.open(plain).then((reader) => reader.metadata, () => {
      throw new InvalidInput(`${name} is not a MaxMind DB (.mmdb) file`);
    });
    if (!/city/i.test(metadata.databaseType)) {
      throw new InvalidInput(`${name} is a ${metadata.databaseType} database, not a city database`);
    }
    await fsyncFile(plain);
    await fs.promises.rename(plain, target);
    await syncDirectory(dir);
    return {
      file: target,
      source: name,
      database_type: metadata.databaseType,
      built_at: metadata.buildEpoch.toISOString(),
      ip_version: metadata.ipVersion,
      bytes: (await fs.promises.stat(target)).size,
    };
  } finally {
    await Promise.all([raw, plain].map((file) => fs.promises.rm(file, { force: true })));
  }
}
