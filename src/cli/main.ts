import path from 'node:path';
import { loadConfig } from '../config.ts';
import { adminToken, runningServer } from '../server/runtime-files.ts';
import type { CommandOutcome } from './run-command.ts';
import { SECRET_OPTIONS, commandHelp, generalHelp, parseCommandLine, unknownCommandMessage } from './command-line.ts';
import { progressPrinter } from './progress-bar.ts';

/** Progress of a command (lines, and a bar on a terminal) on stderr; stdout keeps its one JSON document. */
const showProgress = progressPrinter(process.stderr);

/**
 * `npm run --silent cli -- <command>`: one JSON document on stdout; errors as JSON on stderr
 * with a non-zero exit. Goes through the running server when there is one on the data dir.
 * The stores, the commands and the HTTP app are imported only when needed: a command sent to a
 * running server then starts in about a second instead of loading the whole service.
 */
async function viaServer(port: number, token: string, argv: string[]): Promise<CommandOutcome> {
  const response = await fetch(`http://127.0.0.1:${port}/admin/cli`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ argv }),
  });
  if (!response.ok || !response.body) return { error: { message: `Server answered ${response.status}` } };
  let outcome: CommandOutcome = { error: { message: 'Server closed the connection' } };
  let pending = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines.filter(Boolean)) {
      const message = JSON.parse(line);
      if ('progress' in message) showProgress(message.progress, message.bar);
      else outcome = message;
    }
  }
  return outcome;
}

async function inProcess(argv: string[]): Promise<CommandOutcome> {
  const [{ createLogger }, { openStores }, { runCommand }] = await Promise.all([
    import('../log.ts'),
    import('../store/index.ts'),
    import('./run-command.ts'),
  ]);
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const stores = await openStores(config, logger);
  try {
    return await runCommand(
      { config, stores, logger, progress: showProgress },
      argv,
    );
  } finally {
    await stores.close();
  }
}

/** File arguments are resolved here (as file paths, never URLs: any name works): the server may run in another directory. */
function absolutePaths(argv: string[]): string[] {
  return argv.map((arg, i) => {
    if (argv[i - 1] === '--file') return path.resolve(arg);
    return arg.startsWith('--file=') ? `--file=${path.resolve(arg.slice(7))}` : arg;
  });
}

/**
 * Options that carry a secret (`SECRET_OPTIONS`), given as `-`, are read from standard input, one
 * line per such option in the order given, so that they never appear in a process's arguments
 * (`ps`, /proc) or in shell history.
 */
const MAX_SECRET_STDIN_BYTES = 64 * 1024;

async function readStdin(maxBytes: number): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += chunk;
    if (text.length > maxBytes) throw new Error(`Standard input is over ${Math.round(maxBytes / 1024)} KB`);
  }
  return text;
}

async function secretsFromStdin(argv: string[]): Promise<string[]> {
  const slots = argv.flatMap((arg, i) => (arg === '-' && SECRET_OPTIONS.has(argv[i - 1] ?? '') ? [i] : []));
  if (!slots.length) return argv;
  const lines = (await readStdin(MAX_SECRET_STDIN_BYTES)).split(/\r?\n/);
  const filled = [...argv];
  slots.forEach((slot, n) => {
    const line = lines[n];
    if (!line) throw new Error(`${argv[slot - 1]} -: standard input has no line ${n + 1} for it`);
    filled[slot] = line;
  });
  return filled;
}

/**
 * `--help` (or `-h`, or `help` alone), `<command> --help`, no command at all, or a name that is no
 * command: answered here, before the configuration is read, so none of them opens a data dir.
 */
function withoutDataDir(argv: string[]): number | null {
  const { name, args } = parseCommandLine(argv);
  if (argv.length === 0 || args.options.help === true || args.options.h === true || (argv.length === 1 && argv[0] === 'help')) {
    process.stdout.write(name ? commandHelp(name) : generalHelp());
    return argv.length === 0 ? 1 : 0;
  }
  if (name) return null;
  process.stderr.write(`${JSON.stringify({ error: { message: unknownCommandMessage(argv) } })}\n`);
  return 1;
}

/**
 * `settings set ... NAME=-`: the list is standard input, one value per line or comma-separated,
 * for lists longer than one argument may be (about 128 KB on Linux).
 */
async function settingFromStdin(argv: string[]): Promise<string[]> {
  const slot = argv[0] === 'settings' && argv[1] === 'set' ? argv.findIndex((arg) => /^\w+=-$/.test(arg)) : -1;
  if (slot === -1) return argv;
  const { SETTINGS_BODY_LIMIT } = await import('../store/app/settings.ts');
  const values = (await readStdin(SETTINGS_BODY_LIMIT)).split(/[\r\n,]+/).map((v) => v.trim()).filter(Boolean);
  const filled = [...argv];
  filled[slot] = `${argv[slot]!.slice(0, -1)}${values.join(',')}`;
  return filled;
}

/**
 * Writes and waits until the text is handed on: on a pipe, writing is asynchronous, and the
 * process.exit that follows would cut a long document (a settings list) short.
 */
function written(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
}

async function main(argv: string[]): Promise<number> {
  const answered = withoutDataDir(argv);
  if (answered !== null) return answered;
  // Whatever this process creates in the data dir is the owner's only (docs/operations.md).
  process.umask(0o077);
  if (argv[0] === 'start') {
    const { start } = await import('./start.ts');
    await start(loadConfig());
    return -1;
  }
  const config = loadConfig();
  const server = runningServer(config.dataDir);
  const args = await settingFromStdin(await secretsFromStdin(absolutePaths(argv)));
  const outcome = server ? await viaServer(server.port, adminToken(config.dataDir), args) : await inProcess(args);
  if ('error' in outcome) {
    await written(process.stderr, `${JSON.stringify(outcome)}\n`);
    return 1;
  }
  await written(process.stdout, `${JSON.stringify(outcome.result, null, 2)}\n`);
  return outcome.exitCode ?? 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error) => {
    process.stderr.write(`${JSON.stringify({ error: { message: (error as Error).message } })}\n`);
    process.exit(1);
  },
);
