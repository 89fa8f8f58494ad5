/**
 * A host emulation for the MCP Apps (docs/mcp.md, "Charts inside the assistant"): a page in
 * Chromium that loads an app's HTML from resources/read into a sandboxed frame and speaks the
 * documented postMessage protocol through the official AppBridge (app-host-page.ts), sending a real
 * tool result. Used by test/mcp/apps-browser.test.ts and the screenshot script.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';
import type { ShowApp } from './app-host-page.ts';

/** What a host applies to an app resource that declares no domains (MCP Apps spec, "Host Behavior"). */
export const RESTRICTIVE_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

const HOST_URL = 'http://host.test/';
let script: Promise<string> | null = null;

function hostScript(): Promise<string> {
  script ??= build({
    entryPoints: [fileURLToPath(new URL('./app-host-page.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  }).then((r) => r.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script'));
  return script;
}

/** A host page; console errors, page errors and refused requests of the page and its frames go to `problems`. */
export async function openHost(browser: Browser, problems: string[], viewport = { width: 900, height: 700 }): Promise<Page> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>Host</title><style>body { margin: 0; padding: 16px; }</style></head><body><script>${await hostScript()}</script></body></html>`;
  await page.route(HOST_URL, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body }));
  await page.goto(HOST_URL);
  return page;
}

/** Shows an app with a tool's arguments and result; resolves with the app's frame once the result is sent. */
export async function showApp(page: Page, app: Omit<ShowApp, 'csp'>): Promise<Frame> {
  await page.evaluate((options) => (window as unknown as { showApp(o: ShowApp): Promise<void> }).showApp(options), { ...app, csp: RESTRICTIVE_CSP });
  return page.frames().find((f) => f !== page.mainFrame())!;
}

/** The host's theme changes (ui/notifications/host-context-changed). */
export async function setHostTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((t) => (window as unknown as { setTheme(t: string): void }).setTheme(t), theme);
}
