/** The browser tests on a machine without Chromium: they fail and say how to install it. No fixture. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchChromium } from './chromium.ts';

test('a missing Chromium fails the browser tests with the command that installs it', async () => {
  await assert.rejects(launchChromium([], '/nonexistent/chromium'), {
    message: 'The browser tests need Chromium at /nonexistent/chromium, which is missing. Install it (as root): apt-get update && apt-get install -y chromium',
  });
});

test('the installed one starts', async () => {
  const browser = await launchChromium();
  try {
    assert.match(browser.version(), /^\d+\./);
  } finally {
    await browser.close();
  }
});
