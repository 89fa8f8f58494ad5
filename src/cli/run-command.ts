import { parseArgs } from 'node:util';
import { CommandError, type CommandArgs, type CommandContext } from './command.ts';
import { commands } from './commands/index.ts';

export type CommandOutcome = { result: unknown } | { error: { message: string } };

/** Options that take a value; any other `--flag` is a boolean switch (e.g. `--strict`). */
const VALUE_OPTIONS = [
  'name',
  'currency',
  'timezone',
  'workspace',
  'scopes',
  'api-key',
  'kind',
  'file',
  'origin',
  'consent-version',
  'marketing-version',
  'session-attempts',
  'daily-attempts',
  'coverage-max-age-days',
  'experiment',
  'experiment-variants',
  'days',
  'platform',
  'shop',
  'site',
  'secret',
  'format',
  'email',
  'password',
  'role',
] as const;

const OPTIONS = Object.fromEntries(VALUE_OPTIONS.map((name) => [name, { type: 'string' as const }]));

export function parseCommandLine(argv: string[]): { name: string; args: CommandArgs } {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, strict: false, allowPositionals: true });
  const twoWords = positionals.slice(0, 2).join(' ');
  const name = Object.hasOwn(commands, twoWords) ? twoWords : (positionals[0] ?? '');
  const rest = positionals.slice(name.split(' ').length);
  return { name, args: { options: values as CommandArgs['options'], positionals: rest } };
}

/** Runs one command; usage and validation errors become `{error}`, anything else is rethrown. */
export async function runCommand(ctx: CommandContext, argv: string[]): Promise<CommandOutcome> {
  const { name, args } = parseCommandLine(argv);
  // `constructor` or `toString` must not find Object.prototype's members.
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    return { error: { message: `Unknown command: ${argv.join(' ')}. Commands: start, ${Object.keys(commands).join(', ')}` } };
  }
  try {
    return { result: await command(ctx, args) };
  } catch (error) {
    if (error instanceof CommandError) return { error: { message: error.message } };
    ctx.logger.error({ err: error }, 'command failed');
    return { error: { message: `Command failed: ${(error as Error).message}` } };
  }
}
