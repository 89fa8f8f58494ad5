import { parseArgs } from 'node:util';
import { DomainError, Unavailable } from '../kit/errors.ts';
import { ExitWith, type CommandArgs, type CommandContext } from './command.ts';
import { commands } from './commands/index.ts';

/** `exitCode` is absent when the command succeeded fully (exit 0). */
export type CommandOutcome = { result: unknown; exitCode?: number } | { error: { message: string } };

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
  'account',
  'access-token',
  'customer-id',
  'login-customer-id',
  'developer-token',
  'client-id',
  'client-secret',
  'refresh-token',
  'email',
  'password',
  'role',
  'since',
  'start-date',
  'end-date',
] as const;

const OPTIONS = Object.fromEntries(VALUE_OPTIONS.map((name) => [name, { type: 'string' as const }]));

export function parseCommandLine(argv: string[]): { name: string; args: CommandArgs } {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, strict: false, allowPositionals: true });
  const twoWords = positionals.slice(0, 2).join(' ');
  const name = Object.hasOwn(commands, twoWords) ? twoWords : (positionals[0] ?? '');
  const rest = positionals.slice(name.split(' ').length);
  return { name, args: { options: values as CommandArgs['options'], positionals: rest } };
}

/**
 * Runs one command. A refusal (a domain error: usage, validation, a name taken) becomes `{error}`
 * with its message; anything else, an unreachable store included, is a failure, logged.
 */
export async function runCommand(ctx: CommandContext, argv: string[]): Promise<CommandOutcome> {
  const { name, args } = parseCommandLine(argv);
  // `constructor` or `toString` must not find Object.prototype's members.
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    return { error: { message: `Unknown command: ${argv.join(' ')}. Commands: start, ${Object.keys(commands).join(', ')}` } };
  }
  try {
    const result = await command(ctx, args);
    return result instanceof ExitWith ? { result: result.result, exitCode: result.exitCode } : { result };
  } catch (error) {
    if (error instanceof DomainError && !(error instanceof Unavailable)) return { error: { message: error.message } };
    ctx.logger.error({ err: error }, 'command failed');
    return { error: { message: `Command failed: ${(error as Error).message}` } };
  }
}
