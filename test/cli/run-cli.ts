/**
 * Drives the real command line: spawns `node --import tsx src/cli/main.ts ...` on a temp data dir,
 * either alone (the CLI opens the stores itself) or beside a server started on the same dir
 * (the CLI then goes through the server's admin API).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = path.join(ROOT, 'src/cli/main.ts');
/** Absolute, so that the CLI can run in any directory. */
const TSX = import.meta.resolve('tsx');

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-cli-'));
}

/** Environment for a child: only what the test decides, no rate limits or in-flight bound, quiet logs. */
export function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    STORELENS_DATA_DIR: dataDir,
    STORELENS_RATE_PER_SECOND: '0',
    STORELENS_RATE_BURST: '0',
    STORELENS_DAILY_QUOTA: '0',
    STORELENS_MAX_QUERIES_PER_KEY: '0',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (the command's one document), or undefined (nothing, or help text). */
  json: any;
  /** The `{error}` document on stderr, or undefined. */
  error: any;
}

const lastJsonLine = (text: string) => {
  const line = text.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  return line ? JSON.parse(line) : undefined;
};

/** `cwd`: the directory the CLI runs in (relative `--file` names are resolved against it); `input`: its standard input. */
export async function runCli(dataDir: string, args: string[], extra: Record<string, string> = {}, cwd = ROOT, input = ''): Promise<CliResult> {
  const child = spawn(process.execPath, ['--import', TSX, MAIN, ...args], { cwd, env: childEnv(dataDir, extra) });
  child.stdin.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const json = /^\s*[[{]/.test(stdout) ? JSON.parse(stdout) : undefined;
  return { code, stdout, stderr, json, error: code === 0 ? undefined : lastJsonLine(stderr) };
}

export interface Server {
  child: ChildProcess;
  baseUrl: string;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `main.ts start` on a free port and waits until /healthz answers. */
export async function startServer(dataDir: string, extra: Record<string, string> = {}, timeoutMs = 120_000): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'start'], {
    cwd: ROOT,
    env: childEnv(dataDir, { PORT: '0', HOST: '127.0.0.1', STORELENS_DEMO: '0', ...extra }),
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + timeoutMs;
  let baseUrl = '';
  while (!baseUrl) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${err}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${err}`);
    }
    const served = /serves on (http:\/\/localhost:\d+)/.exec(err);
    if (served) {
      const health = await fetch(`${served[1]}/healthz`).catch(() => null);
      if (health?.ok) baseUrl = served[1]!;
    }
    if (!baseUrl) await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    baseUrl,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export async function getJson(url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.json() };
}

export function writeFile(dir: string, name: string, content: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}
