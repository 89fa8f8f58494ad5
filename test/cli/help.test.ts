/**
 * `npm run cli -- --help` and `<command> --help` print help and touch no data dir: the data dir
 * named in the environment does not exist before or after. No fixture.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runCli, tempDataDir } from './run-cli.ts';
import { commands } from '../../src/cli/commands/index.ts';
import { COMMAND_USAGE } from '../../src/cli/command-line.ts';

const parent = tempDataDir();
const dataDir = path.join(parent, 'never-created');
const cli = (...args: string[]) => runCli(dataDir, args);

test.after(() => fs.rmSync(parent, { recursive: true, force: true }));

test('npm run cli -- --help lists every command with what it does, touching no data dir', async () => {
  const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'cli', '--', '--help'], { env: { ...process.env, STORELENS_DATA_DIR: dataDir } });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('close', (code) => resolve({ code, stdout }));
  });
  assert.equal(result.code, 0);
  const lines = result.stdout.split('\n');
  assert.equal(lines[0], 'Usage: npm run --silent cli -- <command> [options]');
  const listed = lines.slice(lines.indexOf('Commands:') + 1, lines.indexOf('', lines.indexOf('Commands:'))).map((l) => l.trim().split(/\s{2,}/));
  assert.deepEqual(listed.map(([name]) => name), ['start', ...Object.keys(commands)]);
  assert.deepEqual(listed.find(([name]) => name === 'user reset-password'), [
    'user reset-password',
    "sets a new password for a dashboard user and signs out all of the user's dashboard sessions",
  ]);
  assert.equal(lines.at(-2), 'npm run --silent cli -- <command> --help shows a command\'s options.');
  assert.equal(fs.existsSync(dataDir), false);
});

test('-h, help and no command at all print the same list; no command exits 1', async () => {
  const help = await cli('--help');
  for (const args of [['-h'], ['help']]) assert.deepEqual(await cli(...args), help);
  const none = await cli();
  assert.deepEqual([none.code, none.stdout], [1, help.stdout]);
  assert.equal(fs.existsSync(dataDir), false);
});

test('<command> --help prints its synopsis and each option, for every command', async () => {
  const reset = await cli('user', 'reset-password', '--help');
  assert.deepEqual([reset.code, reset.stdout], [0, [
    'Usage: npm run --silent cli -- user reset-password --email EMAIL [--password PASSWORD]',
    '',
    "Sets a new password for a dashboard user and signs out all of the user's dashboard sessions.",
    '',
    'Options:',
    '  --email EMAIL        their sign-in (required)',
    '  --password PASSWORD  the new password (left out: one is generated and printed once); - reads it from standard input',
    '',
  ].join('\n')]);
  const importHelp = await cli('import', '--workspace', '1', '-h');
  assert.match(importHelp.stdout, /^Usage: npm run --silent cli -- import --workspace ID --kind KIND --file FILE \[--format FORMAT\] \[--strict\]\n/);
  assert.match(importHelp.stdout, /\n {2}--strict {6,}import nothing when any row is invalid\n/);
  const settings = await cli('settings', 'set', '--help');
  assert.match(settings.stdout, /^Usage: npm run --silent cli -- settings set --workspace ID key=value \.\.\.\n/);
  for (const name of ['start', ...Object.keys(commands)]) {
    const { code, stdout } = await cli(...name.split(' '), '--help');
    assert.equal(code, 0, name);
    assert.ok(stdout.startsWith(`Usage: npm run --silent cli -- ${name}`), name);
    const options = [...stdout.matchAll(/^ {2}--([a-z-]+)/gm)].map((m) => m[1]);
    assert.deepEqual(options, COMMAND_USAGE[name as keyof typeof COMMAND_USAGE].options.map((o) => o.name), name);
  }
  assert.equal(fs.existsSync(dataDir), false);
});

test('an unknown command is refused before any data dir is touched, pointing to --help', async () => {
  const result = await cli('frobnicate', '--workspace', '1');
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
  assert.match(result.error.error.message, /^Unknown command: frobnicate --workspace 1\. Commands: start, workspace create, key create, .*, user reset-password\. npm run --silent cli -- --help says what each does$/);
  assert.equal(fs.existsSync(dataDir), false);
});
