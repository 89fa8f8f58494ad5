import fs from 'node:fs';

/**
 * Everything under the data dir is the owner's only (docs/operations.md, "Files and network"):
 * it holds webhook secrets, signing keys, customer ids and e-mail addresses. The process also runs
 * with umask 077; these explicit modes keep that true when the code runs under another umask
 * (tests, embedding) and tighten a data dir made by an older version.
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/** Creates `dir` (and missing parents) owner-only, and takes group and other access off an existing one. */
export function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  if ((fs.statSync(dir).mode & 0o077) !== 0) fs.chmodSync(dir, PRIVATE_DIR);
}
