/**
 * The browser tests' Chromium: Debian's package at /usr/bin/chromium, driven by playwright-core
 * (which cannot download browsers here). `npm test` installs it first (scripts/test-services.sh); a machine without it fails the
 * tests with the command that installs it, never skips them.
 */
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_INSTALL = 'apt-get install -y chromium';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];

/** A headless Chromium; `extraArgs` add to the quiet defaults above. */
export async function launchChromium(extraArgs: readonly string[] = [], executablePath = CHROMIUM): Promise<Browser> {
  if (!fs.existsSync(executablePath)) {
    throw new Error(`The browser tests need Chromium at ${executablePath}, which is missing. Install it (as root): apt-get update && ${CHROMIUM_INSTALL}`);
  }
  return chromium.launch({ executablePath, args: [...ARGS, ...extraArgs] });
}
