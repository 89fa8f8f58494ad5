import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Stores } from '../store/index.ts';
import type { Progress } from './progress-bar.ts';
import { InvalidInput } from '../kit/errors.ts';
import type { CommandArgs } from './command-line.ts';

/** What every CLI command gets, whether it runs in the CLI process or inside the server. */
export interface CommandContext {
  config: Config;
  stores: Stores;
  logger: Logger;
  /**
   * Human-readable progress for long work; goes to the CLI's stderr. With `bar`, a progress bar
   * drawn in place on a terminal and left out when stderr is not one.
   */
  progress(message: string, bar?: Progress): void;
  /** Aborted when whoever asked for the command is gone (the CLI that sent it to the server). */
  signal?: AbortSignal;
}

export type { CommandArgs } from './command-line.ts';

export type Command = (ctx: CommandContext, args: CommandArgs) => Promise<unknown>;

/** A usage error, the command line's InvalidInput: printed as JSON on stderr with a non-zero exit. */
export class CommandError extends InvalidInput {}

/** A result that is printed like any other but ends the CLI with another exit code (import with rejected rows: 2). */
export class ExitWith {
  constructor(
    readonly result: unknown,
    readonly exitCode: number,
  ) {}
}

/** An option's value is at most this long unless its command says otherwise; nothing stored needs more. */
export const MAX_OPTION_LENGTH = 2000;

export function requireOption(args: CommandArgs, name: string, maxLength = MAX_OPTION_LENGTH): string {
  const value = args.options[name];
  if (typeof value !== 'string' || value === '') throw new CommandError(`--${name} is required`);
  if (value.length > maxLength) throw new CommandError(`--${name} must be at most ${maxLength} characters`);
  return value;
}

export function workspaceOption(args: CommandArgs): number {
  const raw = requireOption(args, 'workspace');
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw new CommandError('--workspace must be a workspace id');
  return id;
}

/** An absolute URL of this service: `STORELENS_PUBLIC_URL`, else localhost on the configured port. */
export function serviceUrl(ctx: CommandContext, path: string): string {
  const base = ctx.config.publicUrl ?? `http://localhost:${ctx.config.port}`;
  return `${base.replace(/\/+$/, '')}${path}`;
}
