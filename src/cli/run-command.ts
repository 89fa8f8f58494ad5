import { DomainError, Unavailable, fullMessage } from '../kit/errors.ts';
import { ExitWith, type CommandContext } from './command.ts';
import { commands } from './commands/index.ts';
import { parseCommandLine, unknownCommandMessage } from './command-line.ts';

/** `exitCode` is absent when the command succeeded fully (exit 0). */
export type CommandOutcome = { result: unknown; exitCode?: number } | { error: { message: string } };

/**
 * Runs one command. A refusal (a domain error: usage, validation, a name taken) becomes `{error}`
 * with its message; anything else, an unreachable store included, is a failure, logged.
 */
export async function runCommand(ctx: CommandContext, argv: string[]): Promise<CommandOutcome> {
  const { name, args } = parseCommandLine(argv);
  // `start` serves (main.ts runs it); here it is unknown like any other name.
  const command = name && name !== 'start' ? commands[name] : undefined;
  if (!command) return { error: { message: unknownCommandMessage(argv) } };
  try {
    const result = await command(ctx, args);
    return result instanceof ExitWith ? { result: result.result, exitCode: result.exitCode } : { result };
  } catch (error) {
    if (error instanceof DomainError && !(error instanceof Unavailable)) return { error: { message: fullMessage(error) } };
    ctx.logger.error({ err: error }, 'command failed');
    return { error: { message: `Command failed: ${(error as Error).message}` } };
  }
}
