/** Shared by the dashboard tests: users through the CLI command, sign-in through the HTTP surface. */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helper.ts';
import { createLogger } from '../../src/log.ts';
import { runCommand, type CommandOutcome } from '../../src/cli/run-command.ts';

export const PASSWORD = 'correct horse battery';

/** Runs a CLI command inside the test process, as `npm run cli` does without a server. */
export function cli(t: TestApp, argv: string[]): Promise<CommandOutcome> {
  return runCommand({ config: t.config, stores: t.stores, logger: createLogger('silent'), progress: () => {} }, argv);
}

export async function createUser(t: TestApp, email: string, workspaceId: number, extra: string[] = []): Promise<void> {
  const outcome = await cli(t, ['user', 'create', '--email', email, '--password', PASSWORD, '--workspace', String(workspaceId), ...extra]);
  assert.ok('result' in outcome, JSON.stringify(outcome));
}

export interface Signed {
  cookie: string;
  csrf: string;
  get(url: string): Promise<{ status: number; body: any }>;
  send(method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export async function signIn(t: TestApp, email: string, password = PASSWORD): Promise<Signed> {
  const response = await t.app.inject({ method: 'POST', url: '/dashboard/api/sign-in', payload: { email, password } });
  assert.equal(response.statusCode, 200, response.body);
  const cookie = String(response.headers['set-cookie']).split(';')[0]!;
  const csrf = response.json().csrf_token as string;
  return {
    cookie,
    csrf,
    async get(url) {
      const r = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      return { status: r.statusCode, body: r.json() };
    },
    async send(method, url, body) {
      const r = await t.app.inject({ method, url, headers: { cookie, 'x-csrf-token': csrf }, ...(body === undefined ? {} : { payload: body as object }) });
      return { status: r.statusCode, body: r.json() };
    },
  };
}

/**
 * A new browser context signed in as `email` at `path`; script errors and CSP refusals go to
 * `errors` (a refused request, such as the 401 before sign-in, is logged by the browser itself).
 */
export async function signedInPage(browser: Browser, url: string, email: string, errors: string[]): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForSelector('header.top');
  return page;
}
